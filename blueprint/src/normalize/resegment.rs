//! Dotted addresses whose octets speech recognition merged, split, lost or looped, re-segmented
//! when an address is expected: "126. 3. 13. 5. 254" is 126.3.135.254, "131.219.1308. 127" is
//! 131.219.138.127, "109.135.0.0.0" is 109.135.0.0.

use super::numbers::parse_unsigned;

/// The most boundary edits a reading may need: one merge or split, or one boundary moved
/// (a split and a merge), the errors measured with whisper tiny.en. More is guessing.
const MAX_EDITS: usize = 2;

/// The longest digit string that four octets can make.
const MAX_DIGITS: usize = 12;

/// The addresses that the digit pieces of `text` make with the fewest edits.
///
/// The pieces are the groups between dots (`.`, `,`, "dot", "point"), each typed digits
/// (spaces inside a group separate pieces too) or one number in words ("one ninety two").
/// A reading cuts the pieces' digits, in order, into four octets 0..=255 without leading
/// zeros; each boundary removed (two pieces merged) or added costs one edit. A boundary may
/// only be added inside a piece that is no octet itself ("2423", "05"): a valid octet is
/// never split, so "255. 192." gives nothing. An octet said "tens then unit" and written
/// apart costs one edit too: a piece that is no octet but a multiple of ten (20..=250) then
/// a digit 1..=9 is their sum ("1308" = 138), and so are two pieces that are such a
/// multiple and such a digit ("130. 8" = 138). Empty when no reading needs at most
/// [`MAX_EDITS`] edits; otherwise every reading with the fewest edits, in order.
///
/// With more than four pieces, a piece that speech recognition looped may also be read fewer
/// times ([`loop_readings`]), and those readings stand beside the others, none preferred:
/// "109.135.0.0.0" is 109.135.0.0 and "255.255.255.255.224" is 255.255.255.224, but
/// "255.255.255.0.0" is 255.255.0.0 or 255.255.255.0, and "10. 0. 0. 0. 1" is 10.0.0.1 or
/// 100.0.0.1 (a wrong answer looped must never read as a right one).
pub(super) fn resegment(text: &str) -> Vec<[u8; 4]> {
    let Some(pieces) = pieces(text) else {
        return Vec::new();
    };
    let found = readings_of(pieces.clone(), 0, true);
    let mut readings: Vec<[u8; 4]> = match found.iter().map(|(edits, _)| *edits).min() {
        Some(best) => found
            .into_iter()
            .filter(|(edits, _)| *edits == best)
            .flat_map(|(_, addresses)| addresses)
            .collect(),
        None => Vec::new(),
    };
    if pieces.len() > 4 {
        readings.extend(loop_readings(pieces));
    }
    readings.sort_unstable();
    readings.dedup();
    readings
}

/// Every address that `pieces`, looped by speech recognition, may stand for: each run of equal
/// pieces kept fewer times costs one edit, a tens-unit sum one more, up to [`MAX_EDITS`], and
/// no boundary is added or removed. No way of reading the loops is preferred to another, however
/// many copies it drops: "255.255.255.0.0.0.0" may be 255.255.255.0, 255.255.0.0 or
/// 255.0.0.0, so it is all three.
fn loop_readings(pieces: Vec<String>) -> Vec<[u8; 4]> {
    loops_cut(pieces)
        .into_iter()
        .flat_map(|(cut, spent)| readings_of(cut, spent, false))
        .flat_map(|(_, addresses)| addresses)
        .collect()
}

/// The addresses that tens-unit sums and, when `may_cut`, boundary edits make of `pieces`,
/// grouped with the edits they need on top of `spent`, at most [`MAX_EDITS`] in all.
fn readings_of(pieces: Vec<String>, spent: usize, may_cut: bool) -> Vec<(usize, Vec<[u8; 4]>)> {
    let budget = MAX_EDITS.saturating_sub(spent);
    tens_unit_variants(pieces, budget)
        .into_iter()
        .filter_map(|(variant, summed)| {
            let cut_budget = if may_cut { budget - summed } else { 0 };
            let (cuts, found) = fewest_cuts(&variant, cut_budget)?;
            Some((spent + summed + cuts, found))
        })
        .collect()
}

/// `pieces` and every piece list that up to `budget` tens-unit sums make of it, each with its
/// fewest sums.
fn tens_unit_variants(pieces: Vec<String>, budget: usize) -> Vec<(Vec<String>, usize)> {
    breadth_first(pieces, budget, tens_unit_sums)
}

/// Every piece list that cutting one to [`MAX_EDITS`] runs of equal pieces shorter makes of
/// `pieces`, each with its fewest cuts; nothing when there are four pieces or fewer.
fn loops_cut(pieces: Vec<String>) -> Vec<(Vec<String>, usize)> {
    if pieces.len() <= 4 {
        return Vec::new();
    }
    let mut all = breadth_first(pieces, MAX_EDITS, loop_cuts);
    all.retain(|(_, cuts)| *cuts > 0);
    all
}

/// `start` and every piece list that up to `budget` steps of `step` make of it, each with its
/// fewest steps.
fn breadth_first(
    start: Vec<String>,
    budget: usize,
    step: fn(&[String]) -> Vec<Vec<String>>,
) -> Vec<(Vec<String>, usize)> {
    let mut all = vec![(start, 0)];
    let mut at = 0;
    while let Some((current, steps)) = all.get(at).cloned() {
        at += 1;
        if steps >= budget {
            continue;
        }
        for next in step(&current) {
            if !all.iter().any(|(seen, _)| *seen == next) {
                all.push((next, steps + 1));
            }
        }
    }
    all
}

/// The piece lists one cut of a loop makes of `pieces`: a run of two or more equal pieces
/// kept 1 .. its length - 1 times ("255", "255", "255" as one or two "255").
fn loop_cuts(pieces: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut start = 0;
    while let Some(piece) = pieces.get(start) {
        let run = pieces
            .iter()
            .skip(start)
            .take_while(|p| *p == piece)
            .count();
        for kept in 1..run {
            let mut cut = pieces.to_vec();
            cut.drain(start + kept..start + run);
            out.push(cut);
        }
        start += run;
    }
    out
}

/// The piece lists one tens-unit sum makes of `pieces`: a non-octet piece "1308" as "138",
/// or two pieces "130", "8" as "138".
fn tens_unit_sums(pieces: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (at, piece) in pieces.iter().enumerate() {
        let glued = piece
            .split_at_checked(piece.len().saturating_sub(1))
            .filter(|_| octet(piece).is_none())
            .and_then(|(tens, unit)| tens_unit(tens, unit));
        let apart = pieces.get(at + 1).and_then(|unit| tens_unit(piece, unit));
        if let Some(sum) = glued {
            out.push(replaced(pieces, at, 1, sum));
        }
        if let Some(sum) = apart {
            out.push(replaced(pieces, at, 2, sum));
        }
    }
    out
}

/// `tens` (a multiple of ten, 20..=250) plus `unit` (1..=9), when the sum is an octet.
fn tens_unit(tens: &str, unit: &str) -> Option<u8> {
    let tens = octet(tens).filter(|t| (20..=250).contains(t) && t % 10 == 0)?;
    let unit = octet(unit).filter(|u| (1..=9).contains(u))?;
    tens.checked_add(unit)
}

/// `pieces` with the `count` pieces from `at` replaced by `sum`.
fn replaced(pieces: &[String], at: usize, count: usize, sum: u8) -> Vec<String> {
    let mut out = pieces.to_vec();
    out.splice(at..at + count, [sum.to_string()]);
    out
}

/// The fewest boundary edits (at most `budget`) that cut `pieces` into an address, and the
/// addresses cut with them; `None` when there are none.
fn fewest_cuts(pieces: &[String], budget: usize) -> Option<(usize, Vec<[u8; 4]>)> {
    let digits: String = pieces.concat();
    if pieces.len() < 2 || !(4..=MAX_DIGITS).contains(&digits.len()) {
        return None;
    }
    let mut bounds = Vec::new();
    let mut splittable = vec![false; digits.len()];
    let mut at = 0;
    for piece in pieces {
        if octet(piece).is_none() {
            splittable
                .iter_mut()
                .take(at + piece.len())
                .skip(at + 1)
                .for_each(|s| *s = true);
        }
        at += piece.len();
        bounds.push(at);
    }
    bounds.pop();
    best_readings(&digits, &bounds, &splittable, budget)
}

/// Every cut of `digits` into four octets allowed by `splittable` with at most `budget`
/// edits, keeping the fewest edits.
fn best_readings(
    digits: &str,
    bounds: &[usize],
    splittable: &[bool],
    budget: usize,
) -> Option<(usize, Vec<[u8; 4]>)> {
    let len = digits.len();
    let allowed = |at: usize| bounds.contains(&at) || splittable.get(at).copied().unwrap_or(false);
    let mut best = budget + 1;
    let mut readings = Vec::new();
    for a in 1..len {
        for b in a + 1..len {
            for c in b + 1..len {
                let cuts = [a, b, c];
                if !cuts.iter().all(|&at| allowed(at)) {
                    continue;
                }
                let Some(address) = cut(digits, cuts) else {
                    continue;
                };
                let added = cuts.iter().filter(|at| !bounds.contains(at)).count();
                let removed = bounds.iter().filter(|at| !cuts.contains(at)).count();
                let edits = added + removed;
                if edits > budget {
                    continue;
                }
                if edits < best {
                    best = edits;
                    readings.clear();
                }
                if edits == best {
                    readings.push(address);
                }
            }
        }
    }
    (!readings.is_empty()).then_some((best, readings))
}

/// The four octets `digits` makes when cut at `cuts`.
fn cut(digits: &str, [a, b, c]: [usize; 3]) -> Option<[u8; 4]> {
    Some([
        octet(digits.get(..a)?)?,
        octet(digits.get(a..b)?)?,
        octet(digits.get(b..c)?)?,
        octet(digits.get(c..)?)?,
    ])
}

/// A typed octet: 0..=255 without leading zeros.
fn octet(text: &str) -> Option<u8> {
    let canonical = text == "0" || !text.starts_with('0');
    canonical.then(|| text.parse().ok()).flatten()
}

/// The digit pieces of `text` (see [`resegment`]); `None` when a group is not a number.
fn pieces(text: &str) -> Option<Vec<String>> {
    let spaced = text.to_lowercase().replace(['.', ','], " dot ");
    let words: Vec<&str> = spaced.split_whitespace().collect();
    let mut pieces = Vec::new();
    for group in words.split(|w| *w == "dot" || *w == "point") {
        if group.is_empty() {
            continue;
        }
        if group.iter().all(|w| w.bytes().all(|b| b.is_ascii_digit())) {
            pieces.extend(group.iter().map(|w| (*w).to_string()));
        } else {
            pieces.push(parse_unsigned(group)?.to_string());
        }
        if pieces.len() > MAX_DIGITS {
            return None;
        }
    }
    Some(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: &[[u8; 4]]) {
        assert_eq!(resegment(input), expected, "input: {input:?}");
    }

    const CASES: &[(&str, &[[u8; 4]])] = &[
        ("126. 3. 13. 5. 254", &[[126, 3, 135, 254]]),
        (
            "53. 2423. 4. 254",
            &[[53, 24, 234, 254], [53, 242, 34, 254]],
        ),
        ("255. 192.", &[]),
        ("192.168.1.0", &[[192, 168, 1, 0]]),
        (
            "192. 16. 8. 1. 0",
            &[[192, 16, 8, 10], [192, 16, 81, 0], [192, 168, 1, 0]],
        ),
        ("192. 168 1. 0", &[[192, 168, 1, 0]]),
        ("192. 1681. 0", &[[192, 16, 81, 0], [192, 168, 1, 0]]),
        (
            "1921681.0",
            &[[19, 216, 81, 0], [192, 16, 81, 0], [192, 168, 1, 0]],
        ),
        (
            "one ninety two dot one sixty eight dot one dot zero dot five",
            &[[192, 168, 10, 5]],
        ),
        ("10. 0. 0. 0. 1", &[[10, 0, 0, 1], [100, 0, 0, 1]]),
        ("19216810", &[]),
        ("192. 168. 1", &[]),
        (
            "192. 168. 1. 0. 5. 6",
            &[[192, 168, 10, 56], [192, 168, 105, 6]],
        ),
        ("192. 168. 1. 0. 5. 6. 7. 8", &[]),
        ("the network. 1. 2. 3", &[]),
        ("999999999999999999999. 1", &[]),
        ("1. 2. 3. 4. 5. 6. 7. 8. 9. 1. 2. 3. 4", &[]),
        ("", &[]),
        (".....", &[]),
        ("131.219.1308. 127", &[[131, 219, 138, 127]]),
        ("131.219.130.8. 127.", &[[131, 219, 138, 127]]),
        ("131.219.130 8. 127", &[[131, 219, 138, 127]]),
        (
            "one thirty one dot two nineteen dot one thirty dot eight dot one twenty seven",
            &[[131, 219, 138, 127]],
        ),
        ("10.1308.5", &[[10, 130, 8, 5]]),
        ("131.219.2508. 127", &[]),
        ("131.219.130.0. 127", &[]),
        ("131.219.1301. 127", &[[131, 219, 131, 127]]),
        ("131.219.1380. 127", &[]),
        ("131.219.1358. 127", &[]),
        (
            "131. 20. 5. 8. 127",
            &[[131, 20, 58, 127], [131, 25, 8, 127], [131, 205, 8, 127]],
        ),
        ("1308. 1308. 1308. 1308", &[]),
        ("1308. 1308. 1.1", &[[138, 138, 1, 1]]),
        // Loops: a piece said once, written twice or more.
        ("255.255.255.255.224", &[[255, 255, 255, 224]]),
        ("the subnet mask is 255.255.255.255.0.", &[]),
        ("255.255.255.255.0.", &[[255, 255, 255, 0]]),
        ("255.254.0.0.0.", &[[255, 254, 0, 0]]),
        ("109.135.0.0.0.", &[[109, 135, 0, 0]]),
        ("204.231.95.255.255.255.", &[[204, 231, 95, 255]]),
        ("85.14.60.255.255.255.255.", &[[85, 14, 60, 255]]),
        ("255.255.255.0.0.", &[[255, 255, 0, 0], [255, 255, 255, 0]]),
        (
            "255.255.255.0.0.0.0.",
            &[[255, 0, 0, 0], [255, 255, 0, 0], [255, 255, 255, 0]],
        ),
        (
            "255.255.255.255.0.0.",
            &[[255, 255, 0, 0], [255, 255, 255, 0]],
        ),
        ("255.255.255.255.00.", &[]),
        ("124.204.204.802.0.", &[[124, 204, 82, 0]]),
        ("33.216.154.24.24.", &[[33, 216, 154, 24]]),
        (
            "1.82.20.0.0",
            &[[1, 82, 20, 0], [1, 82, 200, 0], [182, 20, 0, 0]],
        ),
        ("10.10.10.10.10.10", &[[10, 10, 10, 10]]),
        ("255.255.255.255.255.255", &[[255, 255, 255, 255]]),
        ("255.255.0.0.0.0", &[[255, 0, 0, 0], [255, 255, 0, 0]]),
        ("255.255.255.224", &[[255, 255, 255, 224]]),
        ("255.255.224", &[]),
    ];

    #[test]
    fn table() {
        for &(input, expected) in CASES {
            check(input, expected);
        }
    }
}

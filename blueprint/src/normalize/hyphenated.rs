//! Address octets that speech recognition wrote as hyphenated pieces, the way people say
//! them ("one eighty five dot one ninety two dot one oh five dot one thirty eight" heard as
//! "1-H-5.1-92.1-05. 138."): each octet's pieces joined, with the letter "h" between two
//! digit pieces read as the "eighty" it was ("1-H-5" is 185). Only for spoken answers to an
//! address item, once the plain reading failed.

/// `text` (lowercase, fillers gone) with every hyphenated group between dots joined into
/// the octet it spells: "1-h-5.1-92.1-05. 138" -> "185.192.105.138". `None` when no group has
/// a hyphen, or when a hyphenated group is anything but digit pieces (and "h" between two),
/// or joins into more than three digits.
pub(super) fn unhyphen_octets(text: &str) -> Option<String> {
    let mut changed = false;
    let mut groups = Vec::new();
    for group in text.split('.') {
        let word = group.trim();
        if !word.contains('-') {
            groups.push(word.to_owned());
            continue;
        }
        groups.push(join_pieces(word)?);
        changed = true;
    }
    changed.then(|| groups.join("."))
}

/// "1-92" -> "192", "1-05" -> "105", "1-h-5" -> "185".
fn join_pieces(group: &str) -> Option<String> {
    let pieces: Vec<&str> = group.split('-').map(str::trim).collect();
    let mut digits = String::new();
    for (at, piece) in pieces.iter().enumerate() {
        let is_digits = !piece.is_empty() && piece.chars().all(|c| c.is_ascii_digit());
        let between_digits = at > 0
            && at + 1 < pieces.len()
            && [pieces[at - 1], pieces[at + 1]]
                .iter()
                .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
        match *piece {
            _ if is_digits => digits.push_str(piece),
            "h" if between_digits => digits.push('8'),
            _ => return None,
        }
    }
    (1..=3).contains(&digits.len()).then_some(digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hyphenated_octets_are_joined() {
        let cases: &[(&str, Option<&str>)] = &[
            ("1-h-5.1-92.1-05. 138", Some("185.192.105.138")),
            ("2-55.2-55.2-55.1-92", Some("255.255.255.192")),
            ("10.0.0.1", None),
            ("1-h.2.3.4", None),
            ("h-5.1.1.1", None),
            ("1-2-3-4.1.1.1", None),
            ("option-a", None),
            ("one-ninety.1.1.1", None),
            ("", None),
        ];
        for (text, expected) in cases {
            assert_eq!(unhyphen_octets(text).as_deref(), *expected, "{text:?}");
        }
    }
}

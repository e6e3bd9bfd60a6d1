//! The zero-loss audit: every answer the server acknowledged must appear in the session's
//! result exactly once. Each answer the load tester sends carries a unique mark
//! (`[lt <user> <n>]`), so an answer taken twice (a resend after a reconnect applied again)
//! shows up as a mark in two turns, and an acked answer that a crash lost shows up as a mark
//! in none. Spoken answers carry no mark: the final transcript the server heard is the
//! answer it stores, so they are matched whole, counting repeats.

use std::collections::HashMap;

use serde_json::Value;

/// The mark of answer `n` of `user`, embedded in the answer's text.
pub fn mark(user: &str, n: u64) -> String {
    format!("[lt {user} {n}]")
}

/// What the audit of one or more sessions found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Audit {
    /// Acked answers checked.
    pub acked: usize,
    /// Acked answers missing from the result.
    pub lost: usize,
    /// Answers found more than once in the result.
    pub duplicated: usize,
    /// Up to ten marks that were lost or duplicated, for the report.
    pub examples: Vec<String>,
}

impl Audit {
    /// Adds another session's audit to this one.
    pub fn merge(&mut self, other: Audit) {
        self.acked += other.acked;
        self.lost += other.lost;
        self.duplicated += other.duplicated;
        let room = 10usize.saturating_sub(self.examples.len());
        self.examples.extend(other.examples.into_iter().take(room));
    }

    /// Nothing lost, nothing taken twice.
    pub fn is_clean(&self) -> bool {
        self.lost == 0 && self.duplicated == 0
    }
}

/// How an acked answer is found in a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Matching {
    /// By the `[lt …]` mark its text carries (typed answers).
    Mark,
    /// By the whole answer text (spoken answers: the final transcript is what is stored).
    Whole,
}

/// Checks the `acked` answers against the answers a result records: an exam's
/// `transcript[].answer`, an assessment's `audit[].response` or a tutor's `log[].said` (the
/// owner's result, from
/// `GET /v1/sessions/{id}/result`). Each acked answer must be found as often as it was
/// acked: fewer is lost, more is duplicated.
pub fn audit(acked: &[String], result: &Value, matching: Matching) -> Audit {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for answer in answers_in(result) {
        match matching {
            Matching::Mark => marks_in(answer).for_each(|mark| *seen.entry(mark).or_default() += 1),
            Matching::Whole => *seen.entry(answer.trim()).or_default() += 1,
        }
    }
    let mut expected: HashMap<&str, usize> = HashMap::new();
    for answer in acked {
        *expected.entry(answer.trim()).or_default() += 1;
    }
    let mut found = Audit {
        acked: acked.len(),
        ..Audit::default()
    };
    for (answer, wanted) in expected {
        let got = seen.get(answer).copied().unwrap_or(0);
        if got < wanted {
            note(&mut found, format!("lost {answer}"), |a| {
                a.lost += wanted - got
            });
        } else if got > wanted {
            let example = format!("duplicated {answer}");
            note(&mut found, example, |a| a.duplicated += got - wanted);
        }
    }
    found
}

fn note(audit: &mut Audit, example: String, count: impl FnOnce(&mut Audit)) {
    count(audit);
    if audit.examples.len() < 10 {
        audit.examples.push(example);
    }
}

/// The answers a result records.
fn answers_in(result: &Value) -> impl Iterator<Item = &str> {
    let turns = result["transcript"].as_array().into_iter().flatten();
    let exam = turns.filter_map(|turn| turn["answer"].as_str());
    let items = result["audit"].as_array().into_iter().flatten();
    let tutor = result["log"].as_array().into_iter().flatten();
    exam.chain(items.filter_map(|item| item["response"].as_str()))
        .chain(tutor.filter_map(|turn| turn["said"].as_str()))
}

/// Every `[lt …]` mark in `text`.
fn marks_in(text: &str) -> impl Iterator<Item = &str> {
    text.match_indices("[lt ").filter_map(move |(start, _)| {
        let end = text[start..].find(']')?;
        Some(&text[start..=start + end])
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn exam(answers: &[&str]) -> Value {
        let turns: Vec<Value> = answers
            .iter()
            .map(|answer| json!({"question_id": "q", "answer": answer}))
            .collect();
        json!({"mode": "exam", "transcript": turns})
    }

    fn check(acked: &[u64], answers: &[&str], lost: usize, duplicated: usize) {
        let acked: Vec<String> = acked.iter().map(|n| mark("u1", *n)).collect();
        let found = audit(&acked, &exam(answers), Matching::Mark);
        assert_eq!(
            (found.lost, found.duplicated),
            (lost, duplicated),
            "{found:?}"
        );
        assert_eq!(found.acked, acked.len());
    }

    #[test]
    fn every_acked_answer_once_is_clean() {
        check(&[1, 2], &["weather [lt u1 1]", "risk [lt u1 2]"], 0, 0);
    }

    #[test]
    fn a_missing_acked_answer_is_lost() {
        check(&[1, 2, 3], &["a [lt u1 1]", "b [lt u1 3]"], 1, 0);
    }

    #[test]
    fn an_answer_taken_twice_is_duplicated() {
        check(
            &[1, 2],
            &["a [lt u1 1]", "b [lt u1 2]", "b again [lt u1 2]"],
            0,
            1,
        );
    }

    #[test]
    fn unacked_answers_in_the_result_are_not_counted() {
        // Sent, applied, but the ack never arrived (the socket dropped): neither lost nor
        // duplicated; the client resends it with the same event id.
        check(&[1], &["a [lt u1 1]", "b [lt u1 2]"], 0, 0);
    }

    #[test]
    fn marks_of_other_users_do_not_match() {
        check(&[1], &["a [lt u2 1]"], 1, 0);
    }

    #[test]
    fn audits_merge_with_a_bounded_list_of_examples() {
        let mut total = Audit::default();
        for _ in 0..4 {
            let acked = [mark("u1", 1), mark("u1", 2), mark("u1", 3)];
            let one = audit(&acked, &exam(&[]), Matching::Mark);
            total.merge(one);
        }
        assert_eq!((total.acked, total.lost), (12, 12));
        assert_eq!(total.examples.len(), 10);
        assert!(!total.is_clean());
    }

    #[test]
    fn assessment_responses_are_audited() {
        let result = json!({"mode": "assessment",
            "audit": [{"number": 1, "response": "42 [lt u1 1]"}, {"number": 2}]});
        let found = audit(&[mark("u1", 1), mark("u1", 2)], &result, Matching::Mark);
        assert_eq!((found.lost, found.duplicated), (1, 0), "{found:?}");
    }

    #[test]
    fn spoken_answers_are_matched_whole_and_counted() {
        let result = exam(&["Carburetor ice.", "Check the weather.", "Carburetor ice."]);
        let acked = |texts: &[&str]| texts.iter().map(|t| (*t).to_owned()).collect::<Vec<_>>();
        let twice = acked(&["Carburetor ice.", " Carburetor ice.", "Check the weather."]);
        assert!(audit(&twice, &result, Matching::Whole).is_clean());
        let once = audit(&acked(&["Carburetor ice."]), &result, Matching::Whole);
        assert_eq!((once.lost, once.duplicated), (0, 1));
        let missing = audit(&acked(&["Runway two seven."]), &result, Matching::Whole);
        assert_eq!((missing.lost, missing.duplicated), (1, 0));
    }
}

//! The examiner's judgement over the socket: asked a checkable question from the element's
//! rubric, a false answer, a misconception and a non-answer are each unsatisfactory, with
//! feedback that states the correct fact and cites where it is written; a correct answer in
//! the candidate's own words is satisfactory.

use crate::harness::{Auth, Client, Server, answer, start_exam};

/// The first question of a linear PA.I.A exam is about recent flight experience (PA.I.A.K1).
async fn first_assessment(server: &Server, user: &str, text: &str) -> serde_json::Value {
    let mut client = Client::connect(server, Auth::bearer(user)).await;
    let started = start_exam(&mut client, "d1").await;
    assert_eq!(started.question["element_code"], "PA.I.A.K1");
    let asked = started.question["text"].as_str().unwrap_or("");
    assert!(asked.ends_with('?'), "a checkable question: {asked}");
    answer(&mut client, text).await.assessment
}

fn feedback(assessment: &serde_json::Value) -> &str {
    assessment["feedback"].as_str().unwrap_or("")
}

#[tokio::test]
async fn a_false_rule_is_unsatisfactory_and_corrected_with_its_source() {
    let server = Server::start().await;
    let text = "To carry passengers you need one takeoff and one landing in the last 30 days.";
    let assessment = first_assessment(&server, "fay", text).await;
    assert_eq!(assessment["score"], "unsatisfactory", "{assessment}");
    let said = feedback(&assessment);
    assert!(said.starts_with("That is not correct"), "{assessment}");
    assert!(
        said.contains("90 days") && said.contains("14 CFR 61.57"),
        "{assessment}"
    );
    let sources = assessment["source_summary"].as_str().unwrap_or("");
    assert!(sources.contains("14 CFR 61.57(a)"), "{assessment}");
}

#[tokio::test]
async fn a_misconception_is_unsatisfactory_whatever_else_is_right() {
    let server = Server::start().await;
    let text = "One landing a year keeps you current, and a flight review every 24 calendar \
                months.";
    let assessment = first_assessment(&server, "mo", text).await;
    assert_eq!(assessment["score"], "unsatisfactory", "{assessment}");
    let said = feedback(&assessment);
    assert!(said.contains("3 takeoffs and 3 landings"), "{assessment}");
    assert!(said.contains("14 CFR 61.57(a)"), "{assessment}");
}

#[tokio::test]
async fn a_non_answer_is_unsatisfactory_and_told_the_facts() {
    let server = Server::start().await;
    for (user, text) in [
        ("nan", "I don't know."),
        ("ned", "Um, I'd have to look that up."),
    ] {
        let assessment = first_assessment(&server, user, text).await;
        assert_eq!(assessment["score"], "unsatisfactory", "{assessment}");
        let said = feedback(&assessment);
        assert!(said.starts_with("No answer to grade."), "{assessment}");
        assert!(
            said.contains("90 days") && said.contains("(14 CFR 61.57(a))"),
            "{assessment}"
        );
    }
}

#[tokio::test]
async fn a_correct_answer_in_the_candidates_words_is_satisfactory() {
    let server = Server::start().await;
    let text = "Three takeoffs and three landings in the last ninety days, full stop if it's at \
                night.";
    let assessment = first_assessment(&server, "cy", text).await;
    assert_eq!(assessment["score"], "satisfactory", "{assessment}");
}

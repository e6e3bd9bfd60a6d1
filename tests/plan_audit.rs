//! `viva plan audit` over the sessions a server stored (its data directory, or Redis): the
//! most recently active plans first, with planned, asked, bonus and coverage counts that agree
//! with the graded results; assessments left out; one plan in detail.

use serde_json::Value;

use crate::harness::{
    Auth, Client, PLANNED, RedisServer, Server, UNSATISFACTORY_ANSWER, answer, data_dir_of,
    field_str, field_u64, plan_audit, run_to_completion, satisfactory_for, start_assessment,
    start_exam, viva_cli,
};

/// The plan of `session_id` among the audit's plans.
fn plan<'a>(audit: &'a Value, session_id: &str) -> &'a Value {
    audit["plans"]
        .as_array()
        .and_then(|plans| plans.iter().find(|p| p["session_id"] == session_id))
        .unwrap_or_else(|| panic!("no plan {session_id} in {audit}"))
}

/// The session ids of the audit's plans, in its order.
fn order(audit: &Value) -> Vec<&str> {
    let plans = audit["plans"].as_array().expect("plans");
    plans.iter().map(|p| field_str(p, "session_id")).collect()
}

/// An audit row agrees with the graded result of its exam.
fn assert_row_matches_result(row: &Value, result: &Value, questions: usize) {
    for (key, result_key) in [
        ("planned", "planned_questions"),
        ("asked", "asked"),
        ("bonus_used", "bonus_used"),
        ("credited_by_mention", "credited_by_mention"),
    ] {
        assert_eq!(row[key], result[result_key], "{key}: {row} vs {result}");
    }
    assert_eq!(row["phase"], "completed", "{row}");
    assert_eq!(row["outcome"], result["outcome"], "{row}");
    assert_eq!(field_u64(row, "questions"), questions as u64, "{row}");
    assert_eq!(row["bonus_max"], 2, "{row}");
}

#[tokio::test]
async fn the_audit_of_a_data_dir_counts_planned_asked_and_bonus_questions_newest_first() {
    let server = Server::start().await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let a = start_exam(&mut alice, "A").await;
    let run_a = run_to_completion(&mut alice, a.question, satisfactory_for).await;
    let mut bob = Client::connect(&server, Auth::bearer("bob")).await;
    let b = start_exam(&mut bob, "B").await;
    let missed = answer(&mut bob, UNSATISFACTORY_ANSWER).await;
    let run_b = run_to_completion(&mut bob, missed.question(), satisfactory_for).await;
    let mut dave = Client::connect(&server, Auth::bearer("dave")).await;
    start_assessment(&mut dave, "MATH-FUNDAMENTALS-L1", false).await;
    let mut carol = Client::connect(&server, Auth::bearer("carol")).await;
    let c = start_exam(&mut carol, "C").await;
    answer(&mut carol, &satisfactory_for(&c.question)).await;

    let storage = data_dir_of(&server);
    let audit = plan_audit(&storage, &[]).await;
    assert_eq!(order(&audit), [&c.session_id, &b.session_id, &a.session_id]);
    assert_eq!(audit["assessments_left_out"], 1, "{audit}");
    let row_a = plan(&audit, &a.session_id);
    assert_row_matches_result(row_a, &run_a.completed["result"], run_a.questions.len());
    assert_eq!(
        (row_a["asked"].as_u64(), row_a["bonus_used"].as_u64()),
        (Some(PLANNED), Some(0))
    );
    assert_eq!(row_a["examined"], PLANNED, "{row_a}");
    let row_b = plan(&audit, &b.session_id);
    assert_row_matches_result(row_b, &run_b.completed["result"], run_b.questions.len() + 1);
    assert!(field_u64(row_b, "bonus_used") >= 1, "{row_b}");
    assert_eq!(row_b["outcome"], "unsatisfactory", "{row_b}");
    let row_c = plan(&audit, &c.session_id);
    let counts = [
        "planned",
        "asked",
        "questions",
        "examined",
        "bonus_used",
        "follow_ups",
    ];
    let got: Vec<u64> = counts.iter().map(|key| field_u64(row_c, key)).collect();
    assert_eq!(got, [PLANNED, 2, 2, 1, 0, 0], "{row_c}");
    let live = ["question_asked", "awaiting_answer"];
    assert!(live.contains(&field_str(row_c, "phase")), "{row_c}");
    assert_eq!(row_c["outcome"], Value::Null, "{row_c}");
    assert_ne!(row_c["user"], "carol", "users are hashed unless asked for");

    let newest_two = plan_audit(&storage, &["--limit", "2"]).await;
    assert_eq!(order(&newest_two), [&c.session_id, &b.session_id]);
    let mut table_args = vec!["plan".to_owned(), "audit".to_owned()];
    table_args.extend(storage.iter().cloned());
    let table = viva_cli(&table_args).await;
    assert!(
        table.contains(&a.session_id) && table.contains("3 plans shown"),
        "{table}"
    );
    assert_detail_matches_result(&storage, &b.session_id, &run_b.completed["result"]).await;
}

/// `--session ID` lists every element of the plan with the state its result gives it.
async fn assert_detail_matches_result(storage: &[String], session_id: &str, result: &Value) {
    let detail = plan_audit(storage, &["--session", session_id]).await;
    assert_eq!(detail["session_id"], session_id, "{detail}");
    let elements = detail["elements"].as_array().expect("elements");
    let graded = result["elements"].as_array().expect("graded elements");
    assert_eq!(elements.len(), graded.len(), "{detail}");
    for (line, graded) in elements.iter().zip(graded) {
        assert_eq!(
            line["code"], graded["code"],
            "plan order: {line} vs {graded}"
        );
        assert_eq!(line["state"], graded["status"], "{line} vs {graded}");
        assert_eq!(line["score"], graded["score"], "{line} vs {graded}");
    }
    let bonus = elements.iter().filter(|e| e["asked_as"] == "bonus").count() as u64;
    assert_eq!(bonus, field_u64(result, "bonus_used"), "{detail}");
}

#[tokio::test]
async fn the_audit_reads_the_plans_of_every_node_from_redis() {
    let redis = RedisServer::start();
    let urls = vec![redis.url()];
    let one = Server::node(&urls, false, "one", &[]).await;
    let two = Server::node(&urls, false, "two", &[]).await;
    let mut alice = Client::connect(&one, Auth::bearer("alice")).await;
    let a = start_exam(&mut alice, "A").await;
    let run_a = run_to_completion(&mut alice, a.question, satisfactory_for).await;
    let mut bob = Client::connect(&two, Auth::bearer("bob")).await;
    let b = start_exam(&mut bob, "B").await;
    answer(&mut bob, UNSATISFACTORY_ANSWER).await;

    let storage = vec!["--redis".to_owned(), redis.url()];
    let audit = plan_audit(&storage, &[]).await;
    assert_eq!(order(&audit), [&b.session_id, &a.session_id]);
    let row_a = plan(&audit, &a.session_id);
    assert_row_matches_result(row_a, &run_a.completed["result"], run_a.questions.len());
    let row_b = plan(&audit, &b.session_id);
    let counts = ["planned", "asked", "questions", "examined", "bonus_used"];
    let got: Vec<u64> = counts.iter().map(|key| field_u64(row_b, key)).collect();
    assert_eq!(got, [PLANNED, 2, 2, 1, 1], "{row_b}");
    assert_detail_matches_result(&storage, &a.session_id, &run_a.completed["result"]).await;
}

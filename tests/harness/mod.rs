//! Shared harness: the viva server process, WebSocket clients, tokens, HTTP and the ACS data.

mod acs;
mod admin;
mod assessment;
#[allow(dead_code)] // the browser binary's alone
pub mod browser;
mod client;
mod exam;
mod http;
pub mod oidc;
mod server;
pub mod speech;
mod token;
mod tutor;

pub use acs::{
    UNSATISFACTORY_ANSWER, mention_target, oral_elements, rubrics, satisfactory_answer,
    short_answer,
};
pub use admin::{data_dir_of, exams, plan_audit, start_refused, viva_cli};
pub use assessment::{
    answer_item, blueprints_with, keyed_answer, last, server_with, spoken_ipv4, start_assessment,
    stored_checkpoint,
};
pub use client::{
    Auth, Client, Frame, Refusal, Ws, connect_or_refusal, connect_with_headers, count, field_str,
    field_u64, find, index_of, refused_status,
};
pub use exam::{
    PLANNED, Started, TASK, answer, answer_until_acked, code, end_session, next_event_id, resume,
    run_to_completion, satisfactory_for, start_exam, start_exam_with,
};
pub use http::{HttpResponse, http_get, http_get_with, metric, result_path};
pub use server::{Options, Server, run_viva, viva_bin};
pub use token::{
    SECRET, expired_token, foreign_token, now_secs, random_uuid, token, verify_token,
    viva_token_command,
};
pub use tutor::{
    card, drill_answer, drill_key, exam_key, right_drill_answer, start_tutor, tutor_send,
    tutor_send_streamed,
};
pub use viva_testkit::redis::{RedisCluster, RedisServer};

/// How long any single wait for the server may take before the test fails.
pub const TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

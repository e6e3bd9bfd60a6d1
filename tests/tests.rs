//! End-to-end tests of the viva server: one binary, one module per behaviour.

mod assessment;
mod auth;
mod backpressure;
mod bad_input;
mod blueprints_cli;
mod connection_limits;
mod devices;
mod distributed;
mod edge;
mod exam_flow;
mod harness;
mod hibernation;
mod isolation;
mod judgement;
mod llm_examiner;
mod metrics;
mod new_sessions_switch;
mod one_question;
mod plan_audit;
mod restart;
mod talk_cli;
mod tutor;
mod tutor_model;
mod voice;
mod voice_turns;
mod web;

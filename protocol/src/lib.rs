//! Viva wire protocol v1: the JSON events exchanged over `GET /v1/ws`.
//!
//! The contract is `shared/spec/protocol.md`; this crate is its executable form.
//!
//! Layout:
//! - [`client`]: `ClientMessage`, the envelope of every client text frame, and `ClientEvent`.
//! - [`server`]: `ServerMessage`, the envelope of every server text frame, and `ServerEvent`.
//! - [`config`]: the `config` object of `session.start`, by mode.
//! - [`result`]: the graded result carried by `session.completed`.
//! - [`error`]: the stable error codes of the `error` event.
//! - [`decode`]: decoding a client text frame once, at the edge, into a `ClientMessage` or an
//!   `error` to send back.
//! - [`excerpt`]: quoting at most 64 characters of client input in an error message.
//! - [`tutor`]: tutoring's card events, the tutor's turn and cards, and the progress board.
//! - [`catalog`]: what a client reads over HTTP: the catalogue of what can be started and
//!   the user's session list.
//! - [`schema`]: JSON Schema generation (committed under `protocol/schema/`).
//!
//! Invariant: this crate depends only on serde, serde_json and schemars.
#![warn(missing_docs)]

pub mod catalog;
pub mod client;
pub mod config;
pub mod decode;
pub mod error;
pub mod excerpt;
pub mod result;
pub mod schema;
pub mod server;
pub mod tutor;

pub use client::{ClientEvent, ClientMessage};
pub use decode::{DecodeError, decode_client_text};
pub use error::ErrorCode;
pub use server::{ServerEvent, ServerMessage};

/// Largest text frame the server accepts, in bytes; larger ones get `frame_too_large`.
pub const MAX_TEXT_FRAME_BYTES: usize = 16 * 1024;
/// Largest binary (audio) frame the server accepts, in bytes.
pub const MAX_AUDIO_FRAME_BYTES: usize = 64 * 1024;
/// Longest `event_id` the server accepts, in characters.
pub const MAX_EVENT_ID_CHARS: usize = 64;
/// Longest message to the tutor (`tutor.message`, or `answer.text` read as a message), in
/// characters; longer ones get `invalid_field` and change nothing.
pub const MAX_TUTOR_MESSAGE_CHARS: usize = 2_000;

/// Which kind of session `session.start` opens.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// An ACS oral exam.
    Exam,
    /// A blueprint assessment (evaluation or learning).
    Assessment,
    /// A tutoring session.
    Tutor,
    /// A one-question check: one question, any answer, then the result (a device checks
    /// that it is heard before an exam).
    OneQuestion,
}

impl Mode {
    /// The mode's wire name: `exam`, `assessment`, `tutor` or `one_question`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Exam => "exam",
            Mode::Assessment => "assessment",
            Mode::Tutor => "tutor",
            Mode::OneQuestion => "one_question",
        }
    }
}

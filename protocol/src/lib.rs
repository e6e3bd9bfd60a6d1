//! Viva wire protocol v1: the JSON events exchanged over `GET /v1/ws`.
//!
//! The contract is `shared/spec/protocol.md`; this crate is its executable form.
//!
//! Layout:
//! - [`client`]: `ClientMessage`, the envelope of every client text frame, and `ClientEvent`.
//! - [`server`]: `ServerMessage`, the envelope of every server text frame, and `ServerEvent`.
//! - [`config`]: the `config` object of `session.start`, by [`Mode`].
//! - [`result`]: the graded result carried by `session.completed`.
//! - [`difficulty`]: adaptive difficulty: a question's level, an adaptive plan and result.
//! - [`error`]: the stable error codes of the `error` event.
//! - [`decode`]: decoding a client text frame once, at the edge, into a `ClientMessage` or an
//!   `error` to send back.
//! - [`excerpt`]: quoting at most 64 characters of client input in an error message.
//! - [`limits`]: the sizes the server accepts: frames, `event_id`s, tutor messages.
//! - [`tutor`]: tutoring's card events, the tutor's turn and cards, and the progress board.
//! - [`catalog`]: what a client reads over HTTP: the catalogue of what can be started and
//!   the user's session list.
//! - [`progress`]: `GET /v1/progress`, the user's spaced review per ACS area.
//! - [`voice`]: the examiner's voice: an utterance's start, alignment marks and end (its
//!   audio goes in binary frames between them).
//! - [`schema`]: JSON Schema generation (committed under `protocol/schema/`).
//!
//! Invariant: this crate depends only on serde, serde_json and schemars.
#![warn(missing_docs)]

pub mod catalog;
pub mod client;
pub mod config;
pub mod decode;
pub mod difficulty;
pub mod error;
pub mod excerpt;
pub mod limits;
pub mod progress;
pub mod result;
pub mod schema;
pub mod server;
pub mod tutor;
pub mod voice;

pub use client::{ClientEvent, ClientMessage};
pub use config::Mode;
pub use decode::{DecodeError, decode_client_text};
pub use error::ErrorCode;
pub use limits::{
    MAX_AUDIO_FRAME_BYTES, MAX_EVENT_ID_CHARS, MAX_TEXT_FRAME_BYTES, MAX_TUTOR_MESSAGE_CHARS,
};
pub use server::{ServerEvent, ServerMessage};

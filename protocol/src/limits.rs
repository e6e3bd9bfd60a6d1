//! The sizes the server accepts (re-exported at the crate root): frames, `event_id`s and
//! messages to the tutor.

/// Largest text frame the server accepts, in bytes; larger ones get `frame_too_large`.
pub const MAX_TEXT_FRAME_BYTES: usize = 16 * 1024;
/// Largest binary (audio) frame the server accepts, in bytes.
pub const MAX_AUDIO_FRAME_BYTES: usize = 64 * 1024;
/// Longest `event_id` the server accepts, in characters.
pub const MAX_EVENT_ID_CHARS: usize = 64;
/// Longest message to the tutor (`tutor.message`, or `answer.text` read as a message), in
/// characters; longer ones get `invalid_field` and change nothing.
pub const MAX_TUTOR_MESSAGE_CHARS: usize = 2_000;

//! One YAML document and where it came from: what every loader reads and every error is
//! placed in.

/// One YAML document and where it came from.
#[derive(Debug, Clone)]
pub struct Source {
    /// The file path, for messages.
    pub path: String,
    /// Its text.
    pub text: String,
}

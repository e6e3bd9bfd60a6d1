//! Load errors: every rejected blueprint names its file, the field, and the position.

use std::fmt;

/// Why a blueprint was rejected at load. Terminal for that file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// The file, as given to the loader.
    pub file: String,
    /// The field path, such as `generation.difficulty_levels.hard.constraints[0]`.
    pub field: String,
    /// Where: a YAML line and column, or a column inside an expression.
    pub position: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl LoadError {
    /// An error at a field, without a position.
    pub fn at(file: &str, field: impl Into<String>, message: impl Into<String>) -> LoadError {
        LoadError {
            file: file.to_owned(),
            field: field.into(),
            position: None,
            message: message.into(),
        }
    }

    /// The same error with a position.
    pub fn with_position(mut self, position: impl Into<String>) -> LoadError {
        self.position = Some(position.into());
        self
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if !self.field.is_empty() {
            write!(f, ": {}", self.field)?;
        }
        if let Some(position) = &self.position {
            write!(f, " ({position})")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for LoadError {}

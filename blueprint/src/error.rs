//! Load errors: every rejected blueprint names its file, the YAML line and column of the
//! offending node, and the field path.

use std::fmt;

/// A place in a YAML file: 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1.
    pub column: usize,
}

/// Why a blueprint was rejected at load. Terminal for that file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// The file, as given to the loader.
    pub file: String,
    /// The field path, such as `generation.difficulty_levels.hard.constraints[0]`.
    pub field: String,
    /// Where the offending node starts in the file (`None` when the file has no such node,
    /// as for a blueprint missing from a folder).
    pub position: Option<Position>,
    /// What is wrong.
    pub message: String,
}

impl LoadError {
    /// An error at a field, without a position (the loader places it: [`crate::yaml::place`]).
    pub fn at(file: &str, field: impl Into<String>, message: impl Into<String>) -> LoadError {
        LoadError {
            file: file.to_owned(),
            field: field.into(),
            position: None,
            message: message.into(),
        }
    }

    /// The same error at a position.
    pub fn with_position(mut self, position: Position) -> LoadError {
        self.position = Some(position);
        self
    }
}

/// `file:line:column: field: message`, as compilers write them, so editors can jump there.
impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(Position { line, column }) = self.position {
            write!(f, ":{line}:{column}")?;
        }
        if !self.field.is_empty() {
            write!(f, ": {}", self.field)?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for LoadError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_read_like_a_compiler_s() {
        let cases = [
            (
                Some((12, 5)),
                "steps[0].ask",
                "file.yaml:12:5: steps[0].ask: why",
            ),
            (None, "steps", "file.yaml: steps: why"),
            (Some((1, 1)), "", "file.yaml:1:1: why"),
        ];
        for (position, field, shown) in cases {
            let mut error = LoadError::at("file.yaml", field, "why");
            if let Some((line, column)) = position {
                error = error.with_position(Position { line, column });
            }
            assert_eq!(error.to_string(), shown);
        }
    }
}

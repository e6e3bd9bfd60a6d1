//! Error types reported when compiling or evaluating expressions and templates.

use thiserror::Error;

/// A syntax or validation error found while compiling an expression or a template.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{message} (at column {position})")]
#[non_exhaustive]
pub struct CompileError {
    /// 0-based character position (column) of the offending token in the compiled text.
    pub position: usize,
    /// Human-readable description of the problem.
    pub message: String,
}

impl CompileError {
    /// Creates a compile error at `position` (a 0-based character index).
    pub(crate) fn new(position: usize, message: impl Into<String>) -> Self {
        Self {
            position,
            message: message.into(),
        }
    }
}

/// An error raised while evaluating a compiled expression or rendering a template.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{message}{}", position_suffix(*.position))]
#[non_exhaustive]
pub struct EvalError {
    /// Human-readable description of the problem (Python-like wording).
    pub message: String,
    /// 0-based character position of the syntax node that failed, when known.
    pub position: Option<usize>,
}

impl EvalError {
    /// Creates an evaluation error without a position; the evaluator adds one later.
    pub(crate) fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            position: None,
        }
    }

    /// Attaches `position` unless a more precise (inner) position is already recorded.
    pub(crate) fn at(mut self, position: usize) -> Self {
        if self.position.is_none() {
            self.position = Some(position);
        }
        self
    }
}

fn position_suffix(position: Option<usize>) -> String {
    position.map_or_else(String::new, |column| format!(" (at column {column})"))
}

/// Either a [`CompileError`] or an [`EvalError`], for callers that compile and evaluate in one go.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ExprError {
    /// The text failed to compile.
    #[error(transparent)]
    Compile(#[from] CompileError),
    /// The compiled program failed at evaluation time.
    #[error(transparent)]
    Eval(#[from] EvalError),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(error: &dyn std::error::Error, expected: &str) {
        assert_eq!(error.to_string(), expected);
    }

    #[test]
    fn messages_include_positions() {
        check(&CompileError::new(3, "bad"), "bad (at column 3)");
        check(&EvalError::new("oops"), "oops");
        check(&EvalError::new("oops").at(4), "oops (at column 4)");
        check(&EvalError::new("oops").at(4).at(9), "oops (at column 4)");
        check(
            &ExprError::from(CompileError::new(0, "x")),
            "x (at column 0)",
        );
        check(&ExprError::from(EvalError::new("y")), "y");
    }
}

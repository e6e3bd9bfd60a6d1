//! Syntax tree produced by the parser and walked by the evaluator.

use std::collections::HashSet;

use super::error::CompileError;
use super::format::FormatSpec;
use super::limits::MAX_TREE_HEIGHT;
use super::value::Value;
use super::whitelist::Builtin;

/// One syntax node with the 0-based character position of its defining token.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Expr {
    /// What the node computes.
    pub(crate) kind: ExprKind,
    /// Column of the token that defines the node (operator, name, bracket, literal).
    pub(crate) position: usize,
    /// Height of the subtree rooted here (a leaf has height 1).
    height: usize,
}

/// The node variants of the expression language.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ExprKind {
    /// A constant.
    Literal(Value),
    /// A variable looked up in the environment.
    Name(String),
    /// A list display `[a, b, c]`.
    List(Vec<Expr>),
    /// Unary `-x` or `+x`.
    Unary(UnaryOp, Box<Expr>),
    /// `not x`.
    Not(Box<Expr>),
    /// An arithmetic operator.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `a and b` (returns the deciding operand).
    And(Box<Expr>, Box<Expr>),
    /// `a or b` (returns the deciding operand).
    Or(Box<Expr>, Box<Expr>),
    /// A possibly chained comparison `a < b <= c`.
    Compare(Box<Expr>, Vec<(CompareOp, Expr)>),
    /// `then if condition else otherwise`.
    Conditional {
        /// Tested first.
        condition: Box<Expr>,
        /// Value when the condition is truthy.
        then: Box<Expr>,
        /// Value when the condition is falsy.
        otherwise: Box<Expr>,
    },
    /// `container[index]`.
    Subscript(Box<Expr>, Box<Expr>),
    /// A call of a whitelisted function.
    Call(Builtin, Vec<Expr>),
    /// An f-string (or a template's body).
    FString(Vec<FStringPart>),
}

/// Unary arithmetic operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UnaryOp {
    /// `-x`
    Neg,
    /// `+x`
    Pos,
}

/// Binary arithmetic operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinaryOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `//`
    FloorDiv,
    /// `%`
    Mod,
    /// `**`
    Pow,
}

impl BinaryOp {
    /// The operator as written in source.
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::FloorDiv => "//",
            BinaryOp::Mod => "%",
            BinaryOp::Pow => "**",
        }
    }
}

/// Comparison operators (all may be chained).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CompareOp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    NotEq,
    /// `in`
    In,
    /// `not in`
    NotIn,
}

impl CompareOp {
    /// The operator as written in source.
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            CompareOp::Lt => "<",
            CompareOp::Le => "<=",
            CompareOp::Gt => ">",
            CompareOp::Ge => ">=",
            CompareOp::Eq => "==",
            CompareOp::NotEq => "!=",
            CompareOp::In => "in",
            CompareOp::NotIn => "not in",
        }
    }
}

/// A piece of an f-string or template: literal text or a formatted expression.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum FStringPart {
    /// Literal text (escapes already resolved).
    Text(String),
    /// `{expr:spec}`.
    Field {
        /// The interpolated expression.
        expr: Expr,
        /// The parsed format spec (empty when absent).
        spec: FormatSpec,
    },
}

impl Expr {
    /// Builds a node, rejecting trees taller than [`MAX_TREE_HEIGHT`].
    pub(crate) fn new(kind: ExprKind, position: usize) -> Result<Expr, CompileError> {
        let mut expr = Expr {
            kind,
            position,
            height: 1,
        };
        let tallest_child = expr.children().iter().map(|child| child.height).max();
        expr.height = tallest_child.unwrap_or(0) + 1;
        if expr.height > MAX_TREE_HEIGHT {
            return Err(CompileError::new(
                position,
                format!("expression too complex (syntax tree deeper than {MAX_TREE_HEIGHT})"),
            ));
        }
        Ok(expr)
    }

    /// The direct sub-expressions, in source order.
    fn children(&self) -> Vec<&Expr> {
        match &self.kind {
            ExprKind::Literal(_) | ExprKind::Name(_) => Vec::new(),
            ExprKind::List(items) | ExprKind::Call(_, items) => items.iter().collect(),
            ExprKind::Unary(_, operand) | ExprKind::Not(operand) => vec![operand],
            ExprKind::Binary(_, left, right)
            | ExprKind::And(left, right)
            | ExprKind::Or(left, right)
            | ExprKind::Subscript(left, right) => vec![left, right],
            ExprKind::Compare(first, rest) => std::iter::once(&**first)
                .chain(rest.iter().map(|(_, operand)| operand))
                .collect(),
            ExprKind::Conditional {
                condition,
                then,
                otherwise,
            } => vec![then, condition, otherwise],
            ExprKind::FString(parts) => field_exprs(parts).collect(),
        }
    }

    /// Adds the free variable names to `names`, in source order.
    pub(crate) fn collect_names(&self, names: &mut Names) {
        if let ExprKind::Name(name) = &self.kind {
            names.add(name);
            return;
        }
        // Recursion depth is bounded by the tree height (at most MAX_TREE_HEIGHT).
        for child in self.children() {
            child.collect_names(names);
        }
    }
}

/// Free variable names, deduplicated, in first-seen order; a set makes collecting them
/// linear in the size of the source however many distinct names it has.
#[derive(Debug, Default)]
pub(crate) struct Names {
    order: Vec<String>,
    seen: HashSet<String>,
}

impl Names {
    fn add(&mut self, name: &str) {
        if !self.seen.contains(name) {
            self.seen.insert(name.to_owned());
            self.order.push(name.to_owned());
        }
    }

    /// The names in first-seen order.
    pub(crate) fn into_vec(self) -> Vec<String> {
        self.order
    }
}

/// The expressions of the fields of an f-string, in order.
pub(crate) fn field_exprs(parts: &[FStringPart]) -> impl Iterator<Item = &Expr> {
    parts.iter().filter_map(|part| match part {
        FStringPart::Field { expr, .. } => Some(expr),
        FStringPart::Text(_) => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(name: &str) -> Expr {
        Expr {
            kind: ExprKind::Name(name.to_owned()),
            position: 0,
            height: 1,
        }
    }

    fn check(expr: &Expr, expected: &[&str]) {
        let mut names = Names::default();
        expr.collect_names(&mut names);
        assert_eq!(names.into_vec(), expected);
    }

    #[test]
    fn names_are_deduplicated_in_order() -> Result<(), CompileError> {
        let sum = Expr::new(
            ExprKind::Binary(BinaryOp::Add, Box::new(leaf("b")), Box::new(leaf("a"))),
            0,
        )?;
        check(&sum, &["b", "a"]);
        let list = Expr::new(ExprKind::List(vec![leaf("a"), sum, leaf("c")]), 0)?;
        check(&list, &["a", "b", "c"]);
        assert_eq!(list.height, 3);
        Ok(())
    }

    #[test]
    fn tall_trees_are_rejected() {
        let mut expr = leaf("x");
        let mut outcome = Ok(());
        for _ in 0..MAX_TREE_HEIGHT {
            match Expr::new(ExprKind::Not(Box::new(expr.clone())), 7) {
                Ok(taller) => expr = taller,
                Err(error) => {
                    outcome = Err(error);
                    break;
                }
            }
        }
        assert_eq!(outcome.map_err(|error| error.position), Err(7));
    }

    #[test]
    fn operator_symbols() {
        assert_eq!(BinaryOp::FloorDiv.symbol(), "//");
        assert_eq!(CompareOp::NotIn.symbol(), "not in");
    }
}

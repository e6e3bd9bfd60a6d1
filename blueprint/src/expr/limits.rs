//! The expression language's size and cost limits (re-exported as `expr::MAX_*`); every
//! other module of `expr` reads them from here.

/// Maximum number of characters in the source text of one expression (or of one template placeholder).
pub const MAX_SOURCE_CHARS: usize = 2_000;

/// Maximum syntactic nesting depth: parentheses, list brackets, call arguments, subscripts,
/// unary operators, `**` exponents, `not`, conditional expressions and nested f-strings each add one level.
pub const MAX_DEPTH: usize = 64;

/// Maximum height of the compiled syntax tree. It bounds the evaluator's recursion for long
/// left-associative chains such as `a + b + c + ...`, which do not nest syntactically.
pub const MAX_TREE_HEIGHT: usize = 256;

/// Step budget of one evaluation (or one template rendering): every visited syntax node costs one
/// step, and work that grows with data size or a count costs extra steps, charged before it is
/// done (see the module's "Cost" section).
pub const MAX_STEPS: usize = 10_000;

/// Maximum length, in characters, of any string produced during evaluation.
pub const MAX_STRING_CHARS: usize = 4_096;

/// Maximum number of elements of any list produced during evaluation.
pub const MAX_LIST_LEN: usize = 1_024;

/// Largest count a string or list may be repeated by (`seq * n`), even an empty one: a
/// non-empty sequence repeated more often would exceed [`MAX_STRING_CHARS`] anyway.
pub const MAX_REPEAT_COUNT: usize = MAX_STRING_CHARS;

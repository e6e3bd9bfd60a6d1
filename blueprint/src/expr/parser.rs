//! Recursive-descent parser for operators, with Python precedence and a nesting-depth cap.

use super::ast::{BinaryOp, CompareOp, Expr, ExprKind, UnaryOp};
use super::error::CompileError;
use super::lexer::Lexer;
use super::limits::{MAX_DEPTH, MAX_SOURCE_CHARS};
use super::token::{Keyword, Spanned, Token};

/// Parser state: a lexer, the current (look-ahead) token and the nesting depth.
pub(crate) struct Parser {
    lexer: Lexer,
    pub(super) current: Spanned,
    pub(super) depth: usize,
}

impl Parser {
    /// Parses a complete expression whose first character sits at `base`; `depth` is the
    /// nesting depth already used by enclosing f-strings.
    pub(crate) fn parse_source(
        source: &str,
        base: usize,
        depth: usize,
    ) -> Result<Expr, CompileError> {
        let length = source.chars().count();
        if length > MAX_SOURCE_CHARS {
            let message =
                format!("expression too long ({length} characters, limit {MAX_SOURCE_CHARS})");
            return Err(CompileError::new(base + MAX_SOURCE_CHARS, message));
        }
        let mut lexer = Lexer::new(source, base);
        let current = lexer.next_token()?;
        if current.token == Token::Eof {
            return Err(CompileError::new(current.position, "empty expression"));
        }
        let mut parser = Parser {
            lexer,
            current,
            depth,
        };
        let expr = parser.expression()?;
        if parser.current.token != Token::Eof {
            return Err(parser.unexpected("end of expression"));
        }
        Ok(expr)
    }

    /// Moves to the next token and returns the one that was current.
    pub(super) fn advance(&mut self) -> Result<Spanned, CompileError> {
        let next = self.lexer.next_token()?;
        Ok(std::mem::replace(&mut self.current, next))
    }

    /// Consumes the current token if it equals `token`.
    pub(super) fn eat(&mut self, token: &Token) -> Result<bool, CompileError> {
        if self.current.token == *token {
            self.advance()?;
            return Ok(true);
        }
        Ok(false)
    }

    /// Runs `parse` one nesting level deeper, failing beyond [`MAX_DEPTH`].
    pub(super) fn nested<T>(
        &mut self,
        parse: impl FnOnce(&mut Self) -> Result<T, CompileError>,
    ) -> Result<T, CompileError> {
        if self.depth >= MAX_DEPTH {
            let message = format!("expression nested too deeply (limit {MAX_DEPTH} levels)");
            return Err(CompileError::new(self.current.position, message));
        }
        self.depth += 1;
        let result = parse(self);
        self.depth -= 1;
        result
    }

    /// `expression := or_test ['if' or_test 'else' expression]`, one level deeper.
    pub(super) fn expression(&mut self) -> Result<Expr, CompileError> {
        self.nested(Self::conditional)
    }

    fn conditional(&mut self) -> Result<Expr, CompileError> {
        let then = self.or_test()?;
        if self.current.token != Token::Keyword(Keyword::If) {
            return Ok(then);
        }
        let position = self.advance()?.position;
        let condition = self.or_test()?;
        if !self.eat(&Token::Keyword(Keyword::Else))? {
            return Err(self.unexpected("'else'"));
        }
        let otherwise = self.expression()?;
        let kind = ExprKind::Conditional {
            condition: Box::new(condition),
            then: Box::new(then),
            otherwise: Box::new(otherwise),
        };
        Expr::new(kind, position)
    }

    fn or_test(&mut self) -> Result<Expr, CompileError> {
        let mut left = self.and_test()?;
        while self.current.token == Token::Keyword(Keyword::Or) {
            let position = self.advance()?.position;
            let right = self.and_test()?;
            left = Expr::new(ExprKind::Or(Box::new(left), Box::new(right)), position)?;
        }
        Ok(left)
    }

    fn and_test(&mut self) -> Result<Expr, CompileError> {
        let mut left = self.not_test()?;
        while self.current.token == Token::Keyword(Keyword::And) {
            let position = self.advance()?.position;
            let right = self.not_test()?;
            left = Expr::new(ExprKind::And(Box::new(left), Box::new(right)), position)?;
        }
        Ok(left)
    }

    fn not_test(&mut self) -> Result<Expr, CompileError> {
        if self.current.token != Token::Keyword(Keyword::Not) {
            return self.comparison();
        }
        let position = self.advance()?.position;
        let operand = self.nested(Self::not_test)?;
        Expr::new(ExprKind::Not(Box::new(operand)), position)
    }

    fn comparison(&mut self) -> Result<Expr, CompileError> {
        let first = self.sum()?;
        let mut links = Vec::new();
        let mut position = None;
        while let Some((op, operator_position)) = self.comparison_operator()? {
            position.get_or_insert(operator_position);
            links.push((op, self.sum()?));
        }
        match position {
            Some(position) => Expr::new(ExprKind::Compare(Box::new(first), links), position),
            None => Ok(first),
        }
    }

    /// Consumes a comparison operator (`not in` spans two tokens) and returns it with its position.
    fn comparison_operator(&mut self) -> Result<Option<(CompareOp, usize)>, CompileError> {
        let position = self.current.position;
        let op = match self.current.token {
            Token::Less => CompareOp::Lt,
            Token::LessEqual => CompareOp::Le,
            Token::Greater => CompareOp::Gt,
            Token::GreaterEqual => CompareOp::Ge,
            Token::EqualEqual => CompareOp::Eq,
            Token::NotEqual => CompareOp::NotEq,
            Token::Keyword(Keyword::In) => CompareOp::In,
            Token::Keyword(Keyword::Not) => {
                self.advance()?;
                if self.current.token != Token::Keyword(Keyword::In) {
                    let message = "expected 'in' after 'not'";
                    return Err(CompileError::new(self.current.position, message));
                }
                CompareOp::NotIn
            }
            _ => return Ok(None),
        };
        self.advance()?;
        Ok(Some((op, position)))
    }

    fn sum(&mut self) -> Result<Expr, CompileError> {
        let mut left = self.term()?;
        loop {
            let op = match self.current.token {
                Token::Plus => BinaryOp::Add,
                Token::Minus => BinaryOp::Sub,
                _ => return Ok(left),
            };
            let position = self.advance()?.position;
            let right = self.term()?;
            left = Expr::new(
                ExprKind::Binary(op, Box::new(left), Box::new(right)),
                position,
            )?;
        }
    }

    fn term(&mut self) -> Result<Expr, CompileError> {
        let mut left = self.factor()?;
        loop {
            let op = match self.current.token {
                Token::Star => BinaryOp::Mul,
                Token::Slash => BinaryOp::Div,
                Token::DoubleSlash => BinaryOp::FloorDiv,
                Token::Percent => BinaryOp::Mod,
                _ => return Ok(left),
            };
            let position = self.advance()?.position;
            let right = self.factor()?;
            left = Expr::new(
                ExprKind::Binary(op, Box::new(left), Box::new(right)),
                position,
            )?;
        }
    }

    /// `factor := ('-' | '+') factor | power`.
    fn factor(&mut self) -> Result<Expr, CompileError> {
        let op = match self.current.token {
            Token::Minus => UnaryOp::Neg,
            Token::Plus => UnaryOp::Pos,
            _ => return self.power(),
        };
        let position = self.advance()?.position;
        let operand = self.nested(Self::factor)?;
        Expr::new(ExprKind::Unary(op, Box::new(operand)), position)
    }

    /// `power := primary ['**' factor]` (right-associative, binds tighter than a unary minus on its left).
    fn power(&mut self) -> Result<Expr, CompileError> {
        let base = self.primary()?;
        if self.current.token != Token::DoubleStar {
            return Ok(base);
        }
        let position = self.advance()?.position;
        let exponent = self.nested(Self::factor)?;
        Expr::new(
            ExprKind::Binary(BinaryOp::Pow, Box::new(base), Box::new(exponent)),
            position,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Renders the tree as an s-expression, e.g. `(+ a (* b c))`.
    fn show(expr: &Expr) -> String {
        let join = |items: &[Expr]| items.iter().map(show).collect::<Vec<_>>().join(" ");
        match &expr.kind {
            ExprKind::Literal(value) => value.to_repr_string(),
            ExprKind::Name(name) => name.clone(),
            ExprKind::List(items) => format!("[{}]", join(items)),
            ExprKind::Unary(op, operand) => format!("({op:?} {})", show(operand)),
            ExprKind::Not(operand) => format!("(not {})", show(operand)),
            ExprKind::Binary(op, l, r) => format!("({} {} {})", op.symbol(), show(l), show(r)),
            ExprKind::And(l, r) => format!("(and {} {})", show(l), show(r)),
            ExprKind::Or(l, r) => format!("(or {} {})", show(l), show(r)),
            ExprKind::Compare(first, links) => {
                let rest: Vec<String> = links
                    .iter()
                    .map(|(op, e)| format!("{} {}", op.symbol(), show(e)))
                    .collect();
                format!("(cmp {} {})", show(first), rest.join(" "))
            }
            ExprKind::Conditional {
                condition,
                then,
                otherwise,
            } => {
                format!(
                    "(if {} {} {})",
                    show(condition),
                    show(then),
                    show(otherwise)
                )
            }
            ExprKind::Subscript(c, i) => format!("(index {} {})", show(c), show(i)),
            ExprKind::Call(builtin, args) => format!("({} {})", builtin.name(), join(args)),
            ExprKind::FString(parts) => format!("(f {})", parts.len()),
        }
    }

    fn check(input: &str, expected: &str) {
        match Parser::parse_source(input, 0, 0) {
            Ok(expr) => assert_eq!(show(&expr), expected, "{input}"),
            Err(error) => panic!("{input}: {error}"),
        }
    }

    #[test]
    fn precedence_and_associativity() {
        check("a + b * c", "(+ a (* b c))");
        check("a - b - c", "(- (- a b) c)");
        check("a * b // c % d", "(% (// (* a b) c) d)");
        check("2 ** 3 ** 2", "(** 2 (** 3 2))");
        check("-2 ** 2", "(Neg (** 2 2))");
        check("2 ** -1", "(** 2 (Neg 1))");
        check("- - a", "(Neg (Neg a))");
        check("not a == b", "(not (cmp a == b))");
        check("a or b and c", "(or a (and b c))");
        check("not a and b", "(and (not a) b)");
        check("a + 1 < b * 2", "(cmp (+ a 1) < (* b 2))");
        check("a < b <= c", "(cmp a < b <= c)");
        check("x not in xs", "(cmp x not in xs)");
        check("x in xs == True", "(cmp x in xs == True)");
        check("a if c else b", "(if c a b)");
        check("a if c else b if d else e", "(if c a (if d b e))");
        check("a or b if c or d else e", "(if (or c d) (or a b) e)");
        check("(a + b) * c", "(* (+ a b) c)");
        check("xs[0][i + 1]", "(index (index xs 0) (+ i 1))");
        check("-xs[0] ** 2", "(Neg (** (index xs 0) 2))");
    }

    fn check_error(input: &str, position: usize, fragment: &str) {
        match Parser::parse_source(input, 0, 0) {
            Ok(expr) => panic!("{input}: expected error, got {}", show(&expr)),
            Err(error) => {
                assert!(error.message.contains(fragment), "{input}: {error}");
                assert_eq!(error.position, position, "{input}: {error}");
            }
        }
    }

    #[test]
    fn operator_errors() {
        check_error("", 0, "empty expression");
        check_error("   ", 3, "empty expression");
        check_error("a +", 3, "unexpected end of expression");
        check_error("a b", 2, "expected end of expression, found name 'b'");
        check_error("a if b", 6, "expected 'else'");
        check_error("a not b", 6, "expected 'in' after 'not'");
        check_error("a is b", 2, "'is' is not supported");
        check_error("1, 2", 1, "tuples are not supported");
        check_error("(1 + 2", 6, "expected ')'");
    }

    #[test]
    fn depth_and_size_caps() {
        let ok = format!(
            "{}1{}",
            "(".repeat(MAX_DEPTH - 1),
            ")".repeat(MAX_DEPTH - 1)
        );
        check(&ok, "1");
        let deep = format!("{}1{}", "(".repeat(MAX_DEPTH), ")".repeat(MAX_DEPTH));
        check_error(&deep, MAX_DEPTH, "nested too deeply");
        check_error(&"(".repeat(1_000), MAX_DEPTH, "nested too deeply");
        check_error(&"[".repeat(1_000), MAX_DEPTH, "nested too deeply");
        check_error(&"abs(".repeat(400), 4 * MAX_DEPTH, "nested too deeply");
        check_error(&"(".repeat(5_000), MAX_SOURCE_CHARS, "too long");
        let minus_chain = format!("{}1", "-".repeat(MAX_DEPTH + 1));
        check_error(&minus_chain, MAX_DEPTH, "nested too deeply");
        let not_chain = "not ".repeat(MAX_DEPTH) + "x";
        check_error(&not_chain, 4 * MAX_DEPTH, "nested too deeply");
        let power_chain = "2**".repeat(MAX_DEPTH) + "2";
        check_error(&power_chain, 3 * MAX_DEPTH, "nested too deeply");
        let long = "1+".repeat(5_000) + "1";
        check_error(&long, MAX_SOURCE_CHARS, "expression too long");
        let wide_chain = "1+".repeat(400) + "1";
        check_error(&wide_chain, 2 * 255 + 1, "expression too complex");
    }
}

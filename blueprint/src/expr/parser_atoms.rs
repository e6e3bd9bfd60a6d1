//! Parser for atoms and trailers: literals, names, whitelisted calls, lists, subscripts, f-strings.

use super::ast::{Expr, ExprKind, FStringPart};
use super::error::CompileError;
use super::format::FormatSpec;
use super::limits::MAX_LIST_LEN;
use super::network_error::OctetError;
use super::parser::Parser;
use super::placeholder::Piece;
use super::token::{Keyword, Token};
use super::value::Value;
use super::whitelist::Builtin;

impl Parser {
    /// `primary := atom ('[' expression ']')*`.
    pub(super) fn primary(&mut self) -> Result<Expr, CompileError> {
        let mut expr = self.atom()?;
        loop {
            match self.current.token {
                Token::LBracket => {
                    let position = self.advance()?.position;
                    let index = self.expression()?;
                    if !self.eat(&Token::RBracket)? {
                        return Err(self.unexpected("']' (slices are not supported)"));
                    }
                    expr = Expr::new(
                        ExprKind::Subscript(Box::new(expr), Box::new(index)),
                        position,
                    )?;
                }
                Token::LParen => {
                    let message = "only whitelisted functions can be called, directly by name";
                    return Err(CompileError::new(self.current.position, message));
                }
                _ => return Ok(expr),
            }
        }
    }

    fn atom(&mut self) -> Result<Expr, CompileError> {
        let position = self.current.position;
        let literal = match &self.current.token {
            Token::Int(int) => Value::Int(*int),
            Token::Float(float) => Value::Float(*float),
            Token::Str(text) => Value::Str(text.clone()),
            Token::Keyword(Keyword::True) => Value::Bool(true),
            Token::Keyword(Keyword::False) => Value::Bool(false),
            Token::Name(name) if forbidden_name(name).is_none() => {
                let name = name.clone();
                self.advance()?;
                return self.name_or_call(name, position);
            }
            Token::FString(_) => {
                let pieces = match self.advance()?.token {
                    Token::FString(pieces) => pieces,
                    _ => Vec::new(),
                };
                let parts = compile_pieces(pieces, self.depth)?;
                return Expr::new(ExprKind::FString(parts), position);
            }
            Token::LParen => {
                self.advance()?;
                return self.parenthesized(position);
            }
            Token::LBracket => {
                self.advance()?;
                return self.list_display(position);
            }
            _ => return Err(self.unexpected("an expression")),
        };
        self.advance()?;
        Expr::new(ExprKind::Literal(literal), position)
    }

    fn name_or_call(&mut self, name: String, position: usize) -> Result<Expr, CompileError> {
        if self.current.token != Token::LParen {
            return Expr::new(ExprKind::Name(name), position);
        }
        let Some(builtin) = Builtin::from_name(&name) else {
            let message = format!("function '{name}' is not allowed (not in the whitelist)");
            return Err(CompileError::new(position, message));
        };
        self.advance()?;
        let args = self.sequence(&Token::RParen, "')'")?;
        if let Some(message) = builtin.arity_error(args.len()) {
            return Err(CompileError::new(position, message));
        }
        check_literal_arguments(builtin, &args)?;
        Expr::new(ExprKind::Call(builtin, args), position)
    }

    fn parenthesized(&mut self, position: usize) -> Result<Expr, CompileError> {
        if self.current.token == Token::RParen {
            return Err(CompileError::new(position, "tuples are not supported"));
        }
        let inner = self.expression()?;
        if !self.eat(&Token::RParen)? {
            return Err(self.unexpected("')'"));
        }
        Ok(inner)
    }

    fn list_display(&mut self, position: usize) -> Result<Expr, CompileError> {
        let items = self.sequence(&Token::RBracket, "']'")?;
        if items.len() > MAX_LIST_LEN {
            let message = format!("list literal too long (limit {MAX_LIST_LEN} elements)");
            return Err(CompileError::new(position, message));
        }
        let constants: Option<Vec<Value>> = items
            .iter()
            .map(|item| match &item.kind {
                ExprKind::Literal(value) => Some(value.clone()),
                _ => None,
            })
            .collect();
        match constants {
            Some(values) => Expr::new(ExprKind::Literal(Value::List(values)), position),
            None => Expr::new(ExprKind::List(items), position),
        }
    }

    /// Comma-separated expressions up to `close` (trailing comma allowed), consuming `close`.
    fn sequence(&mut self, close: &Token, close_text: &str) -> Result<Vec<Expr>, CompileError> {
        let mut items = Vec::new();
        loop {
            if self.eat(close)? {
                return Ok(items);
            }
            items.push(self.expression()?);
            if self.eat(close)? {
                return Ok(items);
            }
            if !self.eat(&Token::Comma)? {
                return Err(self.unexpected(&format!("',' or {close_text}")));
            }
        }
    }

    /// An error for the current token, explaining unsupported Python syntax where possible.
    pub(super) fn unexpected(&self, expected: &str) -> CompileError {
        let position = self.current.position;
        let message = match &self.current.token {
            Token::Name(name) if forbidden_name(name).is_some() => {
                forbidden_name(name).unwrap_or_default()
            }
            Token::Comma if expected != "an expression" => "tuples are not supported".to_owned(),
            Token::Star | Token::DoubleStar if expected == "an expression" => {
                "unpacking with '*' or '**' is not allowed".to_owned()
            }
            Token::Eof if expected == "an expression" => "unexpected end of expression".to_owned(),
            other => format!("expected {expected}, found {}", other.describe()),
        };
        CompileError::new(position, message)
    }
}

/// Rejects at compile time an argument that is a literal and could never work: the error
/// mode of `network_with_error(address, mode)`.
fn check_literal_arguments(builtin: Builtin, args: &[Expr]) -> Result<(), CompileError> {
    if let (Builtin::NetworkWithError, [_, mode]) = (builtin, args)
        && let ExprKind::Literal(Value::Str(text)) = &mode.kind
    {
        OctetError::parse(text).map_err(|message| CompileError::new(mode.position, message))?;
    }
    Ok(())
}

/// Explains why a Python keyword or reserved name cannot be used; `None` for ordinary names.
fn forbidden_name(name: &str) -> Option<String> {
    let message = match name {
        "lambda" => "lambda expressions are not allowed",
        "None" => "None is not supported",
        "import" | "from" => "imports are not allowed",
        "is" => "'is' is not supported; use '==' or '!='",
        "for" | "async" => "comprehensions and generators are not allowed",
        "await" | "yield" | "def" | "class" | "del" | "global" | "nonlocal" | "pass" | "raise"
        | "return" | "try" | "while" | "with" | "assert" | "break" | "continue" | "except"
        | "finally" | "elif" | "as" => return Some(format!("'{name}' is not allowed")),
        _ if name.starts_with("__") => "names starting with '__' are not allowed",
        _ => return None,
    };
    Some(message.to_owned())
}

/// Compiles scanned f-string or template pieces; `depth` is the enclosing nesting depth.
pub(crate) fn compile_pieces(
    pieces: Vec<Piece>,
    depth: usize,
) -> Result<Vec<FStringPart>, CompileError> {
    pieces
        .into_iter()
        .map(|piece| match piece {
            Piece::Text(text) => Ok(FStringPart::Text(text)),
            Piece::Field(field) => {
                if field.expr.trim().is_empty() {
                    let message = "empty expression in placeholder";
                    return Err(CompileError::new(field.expr_position, message));
                }
                let expr = Parser::parse_source(&field.expr, field.expr_position, depth + 1)?;
                let spec = FormatSpec::parse(&field.spec, field.spec_position)?;
                Ok(FStringPart::Field { expr, spec })
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_error(input: &str, position: usize, fragment: &str) {
        match Parser::parse_source(input, 0, 0) {
            Ok(expr) => panic!("{input}: expected error, got {expr:?}"),
            Err(error) => {
                assert!(error.message.contains(fragment), "{input}: {error}");
                assert_eq!(error.position, position, "{input}: {error}");
            }
        }
    }

    fn check(input: &str, expected: ExprKind) {
        match Parser::parse_source(input, 0, 0) {
            Ok(expr) => assert_eq!(expr.kind, expected, "{input}"),
            Err(error) => panic!("{input}: {error}"),
        }
    }

    #[test]
    fn literals_fold_into_constants() {
        check("12", ExprKind::Literal(Value::Int(12)));
        check("True", ExprKind::Literal(Value::Bool(true)));
        check("'a'", ExprKind::Literal(Value::from("a")));
        check(
            "[1, 'a', [2],]",
            ExprKind::Literal(Value::List(vec![
                Value::Int(1),
                Value::from("a"),
                Value::List(vec![Value::Int(2)]),
            ])),
        );
        check("[]", ExprKind::Literal(Value::List(vec![])));
        check("x", ExprKind::Name("x".to_owned()));
    }

    #[test]
    fn rejected_python_syntax() {
        check_error("__import__('os')", 0, "names starting with '__'");
        check_error("__builtins__", 0, "names starting with '__'");
        check_error("open('x')", 0, "function 'open' is not allowed");
        check_error("a.b", 1, "attribute access");
        check_error("abs(x).real", 6, "attribute access");
        check_error("[x for x in y]", 3, "comprehensions");
        check_error("sum(x for x in y)", 6, "comprehensions");
        check_error("lambda: 1", 0, "lambda");
        check_error("{1: 2}", 0, "dict");
        check_error("x := 1", 2, "assignment expressions");
        check_error("round(x, ndigits=2)", 16, "keyword arguments");
        check_error("max(*xs)", 4, "unpacking");
        check_error("[*xs]", 1, "unpacking");
        check_error("None", 0, "None is not supported");
        check_error("import os", 0, "imports");
        check_error("xs[1:2]", 4, "slices");
        check_error("(abs)(1)", 5, "only whitelisted functions");
        check_error("xs[0](1)", 5, "only whitelisted functions");
        check_error("()", 0, "tuples");
        check_error("(1, 2)", 2, "tuples");
        check_error("[1 2]", 3, "expected ',' or ']'");
        check_error(
            "abs(1, 2)",
            0,
            "abs() takes exactly 1 argument(s) (2 given)",
        );
        check_error("min()", 0, "at least 1");
        check_error(
            "compute_network_address(1, 2, 3, 24)",
            0,
            "takes 2 or 5 argument(s) (4 given)",
        );
        check_error(
            "network_with_error(ip, 'increment_octet_9')",
            23,
            "unknown error mode 'increment_octet_9'",
        );
        check_error("abs(,)", 4, "expected an expression, found ','");
        check_error("xs[0", 4, "expected ']'");
        check_error("else", 0, "found 'else'");
        check_error("yield x", 0, "'yield' is not allowed");
    }

    #[test]
    fn fstrings_compile_with_absolute_positions() {
        check_error("f'{}'", 3, "empty expression");
        check_error("1 + f'{x +}'", 10, "unexpected end of expression");
        check_error("f'{x:q}'", 5, "invalid format spec");
        check_error("f'{open(1)}'", 3, "function 'open'");
        check_error("f'{a.b}'", 4, "attribute");
        let nested = format!("f'{{{}x{}}}'", "(".repeat(70), ")".repeat(70));
        match Parser::parse_source(&nested, 0, 0) {
            Ok(_) => panic!("nested f-strings beyond the cap must fail"),
            Err(error) => assert!(error.message.contains("nested too deeply"), "{error}"),
        }
        assert!(Parser::parse_source("f'{f\"{x}\"}'", 0, 0).is_ok());
        let parsed = Parser::parse_source("f'{a}-{b:>3}'", 0, 0);
        assert!(
            matches!(parsed.map(|expr| expr.kind), Ok(ExprKind::FString(parts)) if parts.len() == 3)
        );
    }
}

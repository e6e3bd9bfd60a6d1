//! Splits f-string and template text into literal text and `{expression:spec}` fields.

use super::error::CompileError;

/// A piece of f-string or template text before compilation.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Piece {
    /// Literal text, with `{{`/`}}` (and, in f-strings, backslash escapes) resolved.
    Text(String),
    /// A replacement field.
    Field(FieldSource),
}

/// The raw source of one replacement field.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FieldSource {
    /// Expression text between `{` and the spec (or `}`).
    pub(crate) expr: String,
    /// Absolute position of the first expression character.
    pub(crate) expr_position: usize,
    /// Format spec text after `:` (empty when absent).
    pub(crate) spec: String,
    /// Absolute position of the first spec character.
    pub(crate) spec_position: usize,
}

/// What kind of text is scanned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ScanMode {
    /// The body of an f-string closed by the given quote; backslash escapes apply.
    FString(char),
    /// A whole stem template (`str.format` style): runs to the end, backslashes are literal.
    Template,
}

/// Scans from `start` (just after an f-string's opening quote, or 0 for a template).
/// Returns the pieces and the index just past the closing quote (or the end of the text).
/// Positions are reported as `base + index`.
pub(crate) fn scan(
    chars: &[char],
    start: usize,
    base: usize,
    mode: ScanMode,
) -> Result<(Vec<Piece>, usize), CompileError> {
    let scanner = Scanner {
        chars,
        index: start,
        base,
        mode,
        pieces: Vec::new(),
        text: String::new(),
    };
    scanner.run(start)
}

struct Scanner<'c> {
    chars: &'c [char],
    index: usize,
    base: usize,
    mode: ScanMode,
    pieces: Vec<Piece>,
    text: String,
}

impl Scanner<'_> {
    fn peek(&self, offset: usize) -> Option<char> {
        self.chars.get(self.index + offset).copied()
    }

    fn error(&self, index: usize, message: &str) -> CompileError {
        CompileError::new(self.base + index, message)
    }

    fn is_closing_quote(&self, c: char) -> bool {
        matches!(self.mode, ScanMode::FString(quote) if quote == c)
    }

    fn flush_text(&mut self) {
        if !self.text.is_empty() {
            self.pieces
                .push(Piece::Text(std::mem::take(&mut self.text)));
        }
    }

    fn run(mut self, start: usize) -> Result<(Vec<Piece>, usize), CompileError> {
        let is_fstring = matches!(self.mode, ScanMode::FString(_));
        loop {
            match self.peek(0) {
                None if !is_fstring => break,
                None => return Err(self.error(start.saturating_sub(2), "unterminated f-string")),
                Some('\n') if is_fstring => {
                    return Err(self.error(start.saturating_sub(2), "unterminated f-string"));
                }
                Some(c) if self.is_closing_quote(c) => {
                    self.index += 1;
                    break;
                }
                Some('\\') if is_fstring => {
                    let escaped = self.peek(1).unwrap_or('\\');
                    push_escape(escaped, &mut self.text);
                    self.index += 2;
                }
                Some(brace @ ('{' | '}')) if self.peek(1) == Some(brace) => {
                    self.text.push(brace);
                    self.index += 2;
                }
                Some('}') => {
                    return Err(self.error(self.index, "single '}' is not allowed (use '}}')"));
                }
                Some('{') => {
                    self.flush_text();
                    let field = self.field()?;
                    self.pieces.push(Piece::Field(field));
                }
                Some(c) => {
                    self.text.push(c);
                    self.index += 1;
                }
            }
        }
        self.flush_text();
        Ok((self.pieces, self.index))
    }

    /// Scans `{expr[:spec]}` starting at the opening brace.
    fn field(&mut self) -> Result<FieldSource, CompileError> {
        let open = self.index;
        self.index += 1;
        let expr_position = self.base + self.index;
        let mut expr = String::new();
        let mut depth = 0usize;
        loop {
            let c = self.field_char(open)?;
            match c {
                '\'' | '"' => self.copy_nested_string(c, open, &mut expr)?,
                '{' => {
                    return Err(self.error(self.index, "'{' is not allowed inside a placeholder"));
                }
                '!' if depth == 0 && self.peek(1) != Some('=') => {
                    return Err(
                        self.error(self.index, "conversions ('!r', '!s') are not supported")
                    );
                }
                ':' | '}' if depth == 0 => break,
                _ => {
                    match c {
                        '(' | '[' => depth += 1,
                        ')' | ']' => depth = depth.saturating_sub(1),
                        _ => {}
                    }
                    expr.push(c);
                    self.index += 1;
                }
            }
        }
        let (spec, spec_position) = self.spec(open)?;
        Ok(FieldSource {
            expr,
            expr_position,
            spec,
            spec_position,
        })
    }

    /// The current character inside a field; the end of the text or the f-string is an error.
    fn field_char(&self, open: usize) -> Result<char, CompileError> {
        let ends_fstring =
            |c: char| self.is_closing_quote(c) || (c == '\n' && self.mode != ScanMode::Template);
        match self.peek(0) {
            Some(c) if !ends_fstring(c) => Ok(c),
            _ => Err(self.error(open, "expected '}' to close the placeholder")),
        }
    }

    /// Reads an optional `:spec` and the closing brace.
    fn spec(&mut self, open: usize) -> Result<(String, usize), CompileError> {
        let mut spec = String::new();
        if self.peek(0) == Some(':') {
            self.index += 1;
        }
        let spec_position = self.base + self.index;
        loop {
            match self.field_char(open)? {
                '}' => {
                    self.index += 1;
                    return Ok((spec, spec_position));
                }
                '{' => {
                    let message = "nested placeholders in format specs are not supported";
                    return Err(self.error(self.index, message));
                }
                c => {
                    spec.push(c);
                    self.index += 1;
                }
            }
        }
    }

    /// Copies a quoted string inside a field verbatim (escapes included) into `expr`.
    fn copy_nested_string(
        &mut self,
        quote: char,
        open: usize,
        expr: &mut String,
    ) -> Result<(), CompileError> {
        expr.push(quote);
        self.index += 1;
        loop {
            let c = self
                .peek(0)
                .ok_or_else(|| self.error(open, "expected '}' to close the placeholder"))?;
            expr.push(c);
            self.index += 1;
            if c == quote {
                return Ok(());
            }
            if c == '\\' {
                expr.extend(self.peek(0));
                self.index += 1;
            }
        }
    }
}

/// Appends the character denoted by the escape `\escaped`; unknown escapes keep the backslash.
pub(crate) fn push_escape(escaped: char, out: &mut String) {
    match escaped {
        'n' => out.push('\n'),
        't' => out.push('\t'),
        'r' => out.push('\r'),
        '0' => out.push('\0'),
        '\\' | '\'' | '"' => out.push(escaped),
        '\n' => {}
        other => {
            out.push('\\');
            out.push(other);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan_template(text: &str) -> Result<Vec<Piece>, CompileError> {
        let chars: Vec<char> = text.chars().collect();
        scan(&chars, 0, 0, ScanMode::Template).map(|(pieces, _)| pieces)
    }

    fn render(pieces: &[Piece]) -> String {
        pieces
            .iter()
            .map(|piece| match piece {
                Piece::Text(text) => text.clone(),
                Piece::Field(field) => {
                    format!(
                        "<{}@{}|{}@{}>",
                        field.expr, field.expr_position, field.spec, field.spec_position
                    )
                }
            })
            .collect()
    }

    fn check(text: &str, expected: &str) {
        match scan_template(text) {
            Ok(pieces) => assert_eq!(render(&pieces), expected, "{text}"),
            Err(error) => panic!("{text}: {error}"),
        }
    }

    fn check_error(text: &str, position: usize, fragment: &str) {
        match scan_template(text) {
            Ok(pieces) => panic!("{text}: expected error, got {pieces:?}"),
            Err(error) => {
                assert_eq!(error.position, position, "{text}: {error}");
                assert!(error.message.contains(fragment), "{text}: {error}");
            }
        }
    }

    #[test]
    fn template_pieces() {
        check("What is {a} + {b}?", "What is <a@9|@10> + <b@15|@16>?");
        check("{x:.2f}", "<x@1|.2f@3>");
        check("{{literal}} {x}", "{literal} <x@13|@14>");
        check("{xs[0]:>5}", "<xs[0]@1|>5@7>");
        check("{'a:b' + c}", "<'a:b' + c@1|@10>");
        check("{a != b}", "<a != b@1|@7>");
        check("{f(a, [1, 2])}", "<f(a, [1, 2])@1|@13>");
        check("no fields \\n", "no fields \\n");
        check("", "");
    }

    #[test]
    fn template_errors() {
        check_error("a } b", 2, "single '}'");
        check_error("a {b", 2, "expected '}'");
        check_error("{x:{y}}", 3, "nested");
        check_error("{x!r}", 2, "conversions");
        check_error("{ {1: 2} }", 2, "'{'");
        check_error("{'abc}", 0, "expected '}'");
    }

    #[test]
    fn fstring_bodies() {
        let chars: Vec<char> = "f'a{x}\\n{y:d}' + 1".chars().collect();
        match scan(&chars, 2, 0, ScanMode::FString('\'')) {
            Ok((pieces, end)) => {
                assert_eq!(render(&pieces), "a<x@4|@5>\n<y@9|d@11>");
                assert_eq!(end, 14);
            }
            Err(error) => panic!("{error}"),
        }
        let unterminated: Vec<char> = "f'{x}".chars().collect();
        let outcome = scan(&unterminated, 2, 10, ScanMode::FString('\''));
        assert_eq!(outcome.map_err(|error| error.position), Err(10));
        let quote_inside: Vec<char> = "f'{x'".chars().collect();
        let outcome = scan(&quote_inside, 2, 0, ScanMode::FString('\''));
        assert_eq!(outcome.map_err(|error| error.position), Err(2));
    }
}

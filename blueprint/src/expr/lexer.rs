//! Tokenizer: turns expression text into positioned tokens, rejecting unsupported syntax early.

use super::error::CompileError;
use super::placeholder::{self, ScanMode, push_escape};
use super::token::{Spanned, Token, keyword};

/// An on-demand tokenizer (the parser pulls tokens, so errors surface in source order).
pub(crate) struct Lexer {
    chars: Vec<char>,
    index: usize,
    base: usize,
}

impl Lexer {
    /// Tokenizes `source`, reporting positions offset by `base` (for f-string fields).
    pub(crate) fn new(source: &str, base: usize) -> Self {
        Self {
            chars: source.chars().collect(),
            index: 0,
            base,
        }
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.index + offset).copied()
    }

    fn error(&self, index: usize, message: impl Into<String>) -> CompileError {
        CompileError::new(self.base + index, message)
    }

    /// Produces the next token (`Token::Eof` at the end).
    pub(crate) fn next_token(&mut self) -> Result<Spanned, CompileError> {
        while self
            .peek_at(0)
            .is_some_and(|c| matches!(c, ' ' | '\t' | '\n' | '\r'))
        {
            self.index += 1;
        }
        let start = self.index;
        let token = match self.peek_at(0) {
            None => Token::Eof,
            Some(c) if c.is_ascii_digit() => self.number()?,
            Some('.') if self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) => self.number()?,
            Some(c) if c.is_ascii_alphabetic() || c == '_' => self.word()?,
            Some(quote @ ('\'' | '"')) => {
                self.index += 1;
                Token::Str(self.string_body(quote, start)?)
            }
            Some(c) => self.operator(c)?,
        };
        Ok(Spanned {
            token,
            position: self.base + start,
        })
    }

    fn operator(&mut self, first: char) -> Result<Token, CompileError> {
        let second = self.peek_at(1);
        let (token, width) = match (first, second) {
            ('*', Some('*')) => (Token::DoubleStar, 2),
            ('/', Some('/')) => (Token::DoubleSlash, 2),
            ('<', Some('=')) => (Token::LessEqual, 2),
            ('>', Some('=')) => (Token::GreaterEqual, 2),
            ('=', Some('=')) => (Token::EqualEqual, 2),
            ('!', Some('=')) => (Token::NotEqual, 2),
            ('+', _) => (Token::Plus, 1),
            ('-', _) => (Token::Minus, 1),
            ('*', _) => (Token::Star, 1),
            ('/', _) => (Token::Slash, 1),
            ('%', _) => (Token::Percent, 1),
            ('(', _) => (Token::LParen, 1),
            (')', _) => (Token::RParen, 1),
            ('[', _) => (Token::LBracket, 1),
            (']', _) => (Token::RBracket, 1),
            (',', _) => (Token::Comma, 1),
            ('<' | '>', Some(c)) if c == first || (first == '<' && c == '>') => {
                return Err(self.unsupported(first, second));
            }
            ('<', _) => (Token::Less, 1),
            ('>', _) => (Token::Greater, 1),
            _ => return Err(self.unsupported(first, second)),
        };
        self.index += width;
        Ok(token)
    }

    fn unsupported(&self, first: char, second: Option<char>) -> CompileError {
        let message = match (first, second) {
            ('.', _) => "attribute access ('.') is not allowed".to_owned(),
            (':', Some('=')) => "assignment expressions (':=') are not allowed".to_owned(),
            (':', _) => "':' is not allowed (no slices, lambdas or dicts)".to_owned(),
            ('=', _) => {
                "'=' is not allowed (no assignments or keyword arguments; use '==' to compare)"
                    .to_owned()
            }
            ('{' | '}', _) => "dict and set literals are not allowed".to_owned(),
            ('<', Some(c)) | ('>', Some(c)) => format!("operator '{first}{c}' is not supported"),
            ('&' | '|' | '^' | '~' | '@' | '!', _) => {
                format!("operator '{first}' is not supported")
            }
            ('#', _) => "comments are not allowed".to_owned(),
            _ => format!("unexpected character '{first}'"),
        };
        self.error(self.index, message)
    }

    /// Lexes a decimal integer or float literal (`12`, `1.5`, `.5`, `2e3`, `1_000`).
    fn number(&mut self) -> Result<Token, CompileError> {
        let start = self.index;
        let mut text = self.digits();
        let mut is_float = false;
        if self.peek_at(0) == Some('.') {
            self.index += 1;
            text.push('.');
            text.push_str(&self.digits());
            is_float = true;
        }
        if self.exponent(start, &mut text)? {
            is_float = true;
        }
        if self
            .peek_at(0)
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(self.error(start, "invalid number literal"));
        }
        if is_float {
            return text
                .parse::<f64>()
                .map(Token::Float)
                .map_err(|_| self.error(start, "invalid number literal"));
        }
        if text.len() > 1 && text.starts_with('0') && text.chars().any(|c| c != '0') {
            return Err(self.error(
                start,
                "leading zeros in decimal integer literals are not permitted",
            ));
        }
        text.parse::<i64>().map(Token::Int).map_err(|_| {
            self.error(
                start,
                "integer literal too large (limit 9223372036854775807)",
            )
        })
    }

    /// Consumes an optional exponent (`e-3`) into `text`; returns whether there was one.
    fn exponent(&mut self, start: usize, text: &mut String) -> Result<bool, CompileError> {
        if !matches!(self.peek_at(0), Some('e' | 'E')) {
            return Ok(false);
        }
        let sign_width = usize::from(matches!(self.peek_at(1), Some('+' | '-')));
        if !self
            .peek_at(1 + sign_width)
            .is_some_and(|c| c.is_ascii_digit())
        {
            return Err(self.error(start, "invalid number literal"));
        }
        text.push('e');
        if sign_width == 1 {
            text.extend(self.peek_at(1));
        }
        self.index += 1 + sign_width;
        text.push_str(&self.digits());
        Ok(true)
    }

    /// Consumes a run of digits with single underscores between them; returns the digits.
    fn digits(&mut self) -> String {
        let mut digits = String::new();
        while let Some(c) = self.peek_at(0) {
            if c.is_ascii_digit() {
                digits.push(c);
                self.index += 1;
            } else if c == '_'
                && !digits.is_empty()
                && self.peek_at(1).is_some_and(|next| next.is_ascii_digit())
            {
                self.index += 1;
            } else {
                break;
            }
        }
        digits
    }

    /// Lexes a name, keyword, or a prefixed string (`f'...'`).
    fn word(&mut self) -> Result<Token, CompileError> {
        let start = self.index;
        while self
            .peek_at(0)
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            self.index += 1;
        }
        let word: String = self
            .chars
            .get(start..self.index)
            .unwrap_or(&[])
            .iter()
            .collect();
        if let Some(quote @ ('\'' | '"')) = self.peek_at(0) {
            if word == "f" || word == "F" {
                self.index += 1;
                let (pieces, end) = placeholder::scan(
                    &self.chars,
                    self.index,
                    self.base,
                    ScanMode::FString(quote),
                )?;
                self.index = end;
                return Ok(Token::FString(pieces));
            }
            if word.len() <= 2 && word.chars().all(|c| "rRbBuUfF".contains(c)) {
                let message = format!("string prefix '{word}' is not supported");
                return Err(self.error(start, message));
            }
        }
        Ok(keyword(&word).map_or(Token::Name(word), Token::Keyword))
    }

    /// Lexes the rest of a quoted string whose opening quote started at `start`.
    fn string_body(&mut self, quote: char, start: usize) -> Result<String, CompileError> {
        let mut text = String::new();
        loop {
            match self.peek_at(0) {
                None | Some('\n') => return Err(self.error(start, "unterminated string literal")),
                Some(c) if c == quote => {
                    self.index += 1;
                    return Ok(text);
                }
                Some('\\') => {
                    let escaped = self
                        .peek_at(1)
                        .ok_or_else(|| self.error(start, "unterminated string literal"))?;
                    push_escape(escaped, &mut text);
                    self.index += 2;
                }
                Some(c) => {
                    text.push(c);
                    self.index += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::token::Keyword;

    fn tokens(source: &str) -> Result<Vec<Token>, CompileError> {
        let mut lexer = Lexer::new(source, 0);
        let mut out = Vec::new();
        loop {
            let spanned = lexer.next_token()?;
            if spanned.token == Token::Eof {
                return Ok(out);
            }
            out.push(spanned.token);
        }
    }

    fn check(source: &str, expected: &[Token]) {
        match tokens(source) {
            Ok(actual) => assert_eq!(actual, expected, "{source}"),
            Err(error) => panic!("{source}: {error}"),
        }
    }

    fn check_error(source: &str, position: usize, fragment: &str) {
        match tokens(source) {
            Ok(actual) => panic!("{source}: expected an error, got {actual:?}"),
            Err(error) => {
                assert_eq!(error.position, position, "{source}: {error}");
                assert!(error.message.contains(fragment), "{source}: {error}");
            }
        }
    }

    fn name(text: &str) -> Token {
        Token::Name(text.to_owned())
    }

    #[test]
    fn numbers() {
        check(
            "12 0 1_000",
            &[Token::Int(12), Token::Int(0), Token::Int(1000)],
        );
        check(
            "1.5 .5 2e3 1.",
            &[
                Token::Float(1.5),
                Token::Float(0.5),
                Token::Float(2000.0),
                Token::Float(1.0),
            ],
        );
        check(
            "1e-3 2E+2 00",
            &[Token::Float(0.001), Token::Float(200.0), Token::Int(0)],
        );
        check("9223372036854775807", &[Token::Int(i64::MAX)]);
    }

    #[test]
    fn strings_and_names() {
        check(
            r#"'a\'b' "c\"d" 'x\ny\\'"#,
            &[
                Token::Str("a'b".into()),
                Token::Str("c\"d".into()),
                Token::Str("x\ny\\".into()),
            ],
        );
        check("'\\d'", &[Token::Str("\\d".into())]);
        check(
            "operand_1 _x True and",
            &[
                name("operand_1"),
                name("_x"),
                Token::Keyword(Keyword::True),
                Token::Keyword(Keyword::And),
            ],
        );
    }

    #[test]
    fn operators() {
        check(
            "a**b//c<=d!=e==f>=g",
            &[
                name("a"),
                Token::DoubleStar,
                name("b"),
                Token::DoubleSlash,
                name("c"),
                Token::LessEqual,
                name("d"),
                Token::NotEqual,
                name("e"),
                Token::EqualEqual,
                name("f"),
                Token::GreaterEqual,
                name("g"),
            ],
        );
        check(
            "([,])< >%",
            &[
                Token::LParen,
                Token::LBracket,
                Token::Comma,
                Token::RBracket,
                Token::RParen,
                Token::Less,
                Token::Greater,
                Token::Percent,
            ],
        );
    }

    #[test]
    fn rejected_input() {
        check_error("a.b", 1, "attribute");
        check_error("x := 1", 2, "assignment expressions");
        check_error("{1: 2}", 0, "dict");
        check_error("a = 1", 2, "'='");
        check_error("a & b", 2, "'&'");
        check_error("a << b", 2, "'<<'");
        check_error("~a", 0, "'~'");
        check_error("x # c", 2, "comments");
        check_error("'abc", 0, "unterminated");
        check_error("1 + 'a\nb'", 4, "unterminated");
        check_error("012", 0, "leading zeros");
        check_error("99999999999999999999", 0, "too large");
        check_error("1e", 0, "invalid number");
        check_error("0x1F", 0, "invalid number");
        check_error("r'x'", 0, "prefix 'r'");
        check_error("a ? b", 2, "unexpected character");
        check_error("é", 0, "unexpected character");
    }
}

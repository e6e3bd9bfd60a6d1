//! Rust source to tokens for the import scan: identifiers, `::` and punctuation with their
//! lines; comments are dropped, and strings, characters and numbers become literals.

/// What one token is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok {
    /// An identifier or keyword (`r#` dropped); a macro variable keeps its `$` (`$crate`).
    Ident(String),
    /// `::`.
    PathSep,
    /// A string literal's text, escapes left as written (for `#[path = "..."]`).
    Str(String),
    /// Any other literal: a number, a character, a byte.
    Literal,
    /// A lifetime or label (`'a`).
    Lifetime,
    /// One punctuation character.
    Punct(char),
}

/// A token and the 1-based line it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    pub tok: Tok,
    pub line: usize,
}

/// Splits `src` into tokens. Never fails: an unterminated string or comment runs to the end.
pub(crate) fn tokenize(src: &str) -> Vec<Token> {
    let mut lexer = Lexer {
        chars: src.chars().collect(),
        at: 0,
        line: 1,
        out: Vec::new(),
    };
    lexer.run();
    lexer.out
}

struct Lexer {
    chars: Vec<char>,
    at: usize,
    line: usize,
    out: Vec<Token>,
}

impl Lexer {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    /// Moves on one character, counting lines.
    fn bump(&mut self) {
        if self.peek(0) == Some('\n') {
            self.line += 1;
        }
        self.at += 1;
    }

    fn push(&mut self, tok: Tok, line: usize) {
        self.out.push(Token { tok, line });
    }

    fn run(&mut self) {
        while let Some(c) = self.peek(0) {
            let line = self.line;
            match c {
                c if c.is_whitespace() => self.bump(),
                '/' if self.peek(1) == Some('/') => self.line_comment(),
                '/' if self.peek(1) == Some('*') => self.block_comment(),
                '"' => {
                    let text = self.quoted();
                    self.push(Tok::Str(text), line);
                }
                '\'' => self.quote_or_lifetime(line),
                ':' if self.peek(1) == Some(':') => {
                    self.at += 2;
                    self.push(Tok::PathSep, line);
                }
                '$' if self.peek(1).is_some_and(is_ident_start) => {
                    self.bump();
                    let name = self.ident();
                    self.push(Tok::Ident(format!("${name}")), line);
                }
                c if c.is_ascii_digit() => {
                    self.number();
                    self.push(Tok::Literal, line);
                }
                c if is_ident_start(c) => self.word(line),
                c => {
                    self.bump();
                    self.push(Tok::Punct(c), line);
                }
            }
        }
    }

    fn line_comment(&mut self) {
        while self.peek(0).is_some_and(|c| c != '\n') {
            self.bump();
        }
    }

    /// A block comment, nested ones included.
    fn block_comment(&mut self) {
        let mut depth = 0usize;
        while let Some(c) = self.peek(0) {
            if c == '/' && self.peek(1) == Some('*') {
                depth += 1;
                self.bump();
            } else if c == '*' && self.peek(1) == Some('/') {
                depth -= 1;
                self.bump();
                if depth == 0 {
                    self.bump();
                    return;
                }
            }
            self.bump();
        }
    }

    /// A `"..."` string with escapes; returns its text between the quotes.
    fn quoted(&mut self) -> String {
        self.bump();
        let mut text = String::new();
        while let Some(c) = self.peek(0) {
            self.bump();
            match c {
                '"' => break,
                '\\' => {
                    text.push(c);
                    if let Some(escaped) = self.peek(0) {
                        text.push(escaped);
                        self.bump();
                    }
                }
                c => text.push(c),
            }
        }
        text
    }

    /// A raw string after its `r`: `#`s, the quote, the text, the quote and as many `#`s.
    fn raw_string(&mut self) -> String {
        let mut hashes = 0;
        while self.peek(0) == Some('#') {
            hashes += 1;
            self.bump();
        }
        self.bump();
        let mut text = String::new();
        while let Some(c) = self.peek(0) {
            if c == '"' && (1..=hashes).all(|k| self.peek(k) == Some('#')) {
                for _ in 0..=hashes {
                    self.bump();
                }
                break;
            }
            text.push(c);
            self.bump();
        }
        text
    }

    /// `'x'`, `'\n'` (characters) or `'a` (a lifetime or label).
    fn quote_or_lifetime(&mut self, line: usize) {
        self.bump();
        if self.peek(0) == Some('\\') {
            self.bump();
            self.bump();
            while self.peek(0).is_some_and(|c| c != '\'') {
                self.bump();
            }
            self.bump();
            self.push(Tok::Literal, line);
        } else if self.peek(1) == Some('\'') {
            self.bump();
            self.bump();
            self.push(Tok::Literal, line);
        } else {
            self.ident();
            self.push(Tok::Lifetime, line);
        }
    }

    fn number(&mut self) {
        loop {
            while self.peek(0).is_some_and(is_ident_continue) {
                self.bump();
            }
            if self.peek(0) == Some('.') && self.peek(1).is_some_and(|c| c.is_ascii_digit()) {
                self.bump();
            } else {
                return;
            }
        }
    }

    fn ident(&mut self) -> String {
        let mut name = String::new();
        while let Some(c) = self.peek(0).filter(|&c| is_ident_continue(c)) {
            name.push(c);
            self.bump();
        }
        name
    }

    /// An identifier, or a literal that starts like one: `r"…"`, `r#"…"#`, `b"…"`, `b'x'`,
    /// `br"…"`, `c"…"`; `r#name` is the identifier `name`.
    fn word(&mut self, line: usize) {
        let prefix: String = self.chars[self.at..].iter().take(2).collect();
        let raw_at = match prefix.as_str() {
            "br" | "cr" => Some(2),
            _ if prefix.starts_with('r') => Some(1),
            _ => None,
        };
        if let Some(skip) = raw_at {
            let mut hashes = 0;
            while self.peek(skip + hashes) == Some('#') {
                hashes += 1;
            }
            if self.peek(skip + hashes) == Some('"') {
                self.at += skip;
                let text = self.raw_string();
                self.push(Tok::Str(text), line);
                return;
            }
            if skip == 1 && hashes == 1 && self.peek(2).is_some_and(is_ident_start) {
                self.at += 2;
                let name = self.ident();
                self.push(Tok::Ident(name), line);
                return;
            }
        }
        if matches!(self.peek(0), Some('b' | 'c')) && self.peek(1) == Some('"') {
            self.bump();
            let text = self.quoted();
            self.push(Tok::Str(text), line);
            return;
        }
        if self.peek(0) == Some('b') && self.peek(1) == Some('\'') {
            self.bump();
            self.quote_or_lifetime(line);
            return;
        }
        let name = self.ident();
        self.push(Tok::Ident(name), line);
    }
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_continue(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tokens of `src` written compactly: identifiers as themselves, `::`, `"text"` for a
    /// string, `#` for another literal, `'` for a lifetime, punctuation as itself.
    fn check(src: &str, expected: &str) {
        let written: Vec<String> = tokenize(src)
            .into_iter()
            .map(|t| match t.tok {
                Tok::Ident(name) => name,
                Tok::PathSep => "::".to_string(),
                Tok::Str(text) => format!("{text:?}"),
                Tok::Literal => "#".to_string(),
                Tok::Lifetime => "'".to_string(),
                Tok::Punct(c) => c.to_string(),
            })
            .collect();
        assert_eq!(written.join(" "), expected, "tokens of {src:?}");
    }

    #[test]
    fn paths_and_punctuation() {
        check("use crate::a::{b, c};", "use crate :: a :: { b , c } ;");
        check("$crate::x", "$crate :: x");
        check("r#type::x", "type :: x");
    }

    #[test]
    fn comments_are_dropped() {
        check("a // crate::x\nb", "a b");
        check("a /* crate::x /* nested */ still */ b", "a b");
        check("/// [`crate::x`]\nfn f", "fn f");
    }

    #[test]
    fn strings_and_characters_are_literals() {
        check(r#"x = "crate::a \" b";"#, r#"x = "crate::a \\\" b" ;"#);
        check(
            r##"r#"a "quoted" crate::b"# c"##,
            r#""a \"quoted\" crate::b" c"#,
        );
        check(r#"b"x" br"y" c"z""#, r#""x" "y" "z""#);
        check("'a' '\\n' '\\'' b'x' 1.5e3 0x1f", "# # # # # #");
    }

    #[test]
    fn lifetimes_are_not_characters() {
        check("fn f<'a>(x: &'a str)", "fn f < ' > ( x : & ' str )");
        check("'outer: loop {}", "' : loop { }");
    }

    #[test]
    fn lines_are_counted_through_comments_and_strings() {
        let tokens = tokenize("a\n/* one\ntwo */ b \"x\ny\" c");
        let lines: Vec<usize> = tokens.iter().map(|t| t.line).collect();
        assert_eq!(lines, vec![1, 3, 3, 4]);
    }
}

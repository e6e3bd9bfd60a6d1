//! Lexical tokens of the expression language and their descriptions for error messages.

use super::placeholder::Piece;

/// A lexical token.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Token {
    Int(i64),
    Float(f64),
    Str(String),
    FString(Vec<Piece>),
    Name(String),
    Keyword(Keyword),
    Plus,
    Minus,
    Star,
    DoubleStar,
    Slash,
    DoubleSlash,
    Percent,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    EqualEqual,
    NotEqual,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Eof,
}

impl Token {
    /// A short description for error messages (`'+'`, `name 'x'`, `end of expression`).
    pub(crate) fn describe(&self) -> String {
        let symbol = match self {
            Token::Int(int) => return format!("number {int}"),
            Token::Float(_) => return "a number".to_owned(),
            Token::Str(_) => return "a string".to_owned(),
            Token::FString(_) => return "an f-string".to_owned(),
            Token::Name(name) => return format!("name '{name}'"),
            Token::Eof => return "end of expression".to_owned(),
            Token::Keyword(keyword) => keyword.text(),
            Token::Plus => "+",
            Token::Minus => "-",
            Token::Star => "*",
            Token::DoubleStar => "**",
            Token::Slash => "/",
            Token::DoubleSlash => "//",
            Token::Percent => "%",
            Token::Less => "<",
            Token::LessEqual => "<=",
            Token::Greater => ">",
            Token::GreaterEqual => ">=",
            Token::EqualEqual => "==",
            Token::NotEqual => "!=",
            Token::LParen => "(",
            Token::RParen => ")",
            Token::LBracket => "[",
            Token::RBracket => "]",
            Token::Comma => ",",
        };
        format!("'{symbol}'")
    }
}

/// The Python keywords that exist in the language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keyword {
    True,
    False,
    And,
    Or,
    Not,
    In,
    If,
    Else,
}

/// A token with the 0-based character position where it starts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Spanned {
    pub(crate) token: Token,
    pub(crate) position: usize,
}

impl Keyword {
    /// The keyword as written in source.
    pub(crate) fn text(self) -> &'static str {
        match self {
            Keyword::True => "True",
            Keyword::False => "False",
            Keyword::And => "and",
            Keyword::Or => "or",
            Keyword::Not => "not",
            Keyword::In => "in",
            Keyword::If => "if",
            Keyword::Else => "else",
        }
    }
}

/// The keyword spelled `word`, if any.
pub(crate) fn keyword(word: &str) -> Option<Keyword> {
    Some(match word {
        "True" => Keyword::True,
        "False" => Keyword::False,
        "and" => Keyword::And,
        "or" => Keyword::Or,
        "not" => Keyword::Not,
        "in" => Keyword::In,
        "if" => Keyword::If,
        "else" => Keyword::Else,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(token: Token, expected: &str) {
        assert_eq!(token.describe(), expected);
    }

    #[test]
    fn descriptions() {
        check(Token::Int(3), "number 3");
        check(Token::Name("x".to_owned()), "name 'x'");
        check(Token::Keyword(Keyword::Else), "'else'");
        check(Token::DoubleSlash, "'//'");
        check(Token::Eof, "end of expression");
    }

    #[test]
    fn keywords_round_trip() {
        for word in ["True", "False", "and", "or", "not", "in", "if", "else"] {
            assert_eq!(keyword(word).map(Keyword::text), Some(word));
        }
        assert_eq!(keyword("lambda"), None);
        assert_eq!(keyword("true"), None);
    }
}

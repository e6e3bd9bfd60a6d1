//! One file's `mod` declarations and the paths it names: the leaves of its `use` trees and
//! the paths in its code (`crate::a::B`, `super::f`), each with its line and inline-module
//! scope. Items under `#[cfg(test)]` are left out, and a file under `#![cfg(test)]` is empty.

use super::lex::{Tok, Token, tokenize};

/// What the scan keeps of one file.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Parsed {
    /// `mod name;` declarations, outside test-only items.
    pub mods: Vec<ModDecl>,
    /// Inline `mod name { … }` blocks, as scopes (outer names first).
    pub inline_mods: Vec<Vec<String>>,
    /// Every path the file names, outside test-only items.
    pub refs: Vec<PathRef>,
}

/// `mod name;`, possibly with `#[path = "…"]`, inside the inline modules of `scope`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ModDecl {
    pub scope: Vec<String>,
    pub name: String,
    pub path_attr: Option<String>,
}

/// A path the file names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PathRef {
    /// The inline modules the path is written in (outer names first).
    pub scope: Vec<String>,
    pub segments: Vec<String>,
    pub line: usize,
    pub kind: RefKind,
}

/// How a path is named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RefKind {
    /// A `use` leaf bringing `alias` into scope (`None` for `as _`); `public` for `pub use`.
    Use { alias: Option<String>, public: bool },
    /// A `use …::*` glob, of the module that `segments` names.
    Glob,
    /// A path in code, not in a `use`.
    Code,
}

/// Scans `src`.
pub(crate) fn parse(src: &str) -> Parsed {
    let mut parser = Parser {
        tokens: tokenize(src),
        at: 0,
        frames: Vec::new(),
        out: Parsed::default(),
    };
    parser.run();
    parser.out
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
    /// One per open `{`: the inline module it opens, if it does.
    frames: Vec<Option<String>>,
    out: Parsed,
}

/// The words an item starts with, after its attributes and visibility.
const ITEM_KEYWORDS: &[&str] = &[
    "async",
    "const",
    "enum",
    "extern",
    "fn",
    "impl",
    "let",
    "macro_rules",
    "mod",
    "static",
    "struct",
    "trait",
    "type",
    "union",
    "unsafe",
    "use",
];

/// What an outer attribute means to the scan.
enum Attr {
    CfgTest,
    Path(String),
    Other,
}

impl Parser {
    fn tok(&self, ahead: usize) -> Option<&Tok> {
        self.tokens.get(self.at + ahead).map(|t| &t.tok)
    }

    fn is_ident(&self, ahead: usize, name: &str) -> bool {
        matches!(self.tok(ahead), Some(Tok::Ident(n)) if n == name)
    }

    fn is_punct(&self, ahead: usize, c: char) -> bool {
        self.tok(ahead) == Some(&Tok::Punct(c))
    }

    fn line(&self) -> usize {
        self.tokens
            .get(self.at)
            .or(self.tokens.last())
            .map_or(1, |t| t.line)
    }

    fn scope(&self) -> Vec<String> {
        self.frames.iter().flatten().cloned().collect()
    }

    fn run(&mut self) {
        let mut path_attr = None;
        while let Some(tok) = self.tok(0).cloned() {
            match tok {
                Tok::Punct('#') if self.is_punct(1, '!') && self.is_punct(2, '[') => {
                    self.at += 2;
                    if matches!(self.attribute(), Attr::CfgTest) && self.frames.is_empty() {
                        self.out = Parsed::default();
                        return;
                    }
                }
                Tok::Punct('#') if self.is_punct(1, '[') => {
                    self.at += 1;
                    match self.attribute() {
                        Attr::CfgTest => {
                            self.skip_item();
                            path_attr = None;
                        }
                        Attr::Path(path) => path_attr = Some(path),
                        Attr::Other => {}
                    }
                }
                Tok::Punct('{') => {
                    self.frames.push(None);
                    self.at += 1;
                    path_attr = None;
                }
                Tok::Punct('}') => {
                    self.frames.pop();
                    self.at += 1;
                    path_attr = None;
                }
                Tok::Punct(';') => {
                    self.at += 1;
                    path_attr = None;
                }
                Tok::Ident(word) if word == "pub" => {
                    self.at += 1;
                    if self.is_punct(0, '(') {
                        self.skip_group();
                    }
                    if self.is_ident(0, "use") && !self.is_punct(1, '<') {
                        self.at += 1;
                        self.use_tree_statement(true);
                    }
                }
                Tok::Ident(word) if word == "use" && !self.is_punct(1, '<') => {
                    self.at += 1;
                    self.use_tree_statement(false);
                }
                Tok::Ident(word) if word == "mod" => self.module(path_attr.take()),
                Tok::Ident(_) if self.at == 0 || self.tokens[self.at - 1].tok != Tok::PathSep => {
                    self.code_path();
                }
                _ => self.at += 1,
            }
        }
    }

    /// After `#` (and `!`): reads `[ … ]` and says what it is.
    fn attribute(&mut self) -> Attr {
        let start = self.at;
        self.skip_group();
        let inner: Vec<&Tok> = self.tokens[start + 1..self.at - 1]
            .iter()
            .map(|t| &t.tok)
            .collect();
        let ident = |t: &Tok, name: &str| matches!(t, Tok::Ident(n) if n == name);
        match inner.as_slice() {
            [cfg, Tok::Punct('('), test, Tok::Punct(')')]
                if ident(cfg, "cfg") && ident(test, "test") =>
            {
                Attr::CfgTest
            }
            [path, Tok::Punct('='), Tok::Str(value)] if ident(path, "path") => {
                Attr::Path(value.clone())
            }
            _ => Attr::Other,
        }
    }

    /// From an opening bracket of any kind, past its matching closer.
    fn skip_group(&mut self) {
        let mut depth = 0usize;
        while let Some(tok) = self.tok(0).cloned() {
            self.at += 1;
            match tok {
                Tok::Punct('(' | '[' | '{') => depth += 1,
                Tok::Punct(')' | ']' | '}') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
    }

    /// Past what a `#[cfg(test)]` applies to. An item (`fn`, `mod`, `use`, `impl`, …) ends
    /// with its `;` or its body's closing `}`; anything else (a field, a variant, a match arm)
    /// also ends at a `,`. Never past a closer that belongs to the enclosing block.
    fn skip_item(&mut self) {
        while self.is_punct(0, '#') {
            self.at += 1;
            self.skip_group();
        }
        let mut first = self.at;
        if self.is_ident(0, "pub") {
            first += if self.is_punct(1, '(') {
                1 + self.group_len(first + 1)
            } else {
                1
            };
        }
        let is_item = matches!(self.tokens.get(first).map(|t| &t.tok), Some(Tok::Ident(word)) if ITEM_KEYWORDS.contains(&word.as_str()));
        let mut depth = 0usize;
        while let Some(tok) = self.tok(0).cloned() {
            match tok {
                Tok::Punct('(' | '[' | '{') => depth += 1,
                Tok::Punct(')' | ']' | '}') => {
                    if depth == 0 {
                        return;
                    }
                    depth -= 1;
                    if depth == 0 && is_item && self.is_punct(0, '}') {
                        self.at += 1;
                        return;
                    }
                }
                Tok::Punct(';') if depth == 0 => {
                    self.at += 1;
                    return;
                }
                Tok::Punct(',') if depth == 0 && !is_item => {
                    self.at += 1;
                    return;
                }
                _ => {}
            }
            self.at += 1;
        }
    }

    /// The number of tokens of the bracketed group that starts at token `start`.
    fn group_len(&self, start: usize) -> usize {
        let mut depth = 0usize;
        for (k, token) in self.tokens[start..].iter().enumerate() {
            match token.tok {
                Tok::Punct('(' | '[' | '{') => depth += 1,
                Tok::Punct(')' | ']' | '}') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return k + 1;
                    }
                }
                _ => {}
            }
        }
        self.tokens.len() - start
    }

    /// At `mod`: a declaration `mod name;` or an inline module `mod name {`.
    fn module(&mut self, path_attr: Option<String>) {
        self.at += 1;
        let Some(Tok::Ident(name)) = self.tok(0).cloned() else {
            return;
        };
        self.at += 1;
        if self.is_punct(0, ';') {
            self.out.mods.push(ModDecl {
                scope: self.scope(),
                name,
                path_attr,
            });
            self.at += 1;
        } else if self.is_punct(0, '{') {
            self.frames.push(Some(name));
            self.out.inline_mods.push(self.scope());
            self.at += 1;
        }
    }

    /// After `use`: the tree up to its `;`.
    fn use_tree_statement(&mut self, public: bool) {
        let scope = self.scope();
        self.use_tree(&[], public, &scope);
        if self.is_punct(0, ';') {
            self.at += 1;
        }
    }

    /// One use tree under `prefix`: `a::b`, `a::b as c`, `a::*`, `a::{…}`, `{…}`, `*`.
    fn use_tree(&mut self, prefix: &[String], public: bool, scope: &[String]) {
        let mut segments = prefix.to_vec();
        if self.tok(0) == Some(&Tok::PathSep) {
            self.at += 1;
        }
        let mut line = self.line();
        while let Some(Tok::Ident(name)) = self.tok(0).cloned() {
            if name == "as" && segments.len() > prefix.len() {
                break;
            }
            line = self.line();
            segments.push(name);
            self.at += 1;
            if self.tok(0) == Some(&Tok::PathSep) {
                self.at += 1;
            } else {
                break;
            }
        }
        let push = |out: &mut Parsed, segments: Vec<String>, line, kind| {
            out.refs.push(PathRef {
                scope: scope.to_vec(),
                segments,
                line,
                kind,
            });
        };
        if self.is_punct(0, '*') {
            let star = self.line();
            push(&mut self.out, segments, star, RefKind::Glob);
            self.at += 1;
        } else if self.is_punct(0, '{') {
            self.at += 1;
            while self.tok(0).is_some() && !self.is_punct(0, '}') {
                self.use_tree(&segments, public, scope);
                if self.is_punct(0, ',') {
                    self.at += 1;
                }
            }
            self.at += 1;
        } else if segments.len() > prefix.len() {
            let mut alias = segments.last().cloned();
            if self.is_ident(0, "as") {
                alias = match self.tok(1) {
                    Some(Tok::Ident(name)) if name != "_" => Some(name.clone()),
                    _ => None,
                };
                self.at += 2;
            }
            if segments.last().is_some_and(|s| s == "self") {
                segments.pop();
                if alias.as_deref() == Some("self") {
                    alias = segments.last().cloned();
                }
            }
            push(
                &mut self.out,
                segments,
                line,
                RefKind::Use { alias, public },
            );
        } else {
            // Not a use tree after all (a stray token): step over it.
            self.at += 1;
        }
    }

    /// At an identifier not after `::`: a path `a::b::c` in code, kept if it has two
    /// segments or more. Stops before `::<` and `::{`.
    fn code_path(&mut self) {
        let line = self.line();
        let mut segments = Vec::new();
        while let Some(Tok::Ident(name)) = self.tok(0).cloned() {
            segments.push(name);
            self.at += 1;
            if self.tok(0) == Some(&Tok::PathSep) && matches!(self.tok(1), Some(Tok::Ident(_))) {
                self.at += 1;
            } else {
                break;
            }
        }
        if segments.len() > 1 {
            let scope = self.scope();
            self.out.refs.push(PathRef {
                scope,
                segments,
                line,
                kind: RefKind::Code,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The refs of `src`, each written `line scope/path kind` with the kind as `use(alias)`,
    /// `pub use(alias)`, `glob` or `code`, and the scope only when there is one.
    fn check(src: &str, expected: &[&str]) {
        let written: Vec<String> = parse(src)
            .refs
            .iter()
            .map(|r| {
                let kind = match &r.kind {
                    RefKind::Use { alias, public } => {
                        let alias = alias.as_deref().unwrap_or("_");
                        format!("{}use({alias})", if *public { "pub " } else { "" })
                    }
                    RefKind::Glob => "glob".to_string(),
                    RefKind::Code => "code".to_string(),
                };
                let scope = if r.scope.is_empty() {
                    String::new()
                } else {
                    format!("{}/", r.scope.join("::"))
                };
                format!("{} {scope}{} {kind}", r.line, r.segments.join("::"))
            })
            .collect();
        assert_eq!(written, expected, "refs of {src:?}");
    }

    #[test]
    fn simple_and_aliased_uses() {
        check("use crate::a::B;", &["1 crate::a::B use(B)"]);
        check("use super::b as c;", &["1 super::b use(c)"]);
        check("use self::x::Trait as _;", &["1 self::x::Trait use(_)"]);
        check("pub(crate) use ::std::fmt;", &["1 std::fmt pub use(fmt)"]);
    }

    #[test]
    fn grouped_uses_give_one_leaf_each_on_its_line() {
        check(
            "use crate::a::{b, c::{d as e, self}, f::*};",
            &[
                "1 crate::a::b use(b)",
                "1 crate::a::c::d use(e)",
                "1 crate::a::c use(c)",
                "1 crate::a::f glob",
            ],
        );
        check(
            "use {\n  crate::x,\n  super::y::*,\n};",
            &["2 crate::x use(x)", "3 super::y glob"],
        );
        check(
            "pub use error::{\n    CompileError,\n    EvalError,\n};",
            &[
                "2 error::CompileError pub use(CompileError)",
                "3 error::EvalError pub use(EvalError)",
            ],
        );
    }

    #[test]
    fn paths_in_code() {
        check(
            "fn f() -> crate::a::B { super::g(x::y) }",
            &["1 crate::a::B code", "1 super::g code", "1 x::y code"],
        );
        check(
            "let v = Vec::<u8>::new(); x.f::<T>(); Value::Int(3)",
            &["1 Value::Int code"],
        );
        check("$crate::m::f!()", &["1 $crate::m::f code"]);
    }

    #[test]
    fn visibility_paths_and_precise_captures_are_not_imports() {
        check("pub(in crate::a) fn f() {}", &[]);
        check("fn f() -> impl Sized + use<'a> {}", &[]);
    }

    #[test]
    fn inline_modules_scope_their_paths() {
        check(
            "mod inner { use super::x; mod deeper { fn f() { self::g(); } } }\nuse y::z;",
            &[
                "1 inner/super::x use(x)",
                "1 inner::deeper/self::g code",
                "2 y::z use(z)",
            ],
        );
    }

    #[test]
    fn test_only_items_are_left_out() {
        let src = "use crate::kept;\n#[cfg(test)]\nmod tests { use crate::gone; }\n\
                   #[cfg(test)]\nuse crate::gone_too;\n#[cfg(test)]\nfn helper(x: [u8; 2]) -> u8 { crate::gone::f() }\n\
                   struct S { #[cfg(test)] a: crate::gone::A, b: crate::kept::B }\nuse crate::also_kept;";
        check(
            src,
            &[
                "1 crate::kept use(kept)",
                "8 crate::kept::B code",
                "9 crate::also_kept use(also_kept)",
            ],
        );
        assert_eq!(parse("#![cfg(test)]\nuse crate::x;"), Parsed::default());
    }

    #[test]
    fn module_declarations() {
        let parsed = parse(
            "mod a;\npub(crate) mod b;\n#[cfg(test)]\nmod tests;\n#[path = \"c_impl.rs\"]\nmod c;\nmod d { mod e; }",
        );
        let decls: Vec<(Vec<String>, String, Option<String>)> = parsed
            .mods
            .into_iter()
            .map(|m| (m.scope, m.name, m.path_attr))
            .collect();
        let s = |v: &str| v.to_string();
        assert_eq!(
            decls,
            vec![
                (vec![], s("a"), None),
                (vec![], s("b"), None),
                (vec![], s("c"), Some(s("c_impl.rs"))),
                (vec![s("d")], s("e"), None),
            ]
        );
        assert_eq!(parsed.inline_mods, vec![vec![s("d")]]);
    }
}

//! Stem templates: plain text with `str.format`-style `{expression[:spec]}` placeholders.

use super::ast::{FStringPart, Names, field_exprs};
use super::env::Env;
use super::error::{CompileError, EvalError};
use super::eval::Evaluator;
use super::parser_atoms::compile_pieces;
use super::placeholder::{ScanMode, scan};

/// A compiled stem template such as `"What is {operand_1} + {operand_2:,}?"`.
///
/// Literal braces are written `{{` and `}}`; backslashes are ordinary characters. Each
/// placeholder holds a full expression (same language as [`super::Program`]) and an optional
/// format spec.
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    source: String,
    parts: Vec<FStringPart>,
    names: Vec<String>,
}

impl Template {
    /// Compiles `text`; positions in errors are character offsets into `text`.
    pub fn compile(text: &str) -> Result<Template, CompileError> {
        let chars: Vec<char> = text.chars().collect();
        let (pieces, _) = scan(&chars, 0, 0, ScanMode::Template)?;
        let parts = compile_pieces(pieces, 0)?;
        let mut names = Names::default();
        for expr in field_exprs(&parts) {
            expr.collect_names(&mut names);
        }
        Ok(Template {
            source: text.to_owned(),
            parts,
            names: names.into_vec(),
        })
    }

    /// Renders the template against `env` (one step budget for all placeholders).
    pub fn render(&self, env: &Env) -> Result<String, EvalError> {
        let mut out = String::with_capacity(self.source.len() + 16);
        Evaluator::new(env).render_parts(&self.parts, &mut out, false)?;
        Ok(out)
    }

    /// The free variable names used by the placeholders, deduplicated, in first-seen order.
    pub fn names(&self) -> Vec<&str> {
        self.names.iter().map(String::as_str).collect()
    }

    /// The template text this was compiled from.
    pub fn source(&self) -> &str {
        &self.source
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::Value;

    fn env() -> Env {
        let mut env = Env::new();
        env.set("operand_1", Value::Int(12));
        env.set("operand_2", Value::Int(30));
        env.set("price", Value::Float(1234.5));
        env.set("ip", Value::from("192.168.1.130"));
        env.set("prefix", Value::Int(26));
        env.set(
            "options",
            Value::List(vec![Value::from("a"), Value::from("b")]),
        );
        env
    }

    fn check(text: &str, expected: &str) {
        let rendered = Template::compile(text)
            .map_err(|error| error.to_string())
            .and_then(|template| template.render(&env()).map_err(|error| error.to_string()));
        assert_eq!(rendered.as_deref(), Ok(expected), "{text}");
    }

    fn check_compile_error(text: &str, position: usize, fragment: &str) {
        match Template::compile(text) {
            Ok(template) => panic!("{text}: expected error, got {template:?}"),
            Err(error) => {
                assert_eq!(error.position, position, "{text}: {error}");
                assert!(error.message.contains(fragment), "{text}: {error}");
            }
        }
    }

    #[test]
    fn renders_placeholders() {
        check("What is {operand_1} + {operand_2}?", "What is 12 + 30?");
        check("Sum: {operand_1 + operand_2}", "Sum: 42");
        check("Price {price:,.2f} EUR", "Price 1,234.50 EUR");
        check("{price:>10}|", "    1234.5|");
        check(
            "Host {ip}/{prefix} has network {compute_network_address(ip, prefix)}",
            "Host 192.168.1.130/26 has network 192.168.1.128",
        );
        check("{{not a field}} {operand_1}", "{not a field} 12");
        check("Options: {options}", "Options: ['a', 'b']");
        check("{'yes' if operand_1 > 10 else 'no'}", "yes");
        check("Path C:\\temp\\{operand_1}", "Path C:\\temp\\12");
        check("{options[0]!= 'a'}", "False");
        check("No placeholders.", "No placeholders.");
        check("", "");
        check("{operand_1:05d}", "00012");
        check("multi\nline {operand_2}", "multi\nline 30");
    }

    #[test]
    fn names_are_collected() -> Result<(), CompileError> {
        let template = Template::compile("{b} {a + b} {cidr_to_mask(p)}")?;
        assert_eq!(template.names(), ["b", "a", "p"]);
        assert_eq!(template.source(), "{b} {a + b} {cidr_to_mask(p)}");
        Ok(())
    }

    #[test]
    fn compile_errors_have_template_positions() {
        check_compile_error("What is {operand_1 +}?", 20, "unexpected end of expression");
        check_compile_error("Total: {x.y}", 9, "attribute");
        check_compile_error("A {} B", 3, "empty expression");
        check_compile_error("A { } B", 3, "empty expression");
        check_compile_error("A {x", 2, "expected '}'");
        check_compile_error("A } B", 2, "single '}'");
        check_compile_error("{x:.2q}", 5, "invalid format spec");
        check_compile_error("{open('f')}", 1, "function 'open'");
        check_compile_error("{x!r}", 2, "conversions");
    }

    #[test]
    fn render_errors() {
        let template = Template::compile("Value: {missing}");
        let outcome = template
            .map_err(|e| e.to_string())
            .and_then(|t| t.render(&env()).map_err(|e| e.to_string()));
        assert_eq!(
            outcome,
            Err("name 'missing' is not defined (at column 8)".to_owned())
        );
        let template = Template::compile("{price:d}");
        let outcome = template
            .map_err(|e| e.to_string())
            .and_then(|t| t.render(&env()).map_err(|e| e.to_string()));
        assert!(outcome.is_err_and(|message| message.contains("Unknown format code 'd'")));
    }
}

//! Python format-spec mini-language (`{x:>8.2f}`, `{n:,}`, `{n:08b}`) for f-strings and templates.

use super::budget::Budget;
use super::error::{CompileError, EvalError};
use super::limits::MAX_STRING_CHARS;
use super::numfmt::{fixed, general, group_digits, integer_digits, magnitude_repr, scientific};
use super::value::Value;

/// A parsed spec: `[[fill]align][sign][#][0][width][,|_][.precision][type]`.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct FormatSpec {
    fill: Option<char>,
    align: Option<char>,
    sign: Option<char>,
    alternate: bool,
    zero: bool,
    width: usize,
    grouping: Option<char>,
    precision: Option<usize>,
    kind: Option<char>,
}

const ALIGNS: &str = "<>^=";
const KINDS: &str = "sdnboxXeEfFgG%";

impl FormatSpec {
    /// Parses `spec`, whose first character sits at `position` in the source.
    pub(crate) fn parse(spec: &str, position: usize) -> Result<FormatSpec, CompileError> {
        let chars: Vec<char> = spec.chars().collect();
        let at = |index: usize| chars.get(index).copied();
        let mut parsed = FormatSpec::default();
        let mut index = 0;
        if let (Some(fill), Some(align)) = (at(0), at(1))
            && ALIGNS.contains(align)
        {
            (parsed.fill, parsed.align, index) = (Some(fill), Some(align), 2);
        } else if let Some(align) = at(0).filter(|c| ALIGNS.contains(*c)) {
            (parsed.align, index) = (Some(align), 1);
        }
        if let Some(sign) = at(index).filter(|c| "+- ".contains(*c)) {
            (parsed.sign, index) = (Some(sign), index + 1);
        }
        if at(index) == Some('#') {
            (parsed.alternate, index) = (true, index + 1);
        }
        if at(index) == Some('0') {
            (parsed.zero, index) = (true, index + 1);
        }
        parsed.width = read_count(&chars, &mut index, position)?.unwrap_or(0);
        if let Some(grouping) = at(index).filter(|c| *c == ',' || *c == '_') {
            (parsed.grouping, index) = (Some(grouping), index + 1);
        }
        if at(index) == Some('.') {
            index += 1;
            parsed.precision = read_count(&chars, &mut index, position)?;
            if parsed.precision.is_none() {
                return Err(CompileError::new(
                    position + index,
                    "format spec missing precision",
                ));
            }
        }
        if let Some(kind) = at(index).filter(|c| KINDS.contains(*c)) {
            (parsed.kind, index) = (Some(kind), index + 1);
        }
        if index != chars.len() {
            let message = format!("invalid format spec '{spec}'");
            return Err(CompileError::new(position + index, message));
        }
        Ok(parsed)
    }

    fn is_empty(&self) -> bool {
        *self == FormatSpec::default()
    }

    fn fill(&self) -> char {
        self.fill.or(self.zero.then_some('0')).unwrap_or(' ')
    }

    /// Charges, before formatting `value` with this spec, for rendering it, for padding it to
    /// the width, and for the exact digits a float presentation writes.
    pub(crate) fn charge(&self, value: &Value, budget: &mut Budget) -> Result<(), EvalError> {
        budget.charge_render(value)?;
        budget.charge_chars(self.width)?;
        match self.float_digits(value) {
            0 => Ok(()),
            digits => budget.charge_digits(digits),
        }
    }

    /// How many digits formatting `value` as a float with this spec computes (0: not a float
    /// presentation, or the shortest repr, which is at most 17 digits).
    fn float_digits(&self, value: &Value) -> usize {
        let float_kind = self.kind.is_some_and(|kind| "eEfFgG%".contains(kind));
        let magnitude = match value {
            Value::Float(float) => float.abs(),
            Value::Int(_) | Value::Bool(_) if float_kind => value.as_f64().unwrap_or(0.0).abs(),
            _ => return 0,
        };
        let precision = self.precision.unwrap_or(6);
        match self.kind {
            None if self.precision.is_none() => 0,
            Some('f' | 'F') => integer_digits(magnitude) + precision,
            Some('%') => integer_digits(magnitude * 100.0) + precision,
            Some('e' | 'E') => precision + 1,
            // `g`, `n` or a bare precision: a probe in `e`, then `e` or `f` with the precision.
            _ => 2 * precision + 5,
        }
    }
}

/// Reads a decimal count (width or precision), capped at [`MAX_STRING_CHARS`].
fn read_count(
    chars: &[char],
    index: &mut usize,
    position: usize,
) -> Result<Option<usize>, CompileError> {
    let start = *index;
    let mut count: Option<usize> = None;
    while let Some(digit) = chars.get(*index).and_then(|c| c.to_digit(10)) {
        let next = count
            .unwrap_or(0)
            .saturating_mul(10)
            .saturating_add(digit as usize);
        if next > MAX_STRING_CHARS {
            let message = format!("format width or precision too large (limit {MAX_STRING_CHARS})");
            return Err(CompileError::new(position + start, message));
        }
        count = Some(next);
        *index += 1;
    }
    Ok(count)
}

/// Python `format(value, spec)`.
pub(crate) fn format_value(value: &Value, spec: &FormatSpec) -> Result<String, EvalError> {
    if spec.is_empty() {
        return Ok(value.to_display_string());
    }
    match value {
        Value::Str(text) => format_str(text, spec),
        Value::Int(int) => format_int(*int, spec),
        Value::Bool(flag) => format_int(i64::from(*flag), spec),
        Value::Float(float) => format_float(*float, spec),
        Value::List(_) => Err(EvalError::new(
            "unsupported format string passed to list.__format__",
        )),
    }
}

fn unknown_code(kind: char, type_name: &str) -> EvalError {
    EvalError::new(format!(
        "Unknown format code '{kind}' for object of type '{type_name}'"
    ))
}

fn format_str(text: &str, spec: &FormatSpec) -> Result<String, EvalError> {
    if let Some(kind) = spec.kind.filter(|kind| *kind != 's') {
        return Err(unknown_code(kind, "str"));
    }
    let problem = if spec.sign.is_some() {
        Some("Sign not allowed in string format specifier".to_owned())
    } else if spec.alternate {
        Some("Alternate form (#) not allowed in string format specifier".to_owned())
    } else if spec.align == Some('=') {
        Some("'=' alignment not allowed in string format specifier".to_owned())
    } else {
        spec.grouping
            .map(|grouping| format!("Cannot specify '{grouping}' with 's'."))
    };
    if let Some(message) = problem {
        return Err(EvalError::new(message));
    }
    let shown: String = match spec.precision {
        Some(precision) => text.chars().take(precision).collect(),
        None => text.to_owned(),
    };
    Ok(pad(
        &shown,
        spec.width,
        spec.fill(),
        spec.align.unwrap_or('<'),
    ))
}

fn format_int(int: i64, spec: &FormatSpec) -> Result<String, EvalError> {
    let magnitude = int.unsigned_abs();
    let (digits, prefix, group_size) = match spec.kind {
        None | Some('d' | 'n') => (magnitude.to_string(), "", 3),
        Some('b') => (format!("{magnitude:b}"), "0b", 4),
        Some('o') => (format!("{magnitude:o}"), "0o", 4),
        Some('x') => (format!("{magnitude:x}"), "0x", 4),
        Some('X') => (format!("{magnitude:X}"), "0X", 4),
        Some('e' | 'E' | 'f' | 'F' | 'g' | 'G' | '%') => return format_float(int as f64, spec),
        Some(kind) => return Err(unknown_code(kind, "int")),
    };
    if spec.precision.is_some() {
        return Err(EvalError::new(
            "Precision not allowed in integer format specifier",
        ));
    }
    if let (Some(','), Some(kind)) = (spec.grouping, spec.kind.filter(|k| "boxX".contains(*k))) {
        return Err(EvalError::new(format!("Cannot specify ',' with '{kind}'.")));
    }
    let prefix = if spec.alternate { prefix } else { "" };
    let grouping = spec.grouping.map(|separator| (separator, group_size));
    let number = NumberParts {
        negative: int < 0,
        prefix,
        integer_digits: digits,
        rest: String::new(),
        grouping,
    };
    Ok(number.render(spec))
}

fn format_float(float: f64, spec: &FormatSpec) -> Result<String, EvalError> {
    let magnitude = float.abs();
    let precision = spec.precision.unwrap_or(6);
    let alternate = spec.alternate;
    let mut body = match spec.kind {
        _ if float.is_nan() => "nan".to_owned(),
        _ if float.is_infinite() => "inf".to_owned(),
        None => match spec.precision {
            None => magnitude_repr(magnitude),
            Some(precision) => general(magnitude, precision, alternate, true),
        },
        Some('f' | 'F') => fixed(magnitude, precision, alternate),
        Some('e' | 'E') => scientific(magnitude, precision, alternate),
        Some('g' | 'G' | 'n') => general(magnitude, precision, alternate, false),
        Some('%') => fixed(magnitude * 100.0, precision, alternate),
        Some(kind) => return Err(unknown_code(kind, "float")),
    };
    if spec.kind == Some('%') {
        body.push('%');
    }
    if spec.kind.is_some_and(|kind| kind.is_ascii_uppercase()) {
        body = body.to_uppercase();
    }
    let digits_end = body
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(body.len());
    let (integer_digits, rest) = body.split_at(digits_end);
    let number = NumberParts {
        negative: float.is_sign_negative() && !float.is_nan(),
        prefix: "",
        integer_digits: integer_digits.to_owned(),
        rest: rest.to_owned(),
        grouping: spec.grouping.map(|separator| (separator, 3)),
    };
    Ok(number.render(spec))
}

/// A formatted number split so that sign, prefix, grouping and padding can be applied.
struct NumberParts {
    negative: bool,
    prefix: &'static str,
    integer_digits: String,
    rest: String,
    grouping: Option<(char, usize)>,
}

impl NumberParts {
    fn render(mut self, spec: &FormatSpec) -> String {
        let sign = match (self.negative, spec.sign) {
            (true, _) => "-",
            (false, Some('+')) => "+",
            (false, Some(' ')) => " ",
            _ => "",
        };
        let fill = spec.fill();
        let align = spec.align.unwrap_or(if spec.zero { '=' } else { '>' });
        if let (Some((_, group_size)), '=', '0') = (self.grouping, align, fill) {
            self.zero_pad_grouped(spec.width, sign.len() + self.prefix.len(), group_size);
        }
        let digits = match self.grouping {
            Some((separator, size)) => group_digits(&self.integer_digits, separator, size),
            None => self.integer_digits,
        };
        let number = format!("{digits}{}", self.rest);
        if align == '=' {
            let used = sign.len() + self.prefix.len() + number.chars().count();
            let padding = fill.to_string().repeat(spec.width.saturating_sub(used));
            return format!("{sign}{}{padding}{number}", self.prefix);
        }
        pad(
            &format!("{sign}{}{number}", self.prefix),
            spec.width,
            fill,
            align,
        )
    }

    /// Adds leading zeros to the integer digits so that, once grouped, the number fills `width`
    /// (Python groups the zero padding too: `format(1234, '010,') == '00,001,234'`).
    fn zero_pad_grouped(&mut self, width: usize, fixed_len: usize, group_size: usize) {
        if self.integer_digits.is_empty() {
            return;
        }
        let target = width.saturating_sub(fixed_len + self.rest.chars().count());
        let count = digits_to_fill(self.integer_digits.len(), target, group_size);
        let zeros = "0".repeat(count - self.integer_digits.len());
        self.integer_digits.insert_str(0, &zeros);
    }
}

/// The fewest digits, at least `len`, that take `target` characters or more once grouped by
/// `group` (`count + (count - 1) / group`), computed directly.
fn digits_to_fill(len: usize, target: usize, group: usize) -> usize {
    let group = group.max(1);
    let Some(last) = target.checked_sub(1) else {
        return len;
    };
    // `count - 1 = q * group + r` with `r < group` takes `q * (group + 1) + r + 1` characters.
    let (q, r) = (last / (group + 1), last % (group + 1));
    let needed = if r < group {
        q * group + r + 1
    } else {
        (q + 1) * group + 1
    };
    needed.max(len)
}

/// Pads `text` to `width` characters with `fill`, aligned left (`<`), right (`>`) or centered (`^`).
fn pad(text: &str, width: usize, fill: char, align: char) -> String {
    let padding = width.saturating_sub(text.chars().count());
    let (left, right) = match align {
        '<' => (0, padding),
        '^' => (padding / 2, padding - padding / 2),
        _ => (padding, 0),
    };
    let fill = fill.to_string();
    format!("{}{text}{}", fill.repeat(left), fill.repeat(right))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(value: &Value, spec: &str) -> Result<String, String> {
        let parsed = FormatSpec::parse(spec, 0).map_err(|error| error.to_string())?;
        format_value(value, &parsed).map_err(|error| error.to_string())
    }

    fn check(value: Value, spec: &str, expected: &str) {
        assert_eq!(
            apply(&value, spec),
            Ok(expected.to_owned()),
            "{value:?} with {spec:?}"
        );
    }

    fn check_error(value: Value, spec: &str, fragment: &str) {
        match apply(&value, spec) {
            Ok(text) => panic!("{value:?} {spec:?}: expected error, got {text:?}"),
            Err(message) => assert!(message.contains(fragment), "{spec:?}: {message}"),
        }
    }

    #[test]
    fn floats() {
        check(Value::Float(1.23456), ".2f", "1.23");
        check(Value::Float(2.675), ".2f", "2.67");
        check(Value::Float(-1.5), ".0f", "-2");
        check(Value::Float(0.5), ".0f", "0");
        check(Value::Float(1234567.891), ",.2f", "1,234,567.89");
        check(Value::Float(1234.5), ",", "1,234.5");
        check(Value::Float(0.25), ".1%", "25.0%");
        check(Value::Float(12345.678), ".3e", "1.235e+04");
        check(Value::Float(12345.678), "E", "1.234568E+04");
        check(Value::Float(0.0001234), "g", "0.0001234");
        check(Value::Float(123.0), ".3", "1.23e+02");
        check(Value::Float(2.5), "", "2.5");
        check(Value::Float(2.5), "8.3f", "   2.500");
        check(Value::Float(-2.5), "08.2f", "-0002.50");
        check(Value::Float(2.5), "+.1f", "+2.5");
        check(Value::Float(f64::INFINITY), "F", "INF");
        check(Value::Float(f64::NAN), ".2f", "nan");
        check(Value::Float(-0.0), ".1f", "-0.0");
    }

    #[test]
    fn integers() {
        check(Value::Int(42), "d", "42");
        check(Value::Int(1234567), ",", "1,234,567");
        check(Value::Int(-1234567), "_d", "-1_234_567");
        check(Value::Int(42), "5d", "   42");
        check(Value::Int(42), "<5", "42   ");
        check(Value::Int(42), "^6", "  42  ");
        check(Value::Int(42), "*^7", "**42***");
        check(Value::Int(-42), "06d", "-00042");
        check(Value::Int(-42), "=+6", "-   42");
        check(Value::Int(1234), "010,", "00,001,234");
        check(Value::Int(255), "08b", "11111111");
        check(Value::Int(192), "#010b", "0b11000000");
        check(Value::Int(255), "x", "ff");
        check(Value::Int(255), "#X", "0XFF");
        check(Value::Int(255), "o", "377");
        check(Value::Int(65535), "_b", "1111_1111_1111_1111");
        check(Value::Int(3), ".2f", "3.00");
        check(Value::Int(1), "%", "100.000000%");
        check(Value::Int(7), " d", " 7");
        check(Value::Bool(true), "", "True");
        check(Value::Bool(true), "d", "1");
        check(Value::Bool(true), ">3", "  1");
    }

    #[test]
    fn strings_and_lists() {
        check(Value::from("ab"), "5", "ab   ");
        check(Value::from("ab"), ">5", "   ab");
        check(Value::from("abcdef"), ".3", "abc");
        check(Value::from("ab"), "05", "ab000");
        check(Value::from("ab"), "s", "ab");
        check(Value::List(vec![Value::Int(1)]), "", "[1]");
    }

    #[test]
    fn format_errors() {
        check_error(
            Value::Float(1.5),
            "d",
            "Unknown format code 'd' for object of type 'float'",
        );
        check_error(Value::from("a"), "d", "Unknown format code 'd'");
        check_error(Value::from("a"), "+", "Sign not allowed");
        check_error(Value::from("a"), "=5", "'=' alignment");
        check_error(Value::from("a"), ",", "Cannot specify ','");
        check_error(Value::Int(5), ".2d", "Precision not allowed");
        check_error(Value::Int(5), ",x", "Cannot specify ',' with 'x'");
        check_error(Value::Int(5), "s", "Unknown format code 's'");
        check_error(Value::List(vec![]), "5", "list.__format__");
        check_error(Value::Int(5), ".", "missing precision");
        check_error(Value::Int(5), "q", "invalid format spec");
        check_error(Value::Int(5), "5000", "too large");
        check_error(Value::Int(5), "d d", "invalid format spec");
    }

    #[test]
    fn zero_padding_fills_the_width_once_grouped() {
        let grouped_len = |count: usize, group: usize| count + (count - 1) / group;
        for group in [3, 4] {
            for len in 1..12 {
                for target in 0..200 {
                    let mut naive = len;
                    while grouped_len(naive, group) < target {
                        naive += 1;
                    }
                    assert_eq!(digits_to_fill(len, target, group), naive, "{len} {target}");
                }
            }
        }
    }

    #[test]
    fn parse_positions() {
        let error = FormatSpec::parse(".2fz", 10).map_err(|error| error.position);
        assert_eq!(error, Err(13));
    }
}

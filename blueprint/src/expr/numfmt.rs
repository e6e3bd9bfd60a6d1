//! Float-to-text conversions matching Python's `repr` and the `e`, `f` and `g` presentation types.

/// Python `repr(float)`: shortest round-trip digits, fixed notation for exponents in `-4..16`.
pub(crate) fn float_repr(value: f64) -> String {
    if value.is_nan() {
        return "nan".to_owned();
    }
    let sign = if value.is_sign_negative() { "-" } else { "" };
    format!("{sign}{}", magnitude_repr(value.abs()))
}

/// Python `repr` of a non-negative float (`inf` for infinity).
pub(crate) fn magnitude_repr(magnitude: f64) -> String {
    if magnitude.is_infinite() {
        return "inf".to_owned();
    }
    if magnitude == 0.0 {
        return "0.0".to_owned();
    }
    let (digits, exponent) = split_scientific(&format!("{magnitude:e}"));
    if (-4..16).contains(&exponent) {
        fixed_from_digits(&digits, exponent)
    } else {
        scientific_from_digits(&digits, exponent)
    }
}

/// Splits Rust's `{:e}` output (`"1.25e-3"`) into its digits (`"125"`) and exponent (`-3`).
fn split_scientific(text: &str) -> (String, i32) {
    let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
    let digits = mantissa.chars().filter(char::is_ascii_digit).collect();
    (digits, exponent.parse().unwrap_or(0))
}

/// Renders `d.ddd × 10^exponent` in fixed notation, always with a fractional part.
fn fixed_from_digits(digits: &str, exponent: i32) -> String {
    if exponent < 0 {
        let zeros = "0".repeat(exponent.unsigned_abs() as usize - 1);
        return format!("0.{zeros}{digits}");
    }
    let integer_len = exponent.unsigned_abs() as usize + 1;
    match digits.split_at_checked(integer_len) {
        Some((integer, fraction)) if !fraction.is_empty() => format!("{integer}.{fraction}"),
        _ => format!(
            "{digits}{}.0",
            "0".repeat(integer_len.saturating_sub(digits.len()))
        ),
    }
}

/// Renders `d.ddd × 10^exponent` as Python does in scientific notation (`1.5e+20`).
fn scientific_from_digits(digits: &str, exponent: i32) -> String {
    let mantissa = match digits.split_at_checked(1) {
        Some((first, rest)) if !rest.is_empty() => format!("{first}.{rest}"),
        _ => digits.to_owned(),
    };
    format!("{mantissa}e{}", exponent_suffix(exponent))
}

/// Python's exponent suffix: explicit sign and at least two digits (`+05`, `-12`, `+308`).
fn exponent_suffix(exponent: i32) -> String {
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{sign}{:02}", exponent.unsigned_abs())
}

/// The `f` presentation of a non-negative finite float, correctly rounded (ties to even).
pub(crate) fn fixed(magnitude: f64, precision: usize, alternate: bool) -> String {
    let mut text = format!("{magnitude:.precision$}");
    if alternate && precision == 0 {
        text.push('.');
    }
    text
}

/// The `e` presentation of a non-negative finite float (`1.50e+03`).
pub(crate) fn scientific(magnitude: f64, precision: usize, alternate: bool) -> String {
    let text = format!("{magnitude:.precision$e}");
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let dot = if alternate && precision == 0 { "." } else { "" };
    format!(
        "{mantissa}{dot}e{}",
        exponent_suffix(exponent.parse().unwrap_or(0))
    )
}

/// The `g` presentation of a non-negative finite float. With `repr_style` it behaves like a
/// format spec without a type but with a precision (scientific from exponent `precision - 1`,
/// and at least one fractional digit in fixed notation).
pub(crate) fn general(
    magnitude: f64,
    precision: usize,
    alternate: bool,
    repr_style: bool,
) -> String {
    let precision = precision.max(1);
    let probe = format!("{magnitude:.prec$e}", prec = precision - 1);
    let (_, exponent) = split_scientific(&probe);
    let significant = i32::try_from(precision).unwrap_or(i32::MAX);
    let threshold = if repr_style {
        significant - 1
    } else {
        significant
    };
    let mut text = if (-4..threshold).contains(&exponent) {
        let decimals = usize::try_from(significant - 1 - exponent).unwrap_or(0);
        fixed(magnitude, decimals, alternate)
    } else {
        scientific(magnitude, precision - 1, alternate)
    };
    if !alternate {
        text = strip_trailing_zeros(&text);
    }
    if repr_style && !text.contains(['.', 'e']) {
        text.push_str(".0");
    }
    text
}

/// Digits before the decimal point when `magnitude` (non-negative) is written in fixed
/// notation: 1 below 10 (and for infinity and NaN, written as words), up to 309.
pub(crate) fn integer_digits(magnitude: f64) -> usize {
    if !magnitude.is_finite() || magnitude < 10.0 {
        return 1;
    }
    // `log10` of a finite f64 is below 309, so the conversion cannot overflow.
    magnitude.log10().floor() as usize + 1
}

/// Removes trailing fractional zeros (and a bare trailing point) from the mantissa.
fn strip_trailing_zeros(text: &str) -> String {
    let (mantissa, exponent) = match text.find('e') {
        Some(index) => text.split_at(index),
        None => (text, ""),
    };
    if !mantissa.contains('.') {
        return text.to_owned();
    }
    let trimmed = mantissa.trim_end_matches('0').trim_end_matches('.');
    format!("{trimmed}{exponent}")
}

/// Inserts `separator` between groups of `group` digits counted from the right.
pub(crate) fn group_digits(digits: &str, separator: char, group: usize) -> String {
    let count = digits.chars().count();
    let mut out = String::with_capacity(digits.len() + count / group.max(1));
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (count - index).is_multiple_of(group.max(1)) {
            out.push(separator);
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(actual: String, expected: &str) {
        assert_eq!(actual, expected);
    }

    #[test]
    fn integer_digits_of_magnitudes() {
        let cases = [
            (0.0, 1),
            (9.99, 1),
            (10.0, 2),
            (12345.6, 5),
            (1e15, 16),
            (f64::MAX, 309),
            (f64::INFINITY, 1),
            (f64::NAN, 1),
        ];
        for (magnitude, expected) in cases {
            assert_eq!(integer_digits(magnitude), expected, "{magnitude}");
        }
    }

    #[test]
    fn repr_matches_python() {
        let cases = [
            (2.5, "2.5"),
            (3.0, "3.0"),
            (-0.0, "-0.0"),
            (0.1, "0.1"),
            (1e20, "1e+20"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (123456789.125, "123456789.125"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.5e-7, "1.5e-07"),
            (-2.75, "-2.75"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (5e-324, "5e-324"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
            (0.1 + 0.2, "0.30000000000000004"),
        ];
        for (value, expected) in cases {
            check(float_repr(value), expected);
        }
    }

    #[test]
    fn fixed_and_scientific() {
        check(fixed(2.675, 2, false), "2.67");
        check(fixed(0.125, 2, false), "0.12");
        check(fixed(2.5, 0, false), "2");
        check(fixed(2.5, 0, true), "2.");
        check(fixed(1234.5, 3, false), "1234.500");
        check(scientific(1234.5, 2, false), "1.23e+03");
        check(scientific(0.000123, 1, false), "1.2e-04");
        check(scientific(1e300, 0, false), "1e+300");
        check(scientific(2.0, 0, true), "2.e+00");
        check(scientific(0.0, 2, false), "0.00e+00");
    }

    #[test]
    fn general_matches_python() {
        check(general(1234.5, 6, false, false), "1234.5");
        check(general(1234567.0, 6, false, false), "1.23457e+06");
        check(general(0.0001, 6, false, false), "0.0001");
        check(general(0.00001, 6, false, false), "1e-05");
        check(general(100.0, 3, false, false), "100");
        check(general(1000.0, 3, false, false), "1e+03");
        check(general(1.0, 6, true, false), "1.00000");
        check(general(0.0, 6, false, false), "0");
        check(general(123.0, 3, false, true), "1.23e+02");
        check(general(12.0, 3, false, true), "12.0");
        check(general(1.0, 1, false, true), "1e+00");
        check(general(2.5, 0, false, false), "2");
    }

    #[test]
    fn digit_grouping() {
        check(group_digits("1234567", ',', 3), "1,234,567");
        check(group_digits("123", ',', 3), "123");
        check(group_digits("1234", ',', 3), "1,234");
        check(group_digits("11111111", '_', 4), "1111_1111");
        check(group_digits("", ',', 3), "");
    }
}

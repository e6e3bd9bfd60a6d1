//! IPv4 arguments and results of the networking functions: dotted quads, prefix lengths,
//! netmasks.

use super::error::EvalError;
use super::value::Value;

/// The netmask of a prefix length (`24` → `255.255.255.0`).
pub(crate) fn mask(prefix: u32) -> u32 {
    u32::MAX.checked_shl(32 - prefix).unwrap_or(0)
}

/// Validates a prefix length argument (`0..=32`).
pub(crate) fn prefix(value: &Value) -> Result<u32, EvalError> {
    let Some(prefix) = value.as_i64() else {
        return Err(EvalError::new(format!(
            "prefix must be an int, not {}",
            value.type_name()
        )));
    };
    u32::try_from(prefix)
        .ok()
        .filter(|prefix| *prefix <= 32)
        .ok_or_else(|| EvalError::new(format!("prefix {prefix} is out of range 0..=32")))
}

/// Parses a dotted-quad IPv4 address (four decimal octets, no leading zeros).
pub(crate) fn parse_ipv4(value: &Value) -> Result<u32, EvalError> {
    let Value::Str(text) = value else {
        return Err(EvalError::new(format!(
            "IPv4 address must be a str, not {}",
            value.type_name()
        )));
    };
    let invalid = || EvalError::new(format!("'{text}' is not a valid IPv4 address"));
    let mut address: u32 = 0;
    let mut count = 0;
    for octet in text.split('.') {
        let well_formed = (1..=3).contains(&octet.len())
            && octet.bytes().all(|byte| byte.is_ascii_digit())
            && !(octet.len() > 1 && octet.starts_with('0'));
        let value = octet
            .parse::<u8>()
            .ok()
            .filter(|_| well_formed)
            .ok_or_else(invalid)?;
        address = (address << 8) | u32::from(value);
        count += 1;
        if count > 4 {
            return Err(invalid());
        }
    }
    if count != 4 {
        return Err(invalid());
    }
    Ok(address)
}

/// Formats an address as a dotted quad.
pub(crate) fn format_ipv4(address: u32) -> String {
    let [a, b, c, d] = address.to_be_bytes();
    format!("{a}.{b}.{c}.{d}")
}

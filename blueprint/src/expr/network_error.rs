//! `network_with_error`: a network address with a modelled mistake, for distractors.

use std::borrow::Cow;

use super::error::EvalError;
use super::ipv4::{mask, parse_ipv4, prefix};
use super::value::Value;

/// A network address with a modelled mistake: `(address, prefix, delta)` computes it with
/// the wrong prefix `prefix + delta`; `(address, mode)` changes one octet (see [`OctetError`]).
pub(crate) fn network_with_error(args: &[Cow<'_, Value>]) -> Result<u32, EvalError> {
    match args {
        [address, length, delta] => wrong_prefix(parse_ipv4(address)?, prefix(length)?, delta),
        [
            address,
            Cow::Borrowed(Value::Str(mode)) | Cow::Owned(Value::Str(mode)),
        ] => {
            let error = OctetError::parse(mode).map_err(EvalError::new)?;
            Ok(error.apply(parse_ipv4(address)?))
        }
        [_, mode] => Err(EvalError::new(format!(
            "error mode must be a str, not {}",
            mode.type_name()
        ))),
        _ => Err(EvalError::new(
            "expected an address, a prefix and a delta, or an address and an error mode",
        )),
    }
}

/// A mistake in one octet, written `increment_octet_N` or `decrement_octet_N` with `N` from
/// 1 (the leftmost) to 4: that octet is one more or one less, wrapping within `0..=255`, so no
/// other octet changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OctetError {
    increment: bool,
    index: usize,
}

impl OctetError {
    /// Parses a mode such as `increment_octet_3`.
    pub(crate) fn parse(mode: &str) -> Result<OctetError, String> {
        let unknown = || {
            format!(
                "unknown error mode '{mode}' (expected increment_octet_N or \
                 decrement_octet_N, N from 1 to 4)"
            )
        };
        let (direction, number) = mode.split_once("_octet_").ok_or_else(unknown)?;
        let increment = match direction {
            "increment" => true,
            "decrement" => false,
            _ => return Err(unknown()),
        };
        let index = match number {
            "1" => 0,
            "2" => 1,
            "3" => 2,
            "4" => 3,
            _ => return Err(unknown()),
        };
        Ok(OctetError { increment, index })
    }

    fn apply(self, address: u32) -> u32 {
        let mut octets = address.to_be_bytes();
        if let Some(octet) = octets.get_mut(self.index) {
            *octet = if self.increment {
                octet.wrapping_add(1)
            } else {
                octet.wrapping_sub(1)
            };
        }
        u32::from_be_bytes(octets)
    }
}

/// The network address computed with a wrong prefix `prefix + delta`, clamped to `0..=32`.
fn wrong_prefix(address: u32, prefix: u32, delta: &Value) -> Result<u32, EvalError> {
    let delta = delta.as_i64().ok_or_else(|| {
        EvalError::new(format!("delta must be an int, not {}", delta.type_name()))
    })?;
    let wrong = i64::from(prefix).saturating_add(delta).clamp(0, 32);
    let wrong = u32::try_from(wrong).unwrap_or(32);
    Ok(address & mask(wrong))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::ipv4::format_ipv4;
    use Value::Int;

    fn text(value: &str) -> Value {
        Value::from(value)
    }

    fn check(args: Vec<Value>, expected: Result<&str, &str>) {
        let owned: Vec<Cow<'_, Value>> = args.into_iter().map(Cow::Owned).collect();
        let actual = network_with_error(&owned).map(format_ipv4);
        match (actual, expected) {
            (Ok(actual), Ok(expected)) => assert_eq!(actual, expected, "{owned:?}"),
            (Err(error), Err(fragment)) => assert!(error.message.contains(fragment), "{error}"),
            (actual, expected) => panic!("{owned:?}: {actual:?} vs {expected:?}"),
        }
    }

    #[test]
    fn wrong_prefix_networks() {
        let ip = || text("192.168.1.130");
        check(vec![ip(), Int(26), Int(0)], Ok("192.168.1.128"));
        check(vec![ip(), Int(26), Int(-2)], Ok("192.168.1.0"));
        check(vec![ip(), Int(26), Int(1)], Ok("192.168.1.128"));
        check(vec![ip(), Int(26), Int(100)], Ok("192.168.1.130"));
        check(vec![ip(), Int(2), Int(-5)], Ok("0.0.0.0"));
        check(vec![ip(), Int(26), text("1")], Err("delta must be an int"));
    }

    #[test]
    fn one_octet_off() {
        let network = || text("10.20.255.0");
        check(vec![network(), text("increment_octet_3")], Ok("10.20.0.0"));
        check(
            vec![network(), text("decrement_octet_3")],
            Ok("10.20.254.0"),
        );
        check(
            vec![network(), text("increment_octet_1")],
            Ok("11.20.255.0"),
        );
        check(
            vec![network(), text("decrement_octet_4")],
            Ok("10.20.255.255"),
        );
        check(
            vec![network(), text("increment_octet_2")],
            Ok("10.21.255.0"),
        );
        for unknown in [
            "increment_octet_5",
            "increment_octet_0",
            "double_octet_1",
            "",
            "increment",
        ] {
            check(vec![network(), text(unknown)], Err("unknown error mode"));
        }
        check(
            vec![network(), Int(1)],
            Err("error mode must be a str, not int"),
        );
        check(
            vec![text("10.20.300.0"), text("increment_octet_3")],
            Err("not a valid IPv4"),
        );
    }
}

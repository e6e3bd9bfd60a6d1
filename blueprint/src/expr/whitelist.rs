//! The whitelist of callable functions, the argument counts each accepts, and reading an
//! argument of a call.

use std::borrow::Cow;

use super::error::EvalError;
use super::value::Value;

/// A whitelisted function. Calls of any other name are rejected at compile time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Builtin {
    Abs,
    Min,
    Max,
    Round,
    Int,
    Float,
    Str,
    Len,
    Sum,
    Sqrt,
    Floor,
    Ceil,
    SinDeg,
    CosDeg,
    TanDeg,
    AsinDeg,
    AtanDeg,
    CidrToMask,
    MaskToCidr,
    NetworkAddress,
    BroadcastAddress,
    FirstHost,
    LastHost,
    HostCount,
    NetworkWithError,
    IpToInt,
    IntToIp,
}

/// The argument counts a function accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arity {
    /// Exactly this many.
    Exactly(usize),
    /// From the first to the second count.
    Between(usize, usize),
    /// At least this many.
    AtLeast(usize),
    /// Either count: the two forms of a function (an address and a prefix, or four octets
    /// and a prefix).
    Either(usize, usize),
}

impl Arity {
    fn accepts(self, given: usize) -> bool {
        match self {
            Arity::Exactly(count) => given == count,
            Arity::Between(min, max) => (min..=max).contains(&given),
            Arity::AtLeast(min) => given >= min,
            Arity::Either(one, other) => given == one || given == other,
        }
    }

    fn describe(self) -> String {
        match self {
            Arity::Exactly(count) => format!("exactly {count}"),
            Arity::Between(min, max) => format!("{min} to {max}"),
            Arity::AtLeast(min) => format!("at least {min}"),
            Arity::Either(one, other) => format!("{one} or {other}"),
        }
    }
}

/// Name, function and accepted argument counts.
const BUILTINS: [(&str, Builtin, Arity); 27] = [
    ("abs", Builtin::Abs, Arity::Exactly(1)),
    ("min", Builtin::Min, Arity::AtLeast(1)),
    ("max", Builtin::Max, Arity::AtLeast(1)),
    ("round", Builtin::Round, Arity::Between(1, 2)),
    ("int", Builtin::Int, Arity::Exactly(1)),
    ("float", Builtin::Float, Arity::Exactly(1)),
    ("str", Builtin::Str, Arity::Exactly(1)),
    ("len", Builtin::Len, Arity::Exactly(1)),
    ("sum", Builtin::Sum, Arity::Exactly(1)),
    ("sqrt", Builtin::Sqrt, Arity::Exactly(1)),
    ("floor", Builtin::Floor, Arity::Exactly(1)),
    ("ceil", Builtin::Ceil, Arity::Exactly(1)),
    ("sin_deg", Builtin::SinDeg, Arity::Exactly(1)),
    ("cos_deg", Builtin::CosDeg, Arity::Exactly(1)),
    ("tan_deg", Builtin::TanDeg, Arity::Exactly(1)),
    ("asin_deg", Builtin::AsinDeg, Arity::Exactly(1)),
    ("atan_deg", Builtin::AtanDeg, Arity::Exactly(1)),
    ("cidr_to_mask", Builtin::CidrToMask, Arity::Exactly(1)),
    ("mask_to_cidr", Builtin::MaskToCidr, Arity::Exactly(1)),
    (
        "compute_network_address",
        Builtin::NetworkAddress,
        Arity::Either(2, 5),
    ),
    (
        "compute_broadcast_address",
        Builtin::BroadcastAddress,
        Arity::Either(2, 5),
    ),
    (
        "compute_first_host",
        Builtin::FirstHost,
        Arity::Either(2, 5),
    ),
    ("compute_last_host", Builtin::LastHost, Arity::Either(2, 5)),
    ("host_count", Builtin::HostCount, Arity::Exactly(1)),
    (
        "network_with_error",
        Builtin::NetworkWithError,
        Arity::Between(2, 3),
    ),
    ("ip_to_int", Builtin::IpToInt, Arity::Exactly(1)),
    ("int_to_ip", Builtin::IntToIp, Arity::Exactly(1)),
];

impl Builtin {
    /// Looks up a whitelisted function by name.
    pub(crate) fn from_name(name: &str) -> Option<Builtin> {
        BUILTINS
            .iter()
            .find(|(candidate, ..)| *candidate == name)
            .map(|(_, builtin, _)| *builtin)
    }

    fn entry(self) -> (&'static str, Arity) {
        BUILTINS
            .iter()
            .find(|(_, builtin, _)| *builtin == self)
            .map_or(("?", Arity::AtLeast(0)), |(name, _, arity)| (name, *arity))
    }

    /// The function's source name.
    pub(crate) fn name(self) -> &'static str {
        self.entry().0
    }

    /// Describes an arity mismatch for `given` arguments, or `None` when the count is valid.
    pub(crate) fn arity_error(self, given: usize) -> Option<String> {
        let (name, arity) = self.entry();
        let expected = arity.describe();
        (!arity.accepts(given))
            .then(|| format!("{name}() takes {expected} argument(s) ({given} given)"))
    }
}

/// The argument at `index` (missing ones cannot happen after the compile-time arity check).
pub(crate) fn arg<'v>(args: &'v [Cow<'_, Value>], index: usize) -> Result<&'v Value, EvalError> {
    args.get(index)
        .map(AsRef::as_ref)
        .ok_or_else(|| EvalError::new("missing argument"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(builtin: Builtin, given: usize, expected: Option<&str>) {
        assert_eq!(
            builtin.arity_error(given).as_deref(),
            expected,
            "{builtin:?}"
        );
    }

    #[test]
    fn names_and_arity() {
        assert_eq!(
            Builtin::from_name("compute_last_host"),
            Some(Builtin::LastHost)
        );
        assert_eq!(Builtin::from_name("open"), None);
        assert!(
            BUILTINS
                .iter()
                .all(|(name, builtin, _)| builtin.name() == *name)
        );
        check(Builtin::Abs, 1, None);
        check(Builtin::Max, 5, None);
        check(Builtin::Round, 2, None);
        check(
            Builtin::Abs,
            2,
            Some("abs() takes exactly 1 argument(s) (2 given)"),
        );
        check(
            Builtin::Round,
            3,
            Some("round() takes 1 to 2 argument(s) (3 given)"),
        );
        check(
            Builtin::Min,
            0,
            Some("min() takes at least 1 argument(s) (0 given)"),
        );
    }

    #[test]
    fn networking_functions_take_an_address_or_four_octets() {
        for builtin in [
            Builtin::NetworkAddress,
            Builtin::BroadcastAddress,
            Builtin::FirstHost,
            Builtin::LastHost,
        ] {
            check(builtin, 2, None);
            check(builtin, 5, None);
            for wrong in [0, 1, 3, 4, 6] {
                let message = builtin.arity_error(wrong);
                assert!(
                    message.as_deref().is_some_and(|m| m.contains("2 or 5")),
                    "{message:?}"
                );
            }
        }
        check(Builtin::NetworkWithError, 2, None);
        check(Builtin::NetworkWithError, 3, None);
        check(
            Builtin::NetworkWithError,
            1,
            Some("network_with_error() takes 2 to 3 argument(s) (1 given)"),
        );
    }
}

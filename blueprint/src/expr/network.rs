//! IPv4 subnetting helpers: masks, network/broadcast addresses, host ranges and counts.

use std::borrow::Cow;

use super::budget::Budget;
use super::error::EvalError;
use super::ipv4::{format_ipv4, mask, parse_ipv4, prefix};
use super::network_error::network_with_error;
use super::value::Value;
use super::whitelist::{Builtin, arg};

/// Calls one of the networking builtins, charged first for reading its arguments.
pub(crate) fn call(
    builtin: Builtin,
    args: &[Cow<'_, Value>],
    budget: &mut Budget,
) -> Result<Value, EvalError> {
    for argument in args {
        budget.charge_value(argument)?;
    }
    let first = arg(args, 0)?;
    let text = |address: u32| Ok(Value::Str(format_ipv4(address)));
    match builtin {
        Builtin::CidrToMask => text(mask(prefix(first)?)),
        Builtin::MaskToCidr => mask_to_cidr(parse_ipv4(first)?).map(Value::Int),
        Builtin::HostCount => Ok(Value::Int(host_count(prefix(first)?))),
        Builtin::IpToInt => Ok(Value::Int(i64::from(parse_ipv4(first)?))),
        Builtin::IntToIp => text(int_to_address(first)?),
        Builtin::NetworkWithError => text(network_with_error(args)?),
        _ => {
            let (address, prefix) = subnet(args)?;
            text(address_in_subnet(builtin, address, prefix))
        }
    }
}

/// The address and prefix of a subnet call: `(address, prefix)`, or, as the design
/// document writes it, `(octet_1, octet_2, octet_3, octet_4, prefix)`.
fn subnet(args: &[Cow<'_, Value>]) -> Result<(u32, u32), EvalError> {
    match args {
        [address, length] => Ok((parse_ipv4(address)?, prefix(length)?)),
        [a, b, c, d, length] => {
            let octets = [octet(a)?, octet(b)?, octet(c)?, octet(d)?];
            Ok((u32::from_be_bytes(octets), prefix(length)?))
        }
        _ => Err(EvalError::new(
            "expected an address and a prefix, or four octets and a prefix",
        )),
    }
}

/// One octet given as a number (`0..=255`).
fn octet(value: &Value) -> Result<u8, EvalError> {
    let Some(int) = value.as_i64() else {
        return Err(EvalError::new(format!(
            "octet must be an int, not {}",
            value.type_name()
        )));
    };
    u8::try_from(int).map_err(|_| EvalError::new(format!("octet {int} is out of range 0..=255")))
}

/// Network, broadcast, first-host or last-host address of `address/prefix`.
fn address_in_subnet(builtin: Builtin, address: u32, prefix: u32) -> u32 {
    let network = address & mask(prefix);
    let broadcast = address | !mask(prefix);
    match (builtin, prefix) {
        (Builtin::NetworkAddress, _) => network,
        (Builtin::BroadcastAddress, _) => broadcast,
        (Builtin::FirstHost | Builtin::LastHost, 32) => address,
        (Builtin::FirstHost, 31) => network,
        (Builtin::FirstHost, _) => network + 1,
        (Builtin::LastHost, 31) => broadcast,
        _ => broadcast - 1,
    }
}

/// Usable hosts: `2**(32-p) - 2`, except `/31` (2, point-to-point) and `/32` (1).
fn host_count(prefix: u32) -> i64 {
    match prefix {
        32 => 1,
        31 => 2,
        _ => (1_i64 << (32 - prefix)) - 2,
    }
}

/// The prefix length of a contiguous netmask.
fn mask_to_cidr(mask: u32) -> Result<i64, EvalError> {
    let ones = mask.leading_ones();
    if ones + mask.trailing_zeros() != 32 {
        return Err(EvalError::new(format!(
            "netmask {} is not contiguous",
            format_ipv4(mask)
        )));
    }
    Ok(i64::from(ones))
}

fn int_to_address(value: &Value) -> Result<u32, EvalError> {
    let Some(int) = value.as_i64() else {
        return Err(EvalError::new(format!(
            "int_to_ip() argument must be an int, not {}",
            value.type_name()
        )));
    };
    u32::try_from(int).map_err(|_| {
        EvalError::new(format!(
            "{int} is not a valid IPv4 address (0..=4294967295)"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use Value::{Float, Int};

    fn text(value: &str) -> Value {
        Value::from(value)
    }

    fn check(builtin: Builtin, args: Vec<Value>, expected: Result<Value, &str>) {
        let owned: Vec<Cow<'_, Value>> = args.into_iter().map(Cow::Owned).collect();
        match (call(builtin, &owned, &mut Budget::new()), expected) {
            (Ok(actual), Ok(expected)) => assert_eq!(actual, expected, "{builtin:?}"),
            (Err(error), Err(fragment)) => assert!(error.message.contains(fragment), "{error}"),
            (actual, expected) => panic!("{builtin:?}: {actual:?} vs {expected:?}"),
        }
    }

    fn check_subnet(ip: &str, prefix: i64, expected: [&str; 4]) {
        let builtins = [
            Builtin::NetworkAddress,
            Builtin::BroadcastAddress,
            Builtin::FirstHost,
            Builtin::LastHost,
        ];
        for (builtin, expected) in builtins.into_iter().zip(expected) {
            check(builtin, vec![text(ip), Int(prefix)], Ok(text(expected)));
        }
    }

    #[test]
    fn subnets_from_four_octets() {
        let octets = |a, b, c, d| vec![Int(a), Int(b), Int(c), Int(d), Int(26)];
        let forms = [
            (Builtin::NetworkAddress, "192.168.1.128"),
            (Builtin::BroadcastAddress, "192.168.1.191"),
            (Builtin::FirstHost, "192.168.1.129"),
            (Builtin::LastHost, "192.168.1.190"),
        ];
        for (builtin, expected) in forms {
            check(builtin, octets(192, 168, 1, 130), Ok(text(expected)));
            check(
                builtin,
                octets(192, 168, 256, 130),
                Err("octet 256 is out of range"),
            );
            check(
                builtin,
                octets(192, -1, 1, 130),
                Err("octet -1 is out of range"),
            );
        }
        let mut wrong_type = octets(10, 0, 0, 1);
        wrong_type[3] = text("1");
        check(
            Builtin::NetworkAddress,
            wrong_type,
            Err("octet must be an int, not str"),
        );
        let mut wrong_prefix = octets(10, 0, 0, 1);
        wrong_prefix[4] = Int(33);
        check(
            Builtin::FirstHost,
            wrong_prefix,
            Err("prefix 33 is out of range"),
        );
        check(
            Builtin::NetworkAddress,
            vec![Int(10), Int(1), Int(2), Int(3), Int(8)],
            Ok(text("10.0.0.0")),
        );
    }

    #[test]
    fn subnets() {
        check_subnet(
            "192.168.1.130",
            26,
            [
                "192.168.1.128",
                "192.168.1.191",
                "192.168.1.129",
                "192.168.1.190",
            ],
        );
        check_subnet(
            "10.1.2.3",
            8,
            ["10.0.0.0", "10.255.255.255", "10.0.0.1", "10.255.255.254"],
        );
        check_subnet(
            "172.16.5.77",
            20,
            ["172.16.0.0", "172.16.15.255", "172.16.0.1", "172.16.15.254"],
        );
        check_subnet(
            "10.0.0.5",
            31,
            ["10.0.0.4", "10.0.0.5", "10.0.0.4", "10.0.0.5"],
        );
        check_subnet(
            "10.0.0.5",
            32,
            ["10.0.0.5", "10.0.0.5", "10.0.0.5", "10.0.0.5"],
        );
        check_subnet(
            "203.0.113.9",
            0,
            ["0.0.0.0", "255.255.255.255", "0.0.0.1", "255.255.255.254"],
        );
        check_subnet(
            "192.168.0.1",
            30,
            ["192.168.0.0", "192.168.0.3", "192.168.0.1", "192.168.0.2"],
        );
    }

    #[test]
    fn masks_and_counts() {
        check(
            Builtin::CidrToMask,
            vec![Int(24)],
            Ok(text("255.255.255.0")),
        );
        check(
            Builtin::CidrToMask,
            vec![Int(26)],
            Ok(text("255.255.255.192")),
        );
        check(Builtin::CidrToMask, vec![Int(0)], Ok(text("0.0.0.0")));
        check(
            Builtin::CidrToMask,
            vec![Int(32)],
            Ok(text("255.255.255.255")),
        );
        check(Builtin::CidrToMask, vec![Int(33)], Err("out of range"));
        check(Builtin::CidrToMask, vec![Int(-1)], Err("out of range"));
        check(
            Builtin::CidrToMask,
            vec![Float(24.0)],
            Err("prefix must be an int"),
        );
        check(
            Builtin::MaskToCidr,
            vec![text("255.255.255.192")],
            Ok(Int(26)),
        );
        check(Builtin::MaskToCidr, vec![text("0.0.0.0")], Ok(Int(0)));
        check(
            Builtin::MaskToCidr,
            vec![text("255.255.255.255")],
            Ok(Int(32)),
        );
        check(
            Builtin::MaskToCidr,
            vec![text("255.0.255.0")],
            Err("not contiguous"),
        );
        check(Builtin::HostCount, vec![Int(26)], Ok(Int(62)));
        check(Builtin::HostCount, vec![Int(24)], Ok(Int(254)));
        check(Builtin::HostCount, vec![Int(30)], Ok(Int(2)));
        check(Builtin::HostCount, vec![Int(31)], Ok(Int(2)));
        check(Builtin::HostCount, vec![Int(32)], Ok(Int(1)));
        check(Builtin::HostCount, vec![Int(0)], Ok(Int(4_294_967_294)));
    }

    #[test]
    fn conversions_and_validation() {
        check(
            Builtin::IpToInt,
            vec![text("192.168.1.1")],
            Ok(Int(3_232_235_777)),
        );
        check(Builtin::IpToInt, vec![text("0.0.0.0")], Ok(Int(0)));
        check(
            Builtin::IntToIp,
            vec![Int(3_232_235_777)],
            Ok(text("192.168.1.1")),
        );
        check(
            Builtin::IntToIp,
            vec![Int(4_294_967_295)],
            Ok(text("255.255.255.255")),
        );
        check(
            Builtin::IntToIp,
            vec![Int(4_294_967_296)],
            Err("not a valid IPv4"),
        );
        check(Builtin::IntToIp, vec![Int(-1)], Err("not a valid IPv4"));
        for bad in [
            "256.1.1.1",
            "1.2.3",
            "1.2.3.4.5",
            "01.2.3.4",
            "1..3.4",
            "a.b.c.d",
            "",
            " 1.2.3.4",
            "1.2.3.+4",
        ] {
            check(
                Builtin::IpToInt,
                vec![text(bad)],
                Err("not a valid IPv4 address"),
            );
        }
        check(Builtin::IpToInt, vec![Int(5)], Err("must be a str"));
    }
}

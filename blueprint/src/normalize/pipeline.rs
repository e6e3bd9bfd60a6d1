//! One answer after filler removal and speech repairs, and the readers every entry point shares.

use super::artefacts::repair_number_artefacts;
use super::cidr::parse_cidr;
use super::decimals::parse_number;
use super::fillers::strip_fillers;
use super::ipv4::parse_ipv4;
use super::network::{network_text, parse_network};
use super::options::parse_explicit_option;
use super::speech::repair;
use super::text::canonical_text;
use super::value::{Normalized, NumberValue};

/// Normalises a typed or spoken answer (see the `normalize` module docs for the precedence and heuristics).
///
/// `option_count` is the number of options of a multiple-choice item, or `None` for a
/// short-answer item; only with `Some` are letters and option phrases read as options.
pub fn normalize_answer(raw: &str, option_count: Option<usize>) -> Normalized {
    let answer = Answer::new(raw);
    answer.sniff(option_count).unwrap_or_else(|| answer.text())
}

/// Units a percentage may end with, longest first.
const PERCENT_UNITS: &[&str] = &["per cent", "percent", "%"];

/// A candidate's (or a key's) answer, prepared once and read as whatever kind is wanted.
pub(super) struct Answer {
    /// Filler-free lowercase text: read for options, codes and the text fallback.
    pub(super) cleaned: String,
    /// `cleaned` after [`repair`]: read for numbers, addresses and prefixes.
    pub(super) repaired: String,
}

impl Answer {
    pub(super) fn new(raw: &str) -> Self {
        let cleaned = strip_fillers(raw);
        let repaired = repair(&cleaned);
        Self { cleaned, repaired }
    }

    /// The text fallback: [`canonical_text`] of the filler-free answer (never repaired).
    pub(super) fn text(&self) -> Normalized {
        Normalized::Text(canonical_text(&self.cleaned))
    }

    /// The kind-less reading of [`super::normalize_answer`]: address, network, prefix, option
    /// (only with `option_count`), number, in that order; `None` means text.
    pub(super) fn sniff(&self, option_count: Option<usize>) -> Option<Normalized> {
        parse_ipv4(&self.repaired)
            .map(Normalized::Ipv4)
            .or_else(|| self.network())
            .or_else(|| parse_cidr(&self.repaired).map(Normalized::Cidr))
            .or_else(|| {
                let count = option_count?;
                parse_explicit_option(&self.cleaned, count).map(Normalized::OptionIndex)
            })
            .or_else(|| self.number())
    }

    /// A network in CIDR notation, as canonical text ("192.168.1.0/24").
    pub(super) fn network(&self) -> Option<Normalized> {
        let (address, prefix) = parse_network(&self.repaired)?;
        Some(Normalized::Text(network_text(address, prefix)))
    }

    /// A number.
    pub(super) fn number(&self) -> Option<Normalized> {
        parse_number(&self.repaired).map(Normalized::Number)
    }

    /// A whole number as speech recognition mis-wrote it ("4t4", "600H", "1,04"); read only
    /// when a number is expected.
    pub(super) fn misheard_number(&self) -> Option<Normalized> {
        let digits = repair_number_artefacts(&self.cleaned)?;
        parse_number(&digits).map(Normalized::Number)
    }

    /// A number with an optional percent unit ("85", "85%", "eighty five per cent").
    pub(super) fn percent(&self) -> Option<Normalized> {
        let number = self.percent_number().unwrap_or(&self.repaired);
        parse_number(number).map(Normalized::Number)
    }

    /// The number before a percent unit, or `None` when there is no unit.
    pub(super) fn percent_number(&self) -> Option<&str> {
        PERCENT_UNITS
            .iter()
            .find_map(|unit| self.repaired.strip_suffix(unit))
            .map(str::trim_end)
    }

    /// A prefix length when one is expected: marked ("/26", "slash 26") or a bare whole number
    /// 0..=32 ("26", "twenty six").
    pub(super) fn prefix(&self) -> Option<Normalized> {
        if let Some(prefix) = parse_cidr(&self.repaired) {
            return Some(Normalized::Cidr(prefix));
        }
        match parse_number(&self.repaired)? {
            NumberValue::Int(n) => u8::try_from(n)
                .ok()
                .filter(|p| *p <= 32)
                .map(Normalized::Cidr),
            NumberValue::Decimal { .. } => None,
        }
    }
}

//! Stopwords and the small aviation synonym table used to normalise answers and ACS text.
//!
//! The synonym table is deliberately small (about fifty entries): it folds common acronyms,
//! spelled-out forms and a few everyday variants onto one canonical term. It is no thesaurus:
//! a candidate who uses any other wording for an idea is not credited for it.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use super::stemmer::stem;
use super::words::tokenize;

/// English function words, exam boilerplate (`including`, `associated`, `appropriate`, ...)
/// and spoken fillers. Compared with lowercase tokens, apostrophes already dropped.
const STOPWORDS: &str = "\
    a about above after again against all also am an and any are as at be because been before \
    being below between both but by can cannot could did do does doing done during each either \
    else etc eg ie every few for from further had has have having he her here him his how \
    however i if in into is it its itself just may me might more most must my neither no nor \
    not of on once only or other our ours out over own per same shall she should so some such \
    than that the their them then there these they this those though through thus to too under \
    until up upon us very via was we were what when where whether which while who whom whose \
    why will with within without would yet you your yours dont doesnt im ive youre thats \
    theres lets um uh er okay ok yeah well including include includes associated related \
    relate relating applicable appropriate use used uses using versus vs regarding following \
    various specific";

/// Words that, alongside stopwords only, make an answer a non-answer ("I don't know").
const NON_ANSWER_WORDS: &str = "know knew sure unsure idea clue remember recall guess dunno pass sorry forgot forget cant skip";

/// Synonym entries: a canonical label, then variants that mean the same in an oral exam.
/// Labels and variants are written as plain words; they are tokenised and stemmed like any
/// text, so `logbook` also covers `logbooks`. The label is always a variant of itself. The
/// canonical term is the label's stems joined by `_` (`center of gravity` -> `center_of_graviti`).
/// Variants whose stem collides with another ACS word are left out: `plane` (seaplane
/// `planing`), `tired` (`tire`), `exhaustion` (`exhaust`), `maintain` (`maintain altitude`).
/// `far`/`fars` are only matched as `far part` and `far aim`: variants are stemmed, `fars`
/// stems to `far`, and `far` is an everyday adverb ("how far") more often than the FARs.
const SYNONYMS: &[(&str, &[&str])] = &[
    (
        "recordkeeping",
        &[
            "record keeping",
            "records",
            "logbook",
            "log book",
            "logging",
            "log",
        ],
    ),
    ("weather", &["wx", "meteorology", "meteorological"]),
    (
        "notam",
        &[
            "notice to air missions",
            "notices to air missions",
            "notice to airmen",
        ],
    ),
    (
        "regulation",
        &[
            "regulatory",
            "regs",
            "reg",
            "cfr",
            "14 cfr",
            "far part",
            "far aim",
        ],
    ),
    ("maintenance", &["mx", "maint"]),
    ("atc", &["air traffic control", "air traffic controller"]),
    ("vfr", &["visual flight rules"]),
    ("ifr", &["instrument flight rules"]),
    ("imc", &["instrument meteorological conditions"]),
    ("center of gravity", &["cg", "c g", "centre of gravity"]),
    (
        "poh",
        &[
            "pilot's operating handbook",
            "afm",
            "airplane flight manual",
            "aircraft flight manual",
        ],
    ),
    ("documents", &["arrow", "paperwork"]),
    ("altimeter", &["altimetry"]),
    ("density altitude", &["density alt"]),
    ("hypoxia", &["oxygen", "hypoxic", "o2"]),
    ("aeronautical decision making", &["adm", "decision making"]),
    ("single pilot resource management", &["srm"]),
    ("crew resource management", &["crm"]),
    ("cfit", &["controlled flight into terrain"]),
    (
        "loss of control",
        &["loc", "loci", "loc i", "loss of control in flight"],
    ),
    ("pilot in command", &["pic"]),
    ("tfr", &["temporary flight restriction"]),
    (
        "ads b",
        &["adsb", "automatic dependent surveillance broadcast"],
    ),
    ("elt", &["emergency locator transmitter"]),
    ("mel", &["minimum equipment list"]),
    (
        "koel",
        &[
            "kinds of operations equipment list",
            "kinds of operation equipment list",
        ],
    ),
    ("airworthiness directive", &["ad"]),
    ("gps", &["global positioning system"]),
    (
        "vor",
        &[
            "vhf omnidirectional range",
            "vhf omnidirectional radio range",
        ],
    ),
    ("ctaf", &["common traffic advisory frequency"]),
    ("atis", &["automatic terminal information service"]),
    ("metar", &["aviation routine weather report"]),
    ("taf", &["terminal aerodrome forecast"]),
    ("pirep", &["pilot report", "pilot weather report"]),
    ("carburetor", &["carb", "carburettor"]),
    ("fuel", &["avgas"]),
    ("aircraft", &["airplane", "aeroplane"]),
    ("runway", &["rwy"]),
    ("takeoff", &["take off"]),
    ("checklist", &["check list"]),
    ("preflight", &["pre flight"]),
    ("go around", &["goaround"]),
    ("crosswind", &["cross wind", "xwind"]),
    ("weight and balance", &["w b", "weight balance"]),
    ("fatigue", &["tiredness"]),
    ("alcohol", &["drinking", "drink", "drunk", "intoxication"]),
    ("disorientation", &["vertigo"]),
    ("basicmed", &["basic med"]),
    ("flight review", &["bfr", "biennial flight review"]),
    (
        "uas",
        &["drone", "unmanned aircraft system", "unmanned aircraft"],
    ),
    ("efb", &["electronic flight bag"]),
    ("sua", &["special use airspace"]),
    ("vx", &["best angle of climb speed", "best angle of climb"]),
    ("vy", &["best rate of climb speed", "best rate of climb"]),
    ("ntsb", &["national transportation safety board"]),
    ("emergency", &["mayday"]),
];

/// A synonym variant as a sequence of stems, and the canonical term it stands for.
struct SynonymPhrase {
    stems: Vec<String>,
    canonical: String,
}

static STOPWORD_SET: LazyLock<HashSet<&'static str>> =
    LazyLock::new(|| STOPWORDS.split_whitespace().collect());

/// Every variant (labels included), longest first so that phrases win over their words.
static SYNONYM_PHRASES: LazyLock<Vec<SynonymPhrase>> = LazyLock::new(build_synonym_phrases);

/// The variants by their first stem, each list longest first: a word is compared with the
/// few variants it can start, not the whole table.
static SYNONYMS_BY_HEAD: LazyLock<HashMap<&'static str, Vec<&'static SynonymPhrase>>> =
    LazyLock::new(|| {
        let mut by_head: HashMap<&str, Vec<&SynonymPhrase>> = HashMap::new();
        for phrase in SYNONYM_PHRASES.iter() {
            if let Some(head) = phrase.stems.first() {
                by_head.entry(head.as_str()).or_default().push(phrase);
            }
        }
        by_head
    });

static NON_ANSWER_SET: LazyLock<HashSet<&'static str>> =
    LazyLock::new(|| NON_ANSWER_WORDS.split_whitespace().collect());

fn stems_of(phrase: &str) -> Vec<String> {
    tokenize(phrase).iter().map(|token| stem(token)).collect()
}

fn build_synonym_phrases() -> Vec<SynonymPhrase> {
    let mut phrases: Vec<SynonymPhrase> = SYNONYMS
        .iter()
        .flat_map(|(label, variants)| {
            let canonical = stems_of(label).join("_");
            std::iter::once(*label)
                .chain(variants.iter().copied())
                .map(move |variant| SynonymPhrase {
                    stems: stems_of(variant),
                    canonical: canonical.clone(),
                })
        })
        .filter(|phrase| !phrase.stems.is_empty())
        .collect();
    phrases.sort_by_key(|phrase| std::cmp::Reverse(phrase.stems.len()));
    phrases
}

/// Whether a lowercase token is a stopword.
pub fn is_stopword(token: &str) -> bool {
    STOPWORD_SET.contains(token)
}

/// Whether a lowercase token only says the candidate has no answer (`know`, `sure`, `idea`).
pub fn is_non_answer_word(token: &str) -> bool {
    NON_ANSWER_SET.contains(token)
}

/// The longest synonym variant that `stems` starts with: how many stems it spans, and the
/// canonical term it stands for.
pub fn synonym_at(stems: &[String]) -> Option<(usize, &'static str)> {
    SYNONYMS_BY_HEAD
        .get(stems.first()?.as_str())?
        .iter()
        .find(|phrase| stems.starts_with(&phrase.stems))
        .map(|phrase| (phrase.stems.len(), phrase.canonical.as_str()))
}

/// How many entries the synonym table has (for documentation and tests).
pub fn synonym_entry_count() -> usize {
    SYNONYMS.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Each variant's stems mapped to the canonical terms claiming it (more than one is a bug).
    fn variant_claims() -> HashMap<Vec<String>, HashSet<String>> {
        let mut claims: HashMap<Vec<String>, HashSet<String>> = HashMap::new();
        for phrase in SYNONYM_PHRASES.iter() {
            claims
                .entry(phrase.stems.clone())
                .or_default()
                .insert(phrase.canonical.clone());
        }
        claims
    }

    fn check(phrase: &str, expected: Option<(usize, &str)>) {
        assert_eq!(synonym_at(&stems_of(phrase)), expected, "{phrase:?}");
    }

    #[test]
    fn variants_map_to_their_canonical_term() {
        check("logbooks", Some((1, "recordkeep")));
        check("records", Some((1, "recordkeep")));
        check("recordkeeping", Some((1, "recordkeep")));
        check("wx", Some((1, "weather")));
        check("Notice to Air Missions", Some((4, "notam")));
        check("NOTAMs", Some((1, "notam")));
        check("14 CFR part 91", Some((2, "regul")));
        check("center of gravity", Some((3, "center_of_graviti")));
        check("CG", Some((1, "center_of_graviti")));
        check("pilot's operating handbook", Some((3, "poh")));
        check("instrument meteorological conditions", Some((3, "imc")));
        check("visual meteorological conditions", None);
        check("loss of control in flight", Some((5, "loss_of_control")));
        check("loss of control", Some((3, "loss_of_control")));
        check("far", None);
        check("FARs", None);
        check("FAR/AIM", Some((2, "regul")));
        check("the weather", None);
    }

    #[test]
    fn no_variant_has_two_meanings() {
        for (stems, canonicals) in variant_claims() {
            assert_eq!(canonicals.len(), 1, "{stems:?} claimed by {canonicals:?}");
        }
    }

    #[test]
    fn table_is_small_but_real() {
        assert!((30..=60).contains(&synonym_entry_count()));
        assert!(SYNONYMS.iter().all(|(label, variants)| {
            !stems_of(label).is_empty() && variants.iter().all(|v| !stems_of(v).is_empty())
        }));
    }

    #[test]
    fn stopwords_cover_function_words_and_boilerplate() {
        for word in [
            "the",
            "and",
            "including",
            "associated",
            "appropriate",
            "use",
            "etc",
        ] {
            assert!(is_stopword(word), "{word}");
        }
        for word in ["weather", "fuel", "90", "days"] {
            assert!(!is_stopword(word), "{word}");
        }
    }
}

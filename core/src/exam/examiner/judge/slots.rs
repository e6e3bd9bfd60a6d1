//! Typed slots: what an answer binds to a fact's subject, checked in code. A categorical
//! value is bound to the nearest subject mention before it (or after it, with none before),
//! never across a sentence or past another value of its domain; a condition is paired with
//! the value it qualifies; a modality is read from the polarity of the words between subject
//! and attribute; a definition belongs to the subject it is said of. Each check may state a
//! fact or contradict it; none clears a contradiction found elsewhere.

use viva_blueprint::rubric::{Domain, ElementRubric, Fact, FactValue, Modality, Slot};

use super::super::text::stem;
use super::answer::ReadAnswer;
use super::phrase::{Phrase, phrases};
use super::quantity::Value;
use super::reading::{Reading, denies_at};
use super::stated::Stated;
use super::work::step;

/// How many anchors of one fact are paired with a condition: enough for any real answer,
/// and a bound on the work a long list of the same number can cost.
const MAX_ANCHORS: usize = 32;

/// The most content words a domain phrase spans, for finding members near an attribute.
const MAX_PHRASE_WORDS: usize = 8;

/// How many content words from an attribute its value may stand.
const ATTRIBUTE_REACH: usize = 3;

/// How many content words before the first of subject and attribute a negation still
/// counts (within the clause).
const POLARITY_REACH: usize = 4;

/// How many content words after the last of subject and attribute are read for a flip
/// ("a clearance is optional", "is not required"); a negation there counts only before a
/// modal word.
const TRAILING_REACH: usize = 2;

/// Words that flip a requirement or a permission as a negation does: "optional",
/// "prohibited".
const FLIP_WORDS: &[&str] = &[
    "optional",
    "unnecessary",
    "voluntary",
    "prohibited",
    "forbidden",
    "illegal",
    "banned",
    "waived",
];

/// Words that say a rule at all: "must", "required", "may".
const MODAL_WORDS: &[&str] = &[
    "must",
    "need",
    "needs",
    "needed",
    "required",
    "requires",
    "require",
    "mandatory",
    "necessary",
    "may",
    "can",
    "allowed",
    "permitted",
    "legal",
    "only",
    "cant",
    "cannot",
    "mustnt",
    "neednt",
];

/// One domain value or condition of a slot, with every member's phrases.
#[derive(Debug, Clone)]
pub(super) struct Categorical {
    /// The domain's id.
    pub(super) domain: String,
    /// The fact's own member: an index into `members`.
    pub(super) own: usize,
    /// Each member's id and phrases.
    pub(super) members: Vec<(String, Vec<Phrase>)>,
}

/// A fact's slot, read once.
#[derive(Debug, Clone)]
pub(super) struct PreparedSlot {
    subject: Vec<Phrase>,
    /// The index of the first fact of the element with the same subject.
    key: usize,
    attribute: Vec<Phrase>,
    modality: Option<Modality>,
    pub(super) values: Vec<Categorical>,
    pub(super) conditions: Vec<Categorical>,
    defines: bool,
}

/// What the slot checks found for one fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum Finding {
    /// Nothing bound to it.
    #[default]
    Silent,
    /// Its value, condition or modality stated under its own subject.
    Stated,
    /// Its defining words said only of another subject: they do not state it.
    Misattributed,
    /// Another value, condition or polarity bound to its subject, or its subject given
    /// another term's definition.
    Contradicted,
}

impl Finding {
    fn merge(self, other: Finding) -> Finding {
        self.max(other)
    }
}

impl PartialOrd for Finding {
    fn partial_cmp(&self, other: &Finding) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Finding {
    fn cmp(&self, other: &Finding) -> std::cmp::Ordering {
        let rank = |f: &Finding| match f {
            Finding::Silent => 0,
            Finding::Misattributed => 1,
            Finding::Stated => 2,
            Finding::Contradicted => 3,
        };
        rank(self).cmp(&rank(other))
    }
}

/// Each fact's slot, read once (`None` for a fact without one).
pub(super) fn prepare(rubric: &ElementRubric) -> Vec<Option<PreparedSlot>> {
    let subjects: Vec<Option<Vec<Phrase>>> = (rubric.facts.iter())
        .map(|f| f.slot.as_ref().map(|s| phrases(&s.subject)))
        .collect();
    (rubric.facts.iter().enumerate())
        .map(|(index, fact)| {
            let Some(slot) = fact.slot.as_ref() else {
                return light_signal_slot(fact, index);
            };
            let subject = subjects[index].clone().unwrap_or_default();
            let key = (subjects.iter().position(|other| {
                other
                    .as_ref()
                    .is_some_and(|o| o.iter().any(|p| subject.contains(p)))
            }))
            .unwrap_or(index);
            Some(PreparedSlot {
                key,
                attribute: phrases(&slot.attribute),
                modality: slot.modality,
                values: categoricals(slot, slot.values()),
                conditions: categoricals(slot, slot.conditions()),
                defines: slot.defines,
                subject,
            })
        })
        .collect()
}

/// A light-gun signal's fact defines what the signal means: its terms said of another
/// signal contradict that signal's fact.
fn light_signal_slot(fact: &Fact, index: usize) -> Option<PreparedSlot> {
    let Some(FactValue::LightSignal { signal }) = &fact.value else {
        return None;
    };
    Some(PreparedSlot {
        subject: phrases(std::slice::from_ref(signal)),
        key: index,
        attribute: Vec::new(),
        modality: None,
        values: Vec::new(),
        conditions: Vec::new(),
        defines: true,
    })
}

fn categoricals<'s>(
    slot: &Slot,
    pairs: impl Iterator<Item = (&'s str, &'s str)>,
) -> Vec<Categorical> {
    pairs
        .filter_map(|(domain, member)| categorical(slot.domain(domain)?, member))
        .collect()
}

fn categorical(domain: &Domain, member: &str) -> Option<Categorical> {
    let members: Vec<(String, Vec<Phrase>)> = (domain.members.iter())
        .map(|(id, says)| (id.clone(), phrases(says)))
        .collect();
    Some(Categorical {
        domain: domain.id.clone(),
        own: members.iter().position(|(id, _)| id == member)?,
        members,
    })
}

/// A phrase found in the answer, in content-word indexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    first: usize,
    last: usize,
}

/// A subject mention and the fact key it names.
#[derive(Debug, Clone, Copy)]
struct Mention {
    span: Span,
    key: usize,
}

/// The slot findings of every fact; `terms` are the facts' phrases, `stated` is the answer's values of the rubric's
/// measures, `values` the facts' own values and `tolerances` how far each may be off.
pub(super) fn findings(
    slots: &[Option<PreparedSlot>],
    terms: &[Vec<Phrase>],
    answer: &ReadAnswer,
    stated: &[Stated],
    values: &[Option<Value>],
    tolerances: &[f64],
) -> Vec<Finding> {
    if slots.iter().all(Option::is_none) {
        return vec![Finding::Silent; slots.len()];
    }
    let reading = &answer.reading;
    let subjects: Vec<Vec<Mention>> = (slots.iter())
        .map(|slot| slot.as_ref().map_or_else(Vec::new, |s| s.mentions(answer)))
        .collect();
    let conditioned = |index: usize| {
        slots[index]
            .as_ref()
            .is_some_and(|s| !s.conditions.is_empty())
    };
    let numbers = Numbers::read(answer, stated, values, tolerances, conditioned);
    let mut found = vec![Finding::Silent; slots.len()];
    let check = Check {
        slots,
        terms,
        answer,
        reading,
        subjects: &subjects,
    };
    for (index, slot) in slots.iter().enumerate() {
        let Some(slot) = slot else { continue };
        let mut finding = check.values(slot);
        finding = finding.merge(check.modality(slot));
        if !slot.conditions.is_empty() {
            let anchors = check.anchors(index, values, &numbers);
            let peers = numbers.of(index);
            finding = finding.merge(check.conditions(slot, &anchors, peers));
        }
        found[index] = found[index].merge(finding);
        if slot.defines {
            check.definitions(index, slot, &mut found);
        }
    }
    found
}

impl PreparedSlot {
    /// Where the subject is named, denied or not (polarity is the modality check's).
    fn mentions(&self, answer: &ReadAnswer) -> Vec<Mention> {
        let mut spans = found(&self.subject, answer, true);
        spans.sort_by_key(|s| s.first);
        spans
            .into_iter()
            .map(|span| Mention {
                span,
                key: self.key,
            })
            .collect()
    }
}

/// Where the phrases are found and not denied, in order.
fn affirmed(list: &[Phrase], answer: &ReadAnswer) -> Vec<Span> {
    let mut spans = found(list, answer, false);
    spans.sort_by_key(|s| s.first);
    spans
}

/// Where the phrases are found (denied ones too when `any`).
fn found(list: &[Phrase], answer: &ReadAnswer, any: bool) -> Vec<Span> {
    let words = &answer.reading.words;
    list.iter()
        .flat_map(|p| p.found_from(words, answer.at(p.head())))
        .filter(|f| any || !f.denied)
        .map(|f| Span {
            first: f.first,
            last: f.last,
        })
        .collect()
}

/// The numbers said for each fact's measure: its stated values, and the bare numbers of the
/// sentences that state one (a unit said once serves the numbers after it).
struct Numbers<'t> {
    by_fact: Vec<Vec<(usize, f64)>>,
    tolerances: &'t [f64],
}

impl<'t> Numbers<'t> {
    /// Reads the numbers of the facts `wanted` accepts (those with conditions).
    fn read(
        answer: &ReadAnswer,
        stated: &[Stated],
        values: &[Option<Value>],
        tolerances: &'t [f64],
        wanted: impl Fn(usize) -> bool,
    ) -> Numbers<'t> {
        let reading = &answer.reading;
        let sentence = |word: usize| reading.sentence_of(word);
        let mut stated_words: Vec<usize> = stated.iter().map(|s| s.word).collect();
        stated_words.sort_unstable();
        let by_fact = (values.iter().enumerate())
            .map(|(index, value)| {
                let Some(value) = value.as_ref().filter(|_| wanted(index)) else {
                    return Vec::new();
                };
                let mut said: Vec<(usize, f64)> = (stated.iter())
                    .filter(|s| s.value.measure.comparable(&value.measure))
                    .map(|s| (s.word, s.value.amount))
                    .collect();
                let mut sentences: Vec<usize> = said.iter().map(|(w, _)| sentence(*w)).collect();
                sentences.sort_unstable();
                sentences.dedup();
                said.extend(
                    (answer.values.numbers().iter())
                        .filter(|(_, word)| stated_words.binary_search(word).is_err())
                        .filter(|(_, word)| sentences.binary_search(&sentence(*word)).is_ok())
                        .map(|(amount, word)| (*word, *amount)),
                );
                said.sort_by_key(|(word, _)| *word);
                step(said.len() + answer.values.numbers().len());
                said
            })
            .collect();
        Numbers {
            by_fact,
            tolerances,
        }
    }

    /// The numbers said for fact `index`'s measure, as (word, amount).
    fn of(&self, index: usize) -> &[(usize, f64)] {
        self.by_fact.get(index).map_or(&[], Vec::as_slice)
    }
}

struct Check<'a> {
    slots: &'a [Option<PreparedSlot>],
    terms: &'a [Vec<Phrase>],
    answer: &'a ReadAnswer,
    reading: &'a Reading,
    subjects: &'a [Vec<Mention>],
}

impl Check<'_> {
    fn sentence(&self, word: usize) -> usize {
        self.reading.sentence_of(word)
    }

    /// The subject mentions of the facts `rival` accepts.
    fn rivals(&self, rival: impl Fn(&PreparedSlot) -> bool) -> Vec<Mention> {
        let mut mentions: Vec<Mention> = (self.slots.iter().zip(self.subjects))
            .filter(|(slot, _)| slot.as_ref().is_some_and(&rival))
            .flat_map(|(_, mentions)| mentions.iter().copied())
            .filter(|m| !self.is_compared(m.span))
            .collect();
        mentions.sort_by_key(|m| m.span.first);
        mentions.dedup_by_key(|m| m.span.first);
        mentions
    }

    /// Whether a mention stands right after a number: "90 days" is a span, not the day.
    fn after_a_number(&self, span: Span) -> bool {
        let before = self.reading.token_before(span.first);
        before.starts_with(|c: char| c.is_ascii_digit())
    }

    /// Whether a subject mention is the object of a comparison ("faster than minimum
    /// sink", "unlike expectation bias"): what follows is said of another subject.
    fn is_compared(&self, span: Span) -> bool {
        let before = self.reading.token_before(span.first);
        matches!(before, "than" | "unlike" | "versus" | "vs")
    }

    /// Every affirmed mention of a member of `categorical`'s domain, with the member, less
    /// those inside a subject mention.
    fn members(&self, categorical: &Categorical, subjects: &[Mention]) -> Vec<(Span, usize)> {
        let mut members: Vec<(Span, usize)> = (categorical.members.iter().enumerate())
            .flat_map(|(member, (_, says))| {
                affirmed(says, self.answer)
                    .into_iter()
                    .map(move |span| (span, member))
            })
            .filter(|(span, _)| !subjects.iter().any(|s| overlaps(s.span, *span)))
            .filter(|(span, _)| !self.after_a_number(*span))
            .collect();
        // "at night" and "night" are one mention: the longest of overlapping ones is kept.
        members.sort_by_key(|(span, _)| (span.first, std::cmp::Reverse(span.last)));
        members.dedup_by(|later, kept| overlaps(later.0, kept.0));
        step(members.len());
        members
    }

    /// The subject a member mention belongs to, with no other member between them: the
    /// nearest before it in its clause, else the nearest after it in its clause ("cleared to
    /// land is a steady green"), else the nearest before it in its sentence.
    fn bind(&self, at: Span, subjects: &[Mention], members: &[(Span, usize)]) -> Option<usize> {
        let words = &self.reading.words;
        let (clause, sentence) = (words[at.first].clause, self.sentence(at.first));
        // Members and subjects are in order: each search starts next to `at`.
        let between = |from: usize, to: usize| {
            let first = members.partition_point(|(m, _)| m.first <= from);
            members[first..]
                .iter()
                .take_while(|(m, _)| m.first < to)
                .any(|(m, _)| m.last < to && *m != at)
        };
        let split = subjects.partition_point(|s| s.span.first < at.first);
        step(1);
        let in_clause = |s: &&Mention| words[s.span.first].clause == clause;
        let before = || {
            subjects[..split]
                .iter()
                .rev()
                .filter(|s| s.span.last < at.first)
                .take_while(|s| self.sentence(s.span.first) == sentence)
                .filter(|s| !between(s.span.last, at.first))
        };
        let after = || {
            subjects[split..]
                .iter()
                .filter(|s| s.span.first > at.last)
                .take_while(|s| words[s.span.first].clause == clause)
                .filter(|s| !between(at.last, s.span.first))
        };
        (before().find(in_clause))
            .or_else(|| after().next())
            .or_else(|| before().next())
            .map(|s| s.key)
    }

    /// The fact's categorical values: stated or contradicted under its subject.
    fn values(&self, slot: &PreparedSlot) -> Finding {
        let mut finding = Finding::Silent;
        let mut stated = 0;
        for categorical in &slot.values {
            // A slot may allow several members of one domain ("the owner or operator").
            let allowed: Vec<usize> = (slot.values.iter())
                .filter(|c| c.domain == categorical.domain)
                .map(|c| c.own)
                .collect();
            let subjects =
                self.rivals(|other| other.values.iter().any(|c| c.domain == categorical.domain));
            let members = self.members(categorical, &subjects);
            for (span, member) in self.valued(slot, &members) {
                if self.bind(span, &subjects, &members) != Some(slot.key) {
                    continue;
                }
                if allowed.contains(&member) {
                    stated += 1;
                } else {
                    finding = Finding::Contradicted;
                }
            }
        }
        if finding == Finding::Silent && stated > 0 {
            return Finding::Stated;
        }
        finding
    }

    /// The member mentions that give the slot's value: with an attribute, the one nearest
    /// each attribute mention (within [`ATTRIBUTE_REACH`] words, one sentence); else all.
    fn valued(&self, slot: &PreparedSlot, members: &[(Span, usize)]) -> Vec<(Span, usize)> {
        if slot.attribute.is_empty() {
            return members.to_vec();
        }
        let mut valued: Vec<(Span, usize)> = found(&slot.attribute, self.answer, true)
            .into_iter()
            .filter_map(|attribute| {
                let sentence = self.sentence(attribute.first);
                // Only members within reach can be nearest: find them by position.
                let from = attribute
                    .first
                    .saturating_sub(ATTRIBUTE_REACH + MAX_PHRASE_WORDS);
                let to = attribute.last + ATTRIBUTE_REACH + 1;
                sorted_slice(members, from, to, |(m, _)| m.first)
                    .iter()
                    .filter(|(m, _)| self.sentence(m.first) == sentence)
                    .map(|(m, member)| (distance(*m, attribute), *m, *member))
                    .filter(|(d, _, _)| *d <= ATTRIBUTE_REACH)
                    .min_by_key(|(d, _, _)| *d)
                    .map(|(_, m, member)| (m, member))
            })
            .collect();
        valued.sort_by_key(|(m, _)| m.first);
        valued.dedup();
        valued
    }

    /// A required or permitted rule said with the opposite polarity of the words between
    /// its subject and attribute contradicts it; the same polarity with a modal word
    /// states it.
    fn modality(&self, slot: &PreparedSlot) -> Finding {
        let Some(modality) = slot.modality else {
            return Finding::Silent;
        };
        let subjects = self.rivals(|other| other.modality.is_some());
        let mut finding = Finding::Silent;
        for attribute in found(&slot.attribute, self.answer, true) {
            let sentence = self.sentence(attribute.first);
            let nearest = (subjects.iter())
                .filter(|s| self.sentence(s.span.first) == sentence)
                .min_by_key(|s| distance(s.span, attribute));
            let Some(subject) = nearest.filter(|s| s.key == slot.key) else {
                continue;
            };
            let (negative, modal) = self.polarity(subject.span, attribute);
            if negative == modality.is_positive() {
                return Finding::Contradicted;
            }
            if modal {
                finding = Finding::Stated;
            }
        }
        finding
    }

    /// Whether the words from a little before the first of two spans to the end of the
    /// last deny (an odd number of negations and flip words), and whether any says a rule.
    fn polarity(&self, a: Span, b: Span) -> (bool, bool) {
        let words = &self.reading.words;
        let (first, last) = (a.first.min(b.first), a.last.max(b.last));
        let clause = words[first].clause;
        let mut start = first;
        while start > 0 && first - start < POLARITY_REACH && words[start - 1].clause == clause {
            start -= 1;
        }
        let mut end = last;
        while end + 1 < words.len()
            && end - last < TRAILING_REACH
            && words[end + 1].clause == clause
        {
            end += 1;
        }
        let mut flips = 0;
        let mut modal = false;
        for (at, word) in words.iter().enumerate().take(end + 1).skip(start) {
            step(1);
            let token = self.token(word.clause, word.token);
            let stem_is = |list: &[&str]| list.iter().any(|w| stem(w) == word.stem || *w == token);
            let trailing = at > last;
            // A negation inside the subject or attribute is part of its name ("never-exceed
            // speed"), not of what is said of it.
            let named = (a.first..=a.last).contains(&at) || (b.first..=b.last).contains(&at);
            let elsewhere = !self.reaches(at, a, b);
            let denies = !named
                && !elsewhere
                && word.is_negation
                && denies_at(&self.reading.clauses[word.clause], word.token)
                && (!trailing || self.says_a_rule(at + 1));
            if denies || (!named && !elsewhere && stem_is(FLIP_WORDS)) {
                flips += 1;
            }
            modal |= !trailing && stem_is(MODAL_WORDS) || stem_is(FLIP_WORDS);
        }
        (flips % 2 == 1, modal)
    }

    /// Whether a negation at `at` can bear on the rule of subject `a` and attribute `b`: it
    /// stands in the clause of the later of the two, or before the earlier one. ("Class C
    /// doesn't need a clearance, just two-way radio": the negation is about the clearance.)
    fn reaches(&self, at: usize, a: Span, b: Span) -> bool {
        let words = &self.reading.words;
        let (earlier, later) = if a.first <= b.first { (a, b) } else { (b, a) };
        let later_clause = words[later.first].clause;
        // "may not carry passengers for hire, or act as PIC for hire": a clause that goes
        // on with "or", "nor" or "and" goes on with the negation too.
        let continued = matches!(self.token(later_clause, 0), "or" | "nor" | "and");
        at < earlier.first || words[at].clause == later_clause || continued
    }

    /// Whether the content word at `at` is a modal word ("required", "needed").
    fn says_a_rule(&self, at: usize) -> bool {
        self.reading.words.get(at).is_some_and(|word| {
            let token = self.token(word.clause, word.token);
            MODAL_WORDS
                .iter()
                .any(|w| *w == token || stem(w) == word.stem)
        })
    }

    fn token(&self, clause: usize, token: usize) -> &str {
        let tokens = self.reading.tokens(clause, token, token + 1);
        tokens.first().map_or("", String::as_str)
    }

    /// Where the fact's value is said: its number (a bare number counts in a sentence that
    /// states a value of its measure: "forty five by day and thirty at night"), or else its
    /// subject.
    fn anchors(&self, index: usize, values: &[Option<Value>], numbers: &Numbers) -> Vec<usize> {
        match &values[index] {
            Some(value) => (numbers.of(index).iter())
                .filter(|(_, amount)| {
                    let said = Value {
                        measure: value.measure.clone(),
                        amount: *amount,
                    };
                    within(&said, value, numbers.tolerances[index])
                })
                .map(|(word, _)| *word)
                .filter(|&word| !self.reading.words[word].negated)
                .collect(),
            None => self.subjects[index].iter().map(|m| m.span.first).collect(),
        }
    }

    /// The fact's conditions: each anchor paired with a member of the condition's domain
    /// (in order when a sentence has as many values as members, else the nearest with no
    /// other value of its measure between); another member contradicts.
    fn conditions(
        &self,
        slot: &PreparedSlot,
        anchors: &[usize],
        peers_of_value: &[(usize, f64)],
    ) -> Finding {
        let mut finding = Finding::Silent;
        let peer_words: Vec<usize> = peers_of_value.iter().map(|(word, _)| *word).collect();
        for categorical in &slot.conditions {
            let members = self.members(categorical, &[]);
            for &anchor in anchors.iter().take(MAX_ANCHORS) {
                // The anchor's run of one sentence: peers and members are in word order.
                let (start, end) = self.answer.run_span(anchor);
                let within = |first: usize| (start..end).contains(&first);
                let lone = [anchor];
                let peers = match peer_words.is_empty() {
                    false => sorted_slice(&peer_words, start, end, |w| *w),
                    true => &lone[..],
                };
                let local = sorted_slice(&members, start, end, |(m, _)| m.first);
                step(1);
                let Some(member) = pair(anchor, peers, local).filter(|_| within(anchor)) else {
                    continue;
                };
                if member != categorical.own {
                    return Finding::Contradicted;
                }
                finding = Finding::Stated;
            }
        }
        finding
    }

    /// A defining phrase of fact `index` said of another defined subject contradicts that
    /// subject's fact; said only of others, it does not state this one.
    fn definitions(&self, index: usize, slot: &PreparedSlot, found_so_far: &mut [Finding]) {
        let subjects = self.rivals(|other| other.defines);
        let own: &[Mention] = &self.subjects[index];
        let terms = self.answer_terms(index);
        let mut bound_elsewhere = 0;
        let mut bound_here = 0;
        for span in terms {
            if own.iter().any(|m| overlaps(m.span, span)) {
                bound_here += 1;
                continue;
            }
            match self.bind(span, &subjects, &[]) {
                Some(key) if key != slot.key => {
                    bound_elsewhere += 1;
                    let other = (self.slots.iter().enumerate())
                        .filter(|(_, s)| s.as_ref().is_some_and(|s| s.key == key && s.defines))
                        .map(|(i, _)| i);
                    for other in other {
                        found_so_far[other] = Finding::Contradicted;
                    }
                }
                _ => bound_here += 1,
            }
        }
        if bound_elsewhere > 0 && bound_here == 0 {
            found_so_far[index] = found_so_far[index].merge(Finding::Misattributed);
        }
    }

    fn answer_terms(&self, index: usize) -> Vec<Span> {
        self.terms
            .get(index)
            .map_or_else(Vec::new, |t| affirmed(t, self.answer))
    }
}

/// The member paired with the value at `anchor`: by order when the sentence has as many
/// values as members, else the nearest member with no other value between, on the side the
/// sentence names its conditions ("Day VFR is 30 minutes, night is 45": before). `peers`
/// (the values, `anchor` among them) and `members` are in word order.
fn pair(anchor: usize, peers: &[usize], members: &[(Span, usize)]) -> Option<usize> {
    let first_member = members.first()?;
    if peers.len() == members.len() {
        let rank = peers.binary_search(&anchor).ok()?;
        return Some(members[rank].1);
    }
    // The values next to the anchor bound the members it may take.
    let split = peers.partition_point(|&p| p < anchor);
    let previous = split.checked_sub(1).map(|i| peers[i]);
    let next = peers[split..].iter().copied().find(|&p| p > anchor);
    let at = members.partition_point(|(m, _)| m.last < anchor);
    let nearest_before = members[..at]
        .last()
        .filter(|(m, _)| previous.is_none_or(|p| m.first > p))
        .map(|(_, member)| *member);
    let nearest_after = members[at..]
        .iter()
        .find(|(m, _)| m.first > anchor)
        .filter(|(m, _)| next.is_none_or(|p| m.last < p))
        .map(|(_, member)| *member);
    let first_value = peers.first().copied().unwrap_or(anchor).min(anchor);
    if first_member.0.first < first_value {
        nearest_before.or(nearest_after)
    } else {
        nearest_after.or(nearest_before)
    }
}

/// The part of `sorted` (in word order by `key`) whose words lie in `start..end`.
fn sorted_slice<T>(sorted: &[T], start: usize, end: usize, key: impl Fn(&T) -> usize) -> &[T] {
    let from = sorted.partition_point(|item| key(item) < start);
    let to = sorted.partition_point(|item| key(item) < end);
    &sorted[from..to.max(from)]
}

/// Content words between two spans (0 when they touch or overlap).
fn distance(a: Span, b: Span) -> usize {
    b.first
        .saturating_sub(a.last)
        .max(a.first.saturating_sub(b.last))
}

fn overlaps(a: Span, b: Span) -> bool {
    a.first <= b.last && b.first <= a.last
}

/// Whether `stated` is `value` or within `tolerance` of it (in the value's units).
pub(super) fn within(stated: &Value, value: &Value, tolerance: f64) -> bool {
    stated.same_as(value)
        || (tolerance > 0.0
            && stated.measure.comparable(&value.measure)
            && (stated.amount - value.amount).abs() <= tolerance + 1e-9)
}

#[cfg(test)]
mod tests {
    use viva_blueprint::rubric::ElementRubric;

    use super::super::{FactStatus, judge};

    const DOMAINS: &str = "\
domains:
  - id: colour
    members:
      magenta: [magenta]
      blue: [blue]
  - id: time-of-day
    members:
      day: [day, daytime]
      night: [night, at night]
  - id: trend
    members:
      increases: [increases, longer, more]
      decreases: [decreases, reduces, shorter, less]
";

    const RUBRIC: &str = "\
task: PA.I.E
elements:
  - element: PA.I.E.K1
    facts:
      - id: class-b-colour
        claim: Class B airspace is charted with solid magenta lines.
        source: FAA-H-8083-25, chapter 15
        terms: [class b magenta]
        slot: {subject: [class b, bravo], is: [colour.magenta]}
      - id: class-c-colour
        claim: Class C airspace is charted with solid blue lines.
        source: FAA-H-8083-25, chapter 15
        terms: [class c blue]
        slot: {subject: [class c, charlie], is: [colour.blue]}
      - id: class-b-clearance
        claim: No one may operate in Class B airspace without an ATC clearance.
        source: 14 CFR 91.131(a)(1)
        terms: [clearance to enter class b]
        slot: {subject: [class b, bravo], attribute: [clearance], modality: required}
      - id: class-c-radio
        claim: Class C requires two-way radio communication with ATC before entering.
        source: 14 CFR 91.130(c)(1)
        terms: [two-way radio communication]
        slot: {subject: [class c, charlie], attribute: [two-way radio, radio communication], modality: required}
      - id: night-reserve
        claim: At night VFR fuel must last 45 minutes beyond the first point of intended landing.
        source: 14 CFR 91.151(b)
        terms: [night reserve]
        value: {kind: duration, amount: 45, unit: minutes}
        slot: {subject: [reserve, fuel], when: [time-of-day.night]}
      - id: day-reserve
        claim: By day VFR fuel must last 30 minutes beyond the first point of intended landing.
        source: 14 CFR 91.151(a)
        terms: [day reserve]
        value: {kind: duration, amount: 30, unit: minutes}
        slot: {subject: [reserve, fuel], when: [time-of-day.day]}
      - id: headwind-glide
        claim: A headwind reduces the glide distance over the ground.
        source: FAA-H-8083-3, chapter 18
        terms: [headwind shortens the glide]
        slot: {subject: [headwind], attribute: [glide distance, glide], is: [trend.decreases]}
      - id: confirmation-bias
        claim: Confirmation bias is seeking information that confirms what you already believe.
        source: FAA-H-8083-2, chapter 5
        terms: [information that confirms, confirms what you believe]
        slot: {subject: [confirmation bias], defines: true}
      - id: expectation-bias
        claim: Expectation bias is hearing what you expect to hear.
        source: FAA-H-8083-2, chapter 5
        terms: [expect to hear, expect to see]
        slot: {subject: [expectation bias], defines: true}
      - id: density-altitude-takeoff
        claim: The takeoff roll is about 41 percent longer in this case.
        source: FAA-H-8083-25, chapter 11
        terms: [takeoff roll longer]
        value: {kind: percent, amount: 41}
        slot: {subject: [takeoff roll], tolerance: 3}
    satisfactory: [class-b-colour, class-b-clearance]
    partial: {at_least: 1}
";

    fn rubric() -> ElementRubric {
        super::super::test_rubric(DOMAINS, RUBRIC, "PA.I.E.K1")
    }

    fn status(answer: &str, fact: &str) -> FactStatus {
        judge(&rubric(), answer, None).status(fact)
    }

    #[test]
    fn domain_values_bind_to_the_nearest_subject() {
        let right = "Class B is solid magenta and Class C is solid blue.";
        assert_eq!(status(right, "class-b-colour"), FactStatus::Stated);
        assert_eq!(status(right, "class-c-colour"), FactStatus::Stated);
        let swapped = "Class B is solid blue and Class C is solid magenta.";
        assert_eq!(status(swapped, "class-b-colour"), FactStatus::Contradicted);
        assert_eq!(status(swapped, "class-c-colour"), FactStatus::Contradicted);
        let value_first = "Magenta is class bravo.";
        assert_eq!(status(value_first, "class-b-colour"), FactStatus::Stated);
    }

    #[test]
    fn a_flipped_polarity_contradicts_and_a_double_negative_agrees() {
        for wrong in [
            "Class B can be entered without a clearance as long as you monitor the frequency.",
            "For class bravo a clearance is optional.",
            "In Class B you do not need a clearance.",
        ] {
            assert_eq!(
                status(wrong, "class-b-clearance"),
                FactStatus::Contradicted,
                "{wrong}"
            );
        }
        let other_rule = "Class C doesn't need a clearance, just two-way radio.";
        assert_ne!(
            status(other_rule, "class-c-radio"),
            FactStatus::Contradicted
        );
        for right in [
            "You can't enter Class B without a clearance.",
            "No one may operate in Class B airspace without an ATC clearance.",
            "Class B requires a clearance.",
        ] {
            assert_eq!(
                status(right, "class-b-clearance"),
                FactStatus::Stated,
                "{right}"
            );
        }
    }

    #[test]
    fn a_value_under_another_condition_contradicts() {
        let swapped = "forty five minutes during the day and thirty at night";
        assert_eq!(status(swapped, "night-reserve"), FactStatus::Contradicted);
        assert_eq!(status(swapped, "day-reserve"), FactStatus::Contradicted);
        let right = "thirty minutes during the day and forty five at night";
        assert_eq!(status(right, "night-reserve"), FactStatus::Stated);
        assert_eq!(status(right, "day-reserve"), FactStatus::Stated);
        let both = "30 minutes by day and 45 minutes at night.";
        assert_eq!(status(both, "night-reserve"), FactStatus::Stated);
        assert_eq!(status(both, "day-reserve"), FactStatus::Stated);
        let span = "At night you need 45 minutes of fuel, the tanks checked every 90 days.";
        assert_eq!(status(span, "night-reserve"), FactStatus::Stated);
        let listed = "Day VFR reserve is 30 minutes, night is 45, and I land with plenty.";
        assert_eq!(status(listed, "day-reserve"), FactStatus::Stated);
        assert_eq!(status(listed, "night-reserve"), FactStatus::Stated);
        let one = "At night you need 45 minutes of fuel.";
        assert_eq!(status(one, "night-reserve"), FactStatus::Stated);
    }

    #[test]
    fn a_reversed_trend_contradicts() {
        let wrong = "A headwind increases glide distance.";
        assert_eq!(status(wrong, "headwind-glide"), FactStatus::Contradicted);
        let right = "With a headwind, the glide distance decreases.";
        assert_eq!(status(right, "headwind-glide"), FactStatus::Stated);
        let other = "A tailwind increases the glide distance, a headwind decreases it.";
        assert_ne!(status(other, "headwind-glide"), FactStatus::Contradicted);
    }

    #[test]
    fn a_definition_before_its_term_in_a_list_binds_to_its_own_clause() {
        let list = "Hearing what you expect to hear is expectation bias, information that \
                    confirms what you believe is confirmation bias.";
        assert_eq!(status(list, "expectation-bias"), FactStatus::Stated);
        assert_eq!(status(list, "confirmation-bias"), FactStatus::Stated);
    }

    #[test]
    fn the_object_of_a_comparison_takes_no_definition() {
        let compared =
            "Expectation bias, unlike confirmation bias, is hearing what you expect to hear.";
        assert_eq!(status(compared, "expectation-bias"), FactStatus::Stated);
        assert_ne!(
            status(compared, "confirmation-bias"),
            FactStatus::Contradicted
        );
    }

    #[test]
    fn a_definition_under_another_term_contradicts_that_term() {
        let swapped = "Confirmation bias is when you hear what you expect to hear.";
        assert_eq!(
            status(swapped, "confirmation-bias"),
            FactStatus::Contradicted
        );
        assert_eq!(status(swapped, "expectation-bias"), FactStatus::Missing);
        let right = "Expectation bias is when you hear what you expect to hear.";
        assert_eq!(status(right, "expectation-bias"), FactStatus::Stated);
        assert_eq!(status(right, "confirmation-bias"), FactStatus::Missing);
    }

    #[test]
    fn an_approximate_value_within_the_tolerance_is_the_fact() {
        let about = "The takeoff roll gets about forty percent longer.";
        assert_eq!(
            status(about, "density-altitude-takeoff"),
            FactStatus::Stated
        );
        let far = "The takeoff roll gets about ten percent longer.";
        assert_eq!(
            status(far, "density-altitude-takeoff"),
            FactStatus::Contradicted
        );
    }
}

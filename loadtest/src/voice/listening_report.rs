//! The listening phase's figures: verdicts counted by voice, hint and reading; decode time
//! per hint against no hint; the clips not taken as meant; and word error of the free
//! answers with and without the exam hint. Pure: it only sums what was decoded.

use std::time::Duration;

use serde_json::{Value, json};
use viva_blueprint::rubric::RubricSet;
use viva_core::voice::listener::spoken_text;

use super::corpus::Clip;
use super::exam_hints;
use super::hinted::Heard;
use super::hinted::{HintVariant, Listening};
use super::items::Entry;
use super::report::{Percentiles, ms, ratio};
use super::verdict::{Counts, Reading, Verdict, judge};
use super::voices::Voice;
use super::words::{Tally, edit_distance, normalise};
use crate::stats::round3;

/// The goal: a hint costs at most this much decode time, relative to none (p50 and mean).
pub const COST_GOAL: f64 = 1.10;

/// Each entry's own sentence taken both ways, as if whisper had heard it exactly.
pub fn as_said(entries: &[Entry]) -> [Counts; 2] {
    Reading::ALL.map(|reading| {
        let mut counts = Counts::default();
        for entry in entries {
            counts.add(entry.right, &judge(&entry.item, &entry.sentence, reading));
        }
        counts
    })
}

/// The spoken answers, with their items, for the report.
pub fn entries_json(entries: &[Entry]) -> Vec<Value> {
    entries
        .iter()
        .map(|e| {
            json!({"entry": e.index, "skill": e.item.skill_id, "seed": e.item.seed,
                   "stem": e.item.stem, "options": e.item.options, "key": e.item.answer,
                   "answer_index": e.item.answer_index, "form": e.form.name(),
                   "said_option": e.said_option, "said": e.sentence, "right": e.right})
        })
        .collect()
}

/// Decode time of one variant.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Cost {
    /// Median.
    pub p50: Duration,
    /// Mean.
    pub mean: Duration,
}

impl Cost {
    /// The median and mean of `times`.
    pub fn of(times: &[Duration]) -> Cost {
        let total: Duration = times.iter().sum();
        let count = u32::try_from(times.len().max(1)).unwrap_or(u32::MAX);
        Cost {
            p50: Percentiles::of(times).p50,
            mean: total / count,
        }
    }

    /// `(p50, mean)` as ratios to `base`'s.
    pub fn ratios(&self, base: &Cost) -> Option<(f64, f64)> {
        let p50 = ratio(ms(self.p50), ms(base.p50))?;
        Some((p50, ratio(ms(self.mean), ms(base.mean))?))
    }
}

/// One model's decodes of the spoken answers, summed.
#[derive(Debug, Clone)]
pub struct Outcome {
    voices: Vec<Voice>,
    variants: Vec<HintVariant>,
    /// By voice, then variant: plain and repair.
    counts: Vec<Vec<[Counts; 2]>>,
    /// Decode times by variant, both voices.
    times: Vec<Vec<Duration>>,
    failures: usize,
    misheard: Vec<Value>,
}

impl Outcome {
    /// Judges every decode of `listening`'s jobs.
    pub fn of(listening: &Listening, heard: &[Heard]) -> Outcome {
        let (voices, variants) = (listening.voices.clone(), listening.variants.clone());
        let mut outcome = Outcome {
            counts: vec![vec![[Counts::default(); 2]; variants.len()]; voices.len()],
            times: vec![Vec::new(); variants.len()],
            failures: 0,
            misheard: Vec::new(),
            voices,
            variants,
        };
        for decode in heard {
            outcome.add(listening, decode);
        }
        outcome
    }

    fn add(&mut self, listening: &Listening, decode: &Heard) {
        let (voice, entry) = listening.locate(decode.job);
        let voice_at = self.voices.iter().position(|v| *v == voice).unwrap_or(0);
        let text = decode.text.as_deref().unwrap_or_default();
        self.failures += usize::from(decode.text.is_err());
        self.times[decode.variant].push(decode.took);
        let verdicts = Reading::ALL.map(|reading| judge(&entry.item, text, reading));
        for (counts, verdict) in self.counts[voice_at][decode.variant]
            .iter_mut()
            .zip(&verdicts)
        {
            counts.add(entry.right, verdict);
        }
        if !verdicts.iter().all(|v| as_meant(entry.right, v)) {
            self.misheard.push(json!({
                "entry": entry.index, "voice": voice.name(),
                "hint": self.variants[decode.variant].name(), "said": entry.sentence,
                "right": entry.right, "heard": decode.text.clone().unwrap_or_else(|e| format!("<{e}>")),
                "plain": verdicts[0].describe(), "repair": verdicts[1].describe(),
                "ms": ms(decode.took).round(),
            }));
        }
    }

    fn costs(&self) -> Vec<Cost> {
        self.times.iter().map(|t| Cost::of(t)).collect()
    }

    fn base(&self) -> Option<Cost> {
        let at = self.variants.iter().position(|v| *v == HintVariant::None)?;
        Some(self.costs()[at])
    }

    /// The summary lines: one per voice and hint, then the decode-time ratios.
    pub fn lines(&self, model: &str) -> Vec<String> {
        let mut lines = Vec::new();
        for (voice, by_variant) in self.voices.iter().zip(&self.counts) {
            for (variant, [plain, repair]) in self.variants.iter().zip(by_variant) {
                lines.push(format!(
                    "listening {model:<8} {:<8} {:<7} plain {} · repair {}",
                    voice.name(),
                    variant.name(),
                    plain.line(),
                    repair.line()
                ));
            }
        }
        lines.push(self.cost_line(model));
        lines
    }

    fn cost_line(&self, model: &str) -> String {
        let Some(base) = self.base() else {
            return format!("listening {model:<8} decode time: no `none` hint to compare with");
        };
        let mut parts = Vec::new();
        let mut over = Vec::new();
        for (variant, cost) in self.variants.iter().zip(self.costs()) {
            let Some((p50, mean)) = cost.ratios(&base).filter(|_| *variant != HintVariant::None)
            else {
                continue;
            };
            parts.push(format!("{} ×{p50:.2} p50 ×{mean:.2} mean", variant.name()));
            if p50.max(mean) > COST_GOAL {
                over.push(variant.name());
            }
        }
        let verdict = match over.is_empty() {
            true => "goal met".to_owned(),
            false => format!("GOAL MISSED by {}", over.join(", ")),
        };
        format!(
            "listening {model:<8} decode time against none (p50 {:.0} ms, mean {:.0} ms): {}; \
             goal ≤ ×{COST_GOAL:.2}: {verdict}{}",
            ms(base.p50),
            ms(base.mean),
            parts.join(", "),
            if self.failures > 0 {
                format!("; {} decodes FAILED", self.failures)
            } else {
                String::new()
            }
        )
    }

    /// As JSON.
    pub fn to_json(&self, model: &str) -> Value {
        let mut judged = Vec::new();
        for (voice, by_variant) in self.voices.iter().zip(&self.counts) {
            for (variant, [plain, repair]) in self.variants.iter().zip(by_variant) {
                judged.push(json!({"voice": voice.name(), "hint": variant.name(),
                                   "plain": plain.to_json(), "repair": repair.to_json()}));
            }
        }
        let base = self.base();
        let cost: Vec<Value> = self
            .variants
            .iter()
            .zip(self.costs())
            .zip(&self.times)
            .map(|((variant, cost), times)| {
                let ratios = base.and_then(|b| cost.ratios(&b));
                json!({"hint": variant.name(), "decodes": times.len(),
                       "p50_ms": round3(ms(cost.p50)), "mean_ms": round3(ms(cost.mean)),
                       "p50_ratio": ratios.map(|r| round3(r.0)),
                       "mean_ratio": ratios.map(|r| round3(r.1))})
            })
            .collect();
        json!({"model": model, "failures": self.failures, "judged": judged, "cost": cost,
               "misheard": self.misheard})
    }
}

/// Whether `verdict` takes an answer that was `right` (or not) as meant.
fn as_meant(right: bool, verdict: &Verdict) -> bool {
    matches!(
        (right, verdict),
        (true, Verdict::Right(_)) | (false, Verdict::Wrong(_))
    )
}

/// The free answers decoded with no hint (variant 0) and the exam hint (variant 1).
#[derive(Debug, Clone, Default)]
pub struct ExamOutcome {
    tallies: [Tally; 2],
    times: [Vec<Duration>; 2],
    heard: Vec<(usize, usize, String)>,
}

impl ExamOutcome {
    /// Word errors of each decode of `clips` (jobs in clip order).
    pub fn of(clips: &[Clip], heard: &[Heard]) -> ExamOutcome {
        let mut outcome = ExamOutcome::default();
        for decode in heard {
            let (Some(clip), Some(tally)) = (
                clips.get(decode.job),
                outcome.tallies.get_mut(decode.variant),
            ) else {
                continue;
            };
            let text = decode.text.as_deref().unwrap_or_default();
            let answered = spoken_text(text).unwrap_or_default();
            tally.add(clip.text, &answered);
            outcome.times[decode.variant].push(decode.took);
            outcome.heard.push((clip.index, decode.variant, answered));
        }
        outcome
    }

    /// `listening tiny.en exam answers: WER 12.0% with no hint → 9.5% with the exam hint …`.
    pub fn line(&self, model: &str) -> String {
        let [none, hinted] = &self.tallies;
        let ratios = Cost::of(&self.times[1]).ratios(&Cost::of(&self.times[0]));
        format!(
            "listening {model:<8} exam answers: WER {:.1}% with no hint → {:.1}% with the \
             exam hint ({} → {} errors in {} words, {} clips); decode time {}",
            none.wer() * 100.0,
            hinted.wer() * 100.0,
            none.errors,
            hinted.errors,
            none.words,
            none.clips,
            ratios.map_or("n/a".to_owned(), |(p50, mean)| format!(
                "×{p50:.2} p50 ×{mean:.2} mean"
            )),
        )
    }

    /// As JSON, with each clip's element, question, hint and both transcripts.
    pub fn to_json(&self, clips: &[Clip], rubrics: &RubricSet) -> Value {
        let rows: Vec<Value> = clips
            .iter()
            .map(|clip| self.clip_json(clip, rubrics))
            .collect();
        let tally = |t: &Tally| super::setup::tally_json(t);
        let ratios = Cost::of(&self.times[1]).ratios(&Cost::of(&self.times[0]));
        json!({"none": tally(&self.tallies[0]), "exam_hint": tally(&self.tallies[1]),
               "p50_ratio": ratios.map(|r| round3(r.0)), "mean_ratio": ratios.map(|r| round3(r.1)),
               "clips": rows})
    }

    fn clip_json(&self, clip: &Clip, rubrics: &RubricSet) -> Value {
        let heard = |variant: usize| {
            self.heard
                .iter()
                .find(|(index, v, _)| *index == clip.index && *v == variant)
                .map(|(_, _, text)| text.clone())
                .unwrap_or_default()
        };
        let errors = |text: &str| edit_distance(&normalise(clip.text), &normalise(text));
        let (none, hinted) = (heard(0), heard(1));
        let (element, question) = exam_hints::question(clip.index).unwrap_or_default();
        json!({"clip": clip.index, "said": clip.text, "element": element, "question": question,
               "rubric_question": exam_hints::is_rubric_question(rubrics, element, question),
               "hint": exam_hints::hint(rubrics, clip.index),
               "heard_none": none, "errors_none": errors(&none),
               "heard_exam_hint": hinted, "errors_exam_hint": errors(&hinted)})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms_of(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn cost_is_median_and_mean_and_compares_to_a_base() {
        let base = Cost::of(&[ms_of(100), ms_of(200), ms_of(300)]);
        assert_eq!(base.p50, ms_of(200));
        assert_eq!(base.mean, ms_of(200));
        let hinted = Cost::of(&[ms_of(110), ms_of(220), ms_of(420)]);
        let (p50, mean) = hinted.ratios(&base).unwrap_or_default();
        assert!((p50 - 1.1).abs() < 1e-9 && (mean - 1.25).abs() < 1e-9);
        assert_eq!(Cost::of(&[]), Cost::default());
        assert_eq!(hinted.ratios(&Cost::default()), None);
    }

    #[test]
    fn only_a_verdict_matching_the_intent_is_as_meant() {
        assert!(as_meant(true, &Verdict::Right("42".into())));
        assert!(as_meant(false, &Verdict::Wrong("52".into())));
        assert!(!as_meant(false, &Verdict::Right("42".into())));
        assert!(!as_meant(true, &Verdict::AskedAgain("not_read")));
    }
}

//! The think-aloud phase: does adaptive end of turn cut anyone off? Whole answers (the
//! examiner benchmark's satisfactory exam answers for elements with a rubric, and the
//! listening phase's spoken item answers) are said by festival with one pause inside, at a
//! quarter, a half and three quarters of their words (1.5, 2 and 2.5 s: shorter than the
//! 3 s thinking pause, longer than the 1.2 s pause after a whole answer), and once with no
//! pause inside. Each is played through the server's own listener (earshot, 40 ms frames)
//! in process; every pause the listener hands out is decoded at once by whisper and read by
//! the server's own `answer_is_complete`, as if the decode took no time, which is the
//! earliest a server could end the turn and so the hardest case for cut-offs. A premature
//! cut-off is a turn that ended before the last part of the answer began.
//!
//! With the end-of-turn model installed (`--turn-model`), each answer is played again under
//! the model's rules (`turn_rules`): the model alone, and the model with the words not
//! trailing off; the model's cost per pause (features and inference) is reported too.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use viva_blueprint::answer_set::{Label, LabelledAnswer, load_answers};
use viva_blueprint::generate::Item;
use viva_core::base::Listening;
use viva_core::exam::acs::{AcsCatalog, AcsLibrary, Rating};
use viva_core::examiner::EmbeddedExaminer;
use viva_core::voice::listener::{Heard, Listener};
use viva_speech::model::Model;

use super::BenchError;
use super::blueprints;
use super::items;
use super::report::Percentiles;
use super::setup::Setup;
use super::turn_rules::{Judges, Rule, load_model};
use super::voices::{self, Voice};

const RATE: usize = 16_000;
/// What the web client sends: 40 ms frames.
const FRAME: usize = RATE * 40 / 1000;
/// The thinking pause of the run (the server's default).
const THINKING_PAUSE: Duration = Duration::from_secs(3);
/// Silence after the last part: longer than the thinking pause.
const CLOSING_SILENCE_MS: usize = 3_600;
/// The pauses put inside answers, in turn.
const INNER_PAUSES_MS: [usize; 3] = [1_500, 2_000, 2_500];

/// What is being answered.
#[derive(Debug, Clone)]
enum Question {
    /// An ACS element of the private pilot oral.
    Exam { element: String },
    /// A generated item.
    Item { item: Box<Item> },
}

/// One answer as said: its parts, with a pause between each two.
#[derive(Debug, Clone)]
struct Variant {
    question: Question,
    parts: Vec<String>,
    pause_ms: usize,
}

/// How one variant's turn ended under one rule.
#[derive(Debug, Clone)]
struct Played {
    rule: Rule,
    /// The turn ended before the last part began.
    cut_off: bool,
    /// A pause handed out read as a whole answer, and the turn ended on it.
    ended_early: bool,
    /// End of the last part's audio → end of the turn.
    after_speech: Duration,
    /// What the decodes of the pauses read.
    heard: Vec<String>,
}

/// The word positions a pause goes after: a quarter, half and three quarters in, each at
/// least one word from either end.
fn pause_points(words: usize) -> Vec<usize> {
    let mut points: Vec<usize> = [words / 4, words / 2, words * 3 / 4]
        .into_iter()
        .filter(|&at| at >= 1 && at < words)
        .collect();
    points.dedup();
    points
}

/// The answer said whole, then with a pause at each point.
fn variants_of(question: &Question, sentence: &str, first_pause: usize) -> Vec<Variant> {
    let words: Vec<&str> = sentence.split_whitespace().collect();
    let whole = Variant {
        question: question.clone(),
        parts: vec![sentence.to_owned()],
        pause_ms: 0,
    };
    let paused = pause_points(words.len())
        .into_iter()
        .enumerate()
        .map(|(k, at)| Variant {
            question: question.clone(),
            parts: vec![words[..at].join(" "), words[at..].join(" ")],
            pause_ms: INNER_PAUSES_MS[(first_pause + k) % INNER_PAUSES_MS.len()],
        });
    std::iter::once(whole).chain(paused).collect()
}

/// Runs the phase.
pub async fn think_aloud_phase(setup: &mut Setup) -> Result<Value, BenchError> {
    let options = setup.options.clone();
    let model = options.model_path(&options.server_model);
    let turn_model = options.turn_model_path();
    let (variants, played, costs) =
        tokio::task::spawn_blocking(move || -> Result<_, BenchError> {
            let library = Arc::new(acs_library(&options.blueprints)?);
            let variants = build_set(&options, &library)?;
            let (played, costs) = play_all(
                &model,
                &turn_model,
                &options.corpus_dir,
                &variants,
                &library,
            )?;
            Ok((variants, played, costs))
        })
        .await
        .map_err(|err| BenchError::Whisper(format!("think-aloud task: {err}")))??;
    let mut report = summarise(setup, &variants, &played);
    if let Some(costs) = costs {
        report["model_cost"] = model_cost(setup, &costs, &variants);
    }
    Ok(report)
}

/// The model's cost per pause (features and inference, one thread), and how often it runs:
/// pauses judged per answer.
fn model_cost(setup: &mut Setup, costs: &[Duration], variants: &[Variant]) -> Value {
    let per_answer = costs.len() as f64 / variants.len().max(1) as f64;
    let line = Percentiles::of(costs).line();
    setup.say(format!(
        "end-of-turn model, per pause (features + inference, 1 thread): {line}; {} pauses \
         judged in {} answers ({per_answer:.2} per answer)",
        costs.len(),
        variants.len()
    ));
    json!({"per_pause": Percentiles::of(costs).to_json(), "pauses": costs.len(),
           "answers": variants.len(), "pauses_per_answer": per_answer})
}

fn acs_library(blueprints: &Path) -> Result<AcsLibrary, BenchError> {
    let load = |rating: Rating| -> Result<AcsCatalog, BenchError> {
        let name = rating.as_str();
        let read = |file: String| {
            let path = blueprints.join("acs").join(file);
            std::fs::read_to_string(&path)
                .map_err(BenchError::io(format!("reading {}", path.display())))
        };
        let elements = read(format!("acs-{name}-airplane.json"))?;
        let tasks = read(format!("acs-{name}-airplane-tasks.json"))?;
        AcsCatalog::from_json(rating, &elements, &tasks)
            .map_err(|err| BenchError::Corpus(format!("{name} ACS: {err}")))
    };
    let rubrics = blueprints::load_rubrics(blueprints)?;
    Ok(AcsLibrary::new(load(Rating::Private)?, load(Rating::Commercial)?).with_rubrics(rubrics))
}

/// Satisfactory exam answers for elements with a rubric, and spoken item answers said as
/// values, `--think-aloud-answers` of each, spread over their sets.
fn build_set(
    options: &super::options::Options,
    library: &AcsLibrary,
) -> Result<Vec<Variant>, BenchError> {
    let count = options.think_aloud_answers.max(1);
    let answers = exam_answers(&options.exam_answers, library)?;
    let every = (answers.len() / count).max(1);
    let mut variants = Vec::new();
    for (k, answer) in answers.iter().step_by(every).take(count).enumerate() {
        let question = Question::Exam {
            element: answer.element.clone(),
        };
        variants.extend(variants_of(&question, &answer.answer, k));
    }
    let skills = blueprints::load_skills(&options.blueprints)?;
    let entries = items::build(&skills, options.listening_seed, None)?;
    let values: Vec<_> = entries
        .into_iter()
        .filter(|e| e.form == items::Form::Value)
        .collect();
    let every = (values.len() / count).max(1);
    for (k, entry) in values.iter().step_by(every).take(count).enumerate() {
        let question = Question::Item {
            item: Box::new(entry.item.clone()),
        };
        variants.extend(variants_of(&question, &entry.sentence, k));
    }
    Ok(variants)
}

fn exam_answers(dir: &Path, library: &AcsLibrary) -> Result<Vec<LabelledAnswer>, BenchError> {
    let sources = blueprints::read_sources(dir)?;
    let answers =
        load_answers(&sources).map_err(|errors| blueprints::load_errors("answer set", &errors))?;
    Ok(answers
        .into_iter()
        .filter(|a| a.label == Label::Satisfactory && library.prepared(&a.element).is_some())
        .filter(|a| library.rating_of(&a.element) == Some(Rating::Private))
        .collect())
}

/// Plays every variant under every rule (the model's only when it is installed); returns
/// how each turn ended, rule by rule for each variant, and the model's costs per pause.
fn play_all(
    model: &Path,
    turn_model: &Path,
    corpus_dir: &Path,
    variants: &[Variant],
    library: &Arc<AcsLibrary>,
) -> Result<(Vec<Played>, Option<Vec<Duration>>), BenchError> {
    let model = Model::load(model)?;
    let mut state = model.state()?;
    let examiner = EmbeddedExaminer::new(library.clone());
    let smart_turn = load_model(turn_model)?;
    let rules = Rule::all(smart_turn.is_some());
    let mut judges = Judges::new(&mut state, &examiner, smart_turn);
    let dir = corpus_dir.join("think-aloud");
    let mut played = Vec::new();
    for variant in variants {
        let parts = variant
            .parts
            .iter()
            .map(|part| voices::clip(&dir, Voice::Festival, part))
            .collect::<Result<Vec<_>, _>>()?;
        judges.next_answer();
        for &rule in &rules {
            played.push(play(variant, &parts, &mut judges, rule));
        }
    }
    let costs = judges.model.is_some().then(|| judges.model_costs.clone());
    Ok((played, costs))
}

/// Plays one variant through a listener, deciding every pause as the server would under
/// `rule`.
fn play(variant: &Variant, parts: &[Vec<i16>], judges: &mut Judges<'_>, rule: Rule) -> Played {
    let pause = vec![0_i16; variant.pause_ms * RATE / 1000];
    let mut audio = Vec::new();
    let mut last_start = 0;
    for (k, part) in parts.iter().enumerate() {
        if k > 0 {
            audio.extend_from_slice(&pause);
        }
        last_start = audio.len();
        audio.extend_from_slice(part);
    }
    let speech_end = audio.len();
    audio.resize(speech_end + CLOSING_SILENCE_MS * RATE / 1000, 0);
    let mut listener = Listener::new();
    listener.set_thinking_pause(THINKING_PAUSE);
    let open = listening(&variant.question);
    let mut heard = Vec::new();
    let mut early = false;
    for (k, frame) in audio.chunks(FRAME).enumerate() {
        let at = (k + 1) * FRAME;
        let mut events: VecDeque<Heard> = listener.feed(frame).into();
        while let Some(event) = events.pop_front() {
            match event {
                Heard::SilenceBegan(turn) => {
                    let (pause, probability) = judges.judge(&turn, &open);
                    heard.push(pause.line(probability));
                    if let Some(short) = rule.early_pause(&pause) {
                        early = true;
                        events.extend(listener.end_early_after(short));
                    }
                }
                Heard::SpeechResumed => early = false,
                Heard::TurnEnded(_) => {
                    return Played {
                        rule,
                        cut_off: at < last_start,
                        ended_early: early,
                        after_speech: samples_to_duration(at.saturating_sub(speech_end)),
                        heard,
                    };
                }
                Heard::PartialDue => {}
            }
        }
    }
    Played {
        rule,
        cut_off: false,
        ended_early: false,
        after_speech: samples_to_duration(audio.len() - speech_end),
        heard,
    }
}

fn samples_to_duration(samples: usize) -> Duration {
    Duration::from_secs_f64(samples as f64 / RATE as f64)
}

fn listening(question: &Question) -> Listening<'_> {
    match question {
        Question::Exam { element } => Listening::Exam {
            question_id: "q1",
            question: "",
            element_code: element,
            rating: Rating::Private,
        },
        Question::Item { item } => Listening::Item {
            question_id: "i1".to_owned(),
            item,
        },
    }
}

/// The summary of each rule, under its key.
fn summarise(setup: &mut Setup, variants: &[Variant], played: &[Played]) -> Value {
    let mut report = json!({});
    for rule in Rule::all(true) {
        if !played.iter().any(|p| p.rule == rule) {
            continue;
        }
        let of_rule: Vec<Played> = played.iter().filter(|p| p.rule == rule).cloned().collect();
        report[rule.key()] = summarise_rule(setup, rule, variants, &of_rule);
    }
    report
}

fn summarise_rule(setup: &mut Setup, rule: Rule, variants: &[Variant], played: &[Played]) -> Value {
    let pairs: Vec<(&Variant, &Played)> = variants.iter().zip(played).collect();
    let exam = kind_summary(&pairs, true);
    let items = kind_summary(&pairs, false);
    for (name, summary) in [("items", &items), ("exam answers", &exam)] {
        setup.say(format!(
            "think-aloud, rule {}, {name}: {} of {} answers with a pause inside cut off; {} of \
             {} whole answers ended after the short pause, end of speech → end of turn {} (the \
             others at the thinking pause: {})",
            rule.key(),
            summary["premature_cut_offs"].as_array().map_or(0, Vec::len),
            summary["answers_with_pause"],
            summary["whole_ended_early"],
            summary["whole_answers"],
            summary["early_line"].as_str().unwrap_or_default(),
            summary["waited_line"].as_str().unwrap_or_default(),
        ));
    }
    let rows: Vec<Value> = pairs
        .iter()
        .map(|(v, p)| {
            json!({"exam": is_exam(v), "parts": v.parts, "pause_ms": v.pause_ms,
                   "cut_off": p.cut_off, "ended_early": p.ended_early,
                   "after_speech_ms": p.after_speech.as_millis() as u64, "heard": p.heard})
        })
        .collect();
    json!({"items": items, "exam": exam, "variants": rows})
}

fn is_exam(variant: &Variant) -> bool {
    matches!(variant.question, Question::Exam { .. })
}

/// Cut-offs among the answers with a pause inside, and early ends among whole answers, for
/// exam answers or item answers.
fn kind_summary(pairs: &[(&Variant, &Played)], exam: bool) -> Value {
    let of_kind: Vec<_> = pairs.iter().filter(|(v, _)| is_exam(v) == exam).collect();
    let paused: Vec<_> = of_kind.iter().filter(|(v, _)| v.pause_ms > 0).collect();
    let whole: Vec<_> = of_kind.iter().filter(|(v, _)| v.pause_ms == 0).collect();
    let cut_offs: Vec<Value> = paused
        .iter()
        .filter(|(_, p)| p.cut_off)
        .map(|(v, p)| json!({"parts": v.parts, "pause_ms": v.pause_ms, "heard": p.heard}))
        .collect();
    let after = |early: bool| -> Vec<Duration> {
        whole
            .iter()
            .filter(|(_, p)| p.ended_early == early)
            .map(|(_, p)| p.after_speech)
            .collect()
    };
    let (early, waited) = (after(true), after(false));
    json!({"answers_with_pause": paused.len(), "premature_cut_offs": cut_offs,
           "whole_answers": whole.len(), "whole_ended_early": early.len(),
           "ended_early_after_speech": Percentiles::of(&early).to_json(),
           "waited_after_speech": Percentiles::of(&waited).to_json(),
           "early_line": Percentiles::of(&early).line(),
           "waited_line": Percentiles::of(&waited).line()})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pauses_fall_inside_the_answer_never_at_its_ends() {
        assert_eq!(pause_points(8), vec![2, 4, 6]);
        assert_eq!(pause_points(2), vec![1]);
        assert!(pause_points(1).is_empty());
        assert_eq!(pause_points(3), vec![1, 2]);
    }

    #[test]
    fn each_answer_is_said_whole_and_once_per_pause_point() {
        let question = Question::Exam {
            element: "PA.I.B.K1".to_owned(),
        };
        let variants = variants_of(&question, "one two three four five six seven eight", 1);
        assert_eq!(variants.len(), 4);
        assert_eq!(variants[0].pause_ms, 0);
        assert_eq!(
            variants[1].parts,
            vec!["one two", "three four five six seven eight"]
        );
        assert_eq!(variants[1].pause_ms, 2_000);
        assert_eq!(variants[3].pause_ms, 1_500);
    }
}

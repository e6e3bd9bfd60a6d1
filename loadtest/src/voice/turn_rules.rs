//! The end-of-turn rules the think-aloud phase compares, and what each pause is found to be
//! (cached per answer, so every rule reads the same decode and the same model verdict):
//! the words read as a whole answer (`answer_is_complete`, the adaptive end of turn of
//! issue 22), the Smart Turn model finds the pause complete, or both the model and the words
//! not trailing off (`sounds_unfinished`).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use viva_core::base::Listening;
use viva_core::examiner::EmbeddedExaminer;
use viva_core::voice::complete::{answer_is_complete, sounds_unfinished};
use viva_core::voice::end_of_turn::EndOfTurn;
use viva_core::voice::{COMPLETE_ANSWER_PAUSE, END_OF_TURN_PAUSE};
use viva_speech::end_of_turn::SmartTurn;
use viva_speech::model::WhisperState;
use viva_speech::stt::decode_with_prompt;

use super::BenchError;

/// How a pause may end a turn early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// The words read as a whole answer: the 1.2 s pause.
    Words,
    /// The model finds the pause complete: the short end-of-turn pause.
    Model,
    /// The model finds it complete and the words do not trail off: the short pause.
    ModelAndWords,
}

impl Rule {
    /// The rules to run: the model's only when a model is loaded.
    pub fn all(model: bool) -> Vec<Rule> {
        match model {
            true => vec![Rule::Words, Rule::Model, Rule::ModelAndWords],
            false => vec![Rule::Words],
        }
    }

    /// Its key in the report.
    pub fn key(self) -> &'static str {
        match self {
            Rule::Words => "words",
            Rule::Model => "model",
            Rule::ModelAndWords => "model_and_words",
        }
    }

    /// The pause that ends the turn when the rule holds for `pause`; `None` when it does not.
    pub fn early_pause(self, pause: &Pause) -> Option<Duration> {
        let model = pause.verdict == Some(EndOfTurn::Complete);
        let holds = match self {
            Rule::Words => pause.whole,
            Rule::Model => model,
            Rule::ModelAndWords => model && !sounds_unfinished(&pause.text),
        };
        let short = match self {
            Rule::Words => COMPLETE_ANSWER_PAUSE,
            Rule::Model | Rule::ModelAndWords => END_OF_TURN_PAUSE,
        };
        holds.then_some(short)
    }
}

/// What one pause's audio was found to be.
#[derive(Debug, Clone)]
pub struct Pause {
    /// tiny.en's reading.
    pub text: String,
    /// It reads as a whole answer.
    pub whole: bool,
    /// The model's verdict, when a model is loaded.
    pub verdict: Option<EndOfTurn>,
}

impl Pause {
    /// As the report shows it: `[whole] [model 0.93] text`.
    pub fn line(&self, probability: Option<f32>) -> String {
        let whole = if self.whole { "[whole] " } else { "" };
        let model = probability.map_or(String::new(), |p| format!("[model {p:.2}] "));
        format!("{whole}{model}{}", self.text)
    }
}

/// Decodes and judges pauses, once per audio.
pub struct Judges<'a> {
    /// Decodes each pause.
    pub state: &'a mut WhisperState,
    /// Reads a decode as a whole answer or not.
    pub examiner: &'a EmbeddedExaminer,
    /// The end-of-turn model, when installed.
    pub model: Option<SmartTurn>,
    /// Features and inference of each judgement.
    pub model_costs: Vec<Duration>,
    /// The answer's pauses, by audio length.
    seen: HashMap<usize, (Pause, Option<f32>)>,
}

impl<'a> Judges<'a> {
    /// Judges with these parts, having seen no pause yet.
    pub fn new(
        state: &'a mut WhisperState,
        examiner: &'a EmbeddedExaminer,
        model: Option<SmartTurn>,
    ) -> Judges<'a> {
        Judges {
            state,
            examiner,
            model,
            model_costs: Vec::new(),
            seen: HashMap::new(),
        }
    }

    /// A new answer: forgets the last one's pauses.
    pub fn next_answer(&mut self) {
        self.seen.clear();
    }

    /// What the pause ending with `turn` is, and the model's probability.
    pub fn judge(&mut self, turn: &[i16], open: &Listening<'_>) -> (Pause, Option<f32>) {
        if let Some(known) = self.seen.get(&turn.len()) {
            return known.clone();
        }
        let abort = Arc::new(AtomicBool::new(false));
        let text = decode_with_prompt(self.state, turn, &[], &abort).unwrap_or_default();
        let whole = answer_is_complete(&text, open, self.examiner);
        let probability = self.model.as_mut().and_then(|model| {
            let started = Instant::now();
            let p = model.probability(turn).ok();
            self.model_costs.push(started.elapsed());
            p
        });
        let pause = Pause {
            text,
            whole,
            verdict: probability.map(EndOfTurn::from_probability),
        };
        self.seen.insert(turn.len(), (pause.clone(), probability));
        (pause, probability)
    }
}

/// Loads the model when its file is there (ONNX Runtime beside it).
pub fn load_model(path: &Path) -> Result<Option<SmartTurn>, BenchError> {
    if !path.is_file() {
        return Ok(None);
    }
    let folder = path.parent().unwrap_or(Path::new("."));
    let runtime = viva_speech::onnx::runtime_in(folder);
    SmartTurn::load(&runtime, path)
        .map(Some)
        .map_err(|err| BenchError::Whisper(format!("the end-of-turn model: {err}")))
}

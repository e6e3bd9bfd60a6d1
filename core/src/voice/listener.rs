//! `Listener`: voice activity (earshot, 16 ms frames) and turn-taking over a session's audio.
//! Pure and deterministic: time is counted in samples at 16 kHz, so tests need no clock.
//!
//! A turn starts when most of the last 8 frames are speech, keeps a short pre-roll, and ends
//! only after silence strictly longer than the thinking pause (3 s by default), longer still
//! when the latest partial transcript ends in a filler ("um", "let me think"). A turn with
//! less than a quarter second of speech in all (a click, a noise blip), or with fewer than two
//! frames that are surely speech (noise scores high but never that high), is dropped unheard.
//! Pauses inside a turn are kept only up to 0.6 s in the audio handed to the decoder.
//!
//! Speculation: as soon as a pause inside a turn is [`TAIL`] long, the listener hands out
//! the audio the turn would end with if nobody spoke again ([`Heard::SilenceBegan`]), so it
//! can be decoded during the pause; speech after it ([`Heard::SpeechResumed`]) makes that
//! decode worthless, and the turn's end carries the same audio when it was not.

use std::collections::VecDeque;
use std::time::Duration;

/// Samples per VAD frame (16 ms at 16 kHz), as earshot takes them.
pub const FRAME: usize = 256;
const RATE: usize = 16_000;
/// A frame scoring at least this is speech.
const SPEECH_SCORE: f32 = 0.5;
/// A frame scoring at least this is surely speech: white noise peaked at 0.85 in 120 runs.
const CONFIDENT_SCORE: f32 = 0.9;
/// A turn needs this many surely-speech frames, or it is noise.
const CONFIDENT_FRAMES: usize = 2;
/// Onset: this many of the last [`ONSET_WINDOW`] frames are speech.
const ONSET_FRAMES: usize = 6;
const ONSET_WINDOW: usize = 8;
/// A turn needs this much speech in all, or it is dropped (noise blips, clicks).
const MIN_SPEECH: Duration = Duration::from_millis(250);
/// Audio kept from before the onset.
const PRE_ROLL: Duration = Duration::from_millis(300);
/// Silence kept after the last speech when a turn ends.
const TAIL: Duration = Duration::from_millis(200);
/// The longest pause kept inside a turn's audio: whisper drops words after long silences
/// (measured: "let me think", 4 s, then the answer, came back as "let me think" alone), and
/// silence costs decoding time for nothing.
const KEPT_PAUSE: Duration = Duration::from_millis(600);
/// A partial is due after each second of turn audio, while the candidate speaks.
const PARTIAL_EVERY: Duration = Duration::from_secs(1);
/// Extra pause allowed when the latest partial ends in a filler.
const FILLER_GRACE: Duration = Duration::from_secs(2);
/// A turn ends at this length whatever happens.
const MAX_TURN: Duration = Duration::from_secs(60);

fn samples(duration: Duration) -> usize {
    (duration.as_millis() as usize) * RATE / 1000
}

/// What the listener noticed in the audio fed to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Heard {
    /// The candidate is speaking and a second more was heard: decode a preview.
    PartialDue,
    /// A pause began inside the turn: its audio as the turn would end now (the same samples
    /// [`Heard::TurnEnded`] carries if no speech follows), to decode ahead of the end.
    SilenceBegan(Vec<i16>),
    /// Speech came after [`Heard::SilenceBegan`]: the audio it handed out is not the end.
    SpeechResumed,
    /// The turn ended; its audio.
    TurnEnded(Vec<i16>),
}

/// Scores frames: earshot, or a fixed sequence in tests.
pub trait FrameScorer: Send {
    /// The speech score of one [`FRAME`]-sample frame, 0 to 1.
    fn score(&mut self, frame: &[i16]) -> f32;
    /// Forgets the audio heard so far.
    fn reset(&mut self);
}

struct Earshot(Box<earshot::Detector>);

impl FrameScorer for Earshot {
    fn score(&mut self, frame: &[i16]) -> f32 {
        self.0.predict_i16(frame)
    }

    fn reset(&mut self) {
        self.0.reset();
    }
}

/// Voice activity and turn-taking for one session.
pub struct Listener {
    scorer: Box<dyn FrameScorer>,
    pending: Vec<i16>,
    recent: VecDeque<bool>,
    pre_roll: VecDeque<i16>,
    turn: Option<Turn>,
    thinking_pause: Duration,
    tail_is_filler: bool,
}

/// The turn being heard.
#[derive(Debug, Default)]
struct Turn {
    audio: Vec<i16>,
    /// Samples of `audio` up to the end of the last speech frame.
    last_speech_end: usize,
    /// Samples of silence heard since the last speech frame (only some of them kept).
    silence: usize,
    /// Samples heard since the onset, kept or not (and wall-clock gaps, see [`Listener::note_gap`]).
    heard: usize,
    /// Silence already counted from a wall-clock gap that audio arriving late may still
    /// cover: such audio is not counted twice.
    owed: usize,
    speech_samples: usize,
    confident_frames: usize,
    partials_due: usize,
    /// Whether this pause's audio was handed out ([`Heard::SilenceBegan`]).
    speculated: bool,
    /// The silence, in samples, that ends this pause because its audio reads as a whole
    /// answer ([`Listener::end_early_after`]); speech clears it.
    early_end: Option<usize>,
}

impl Turn {
    /// Adds a frame: speech is kept, and silence up to [`KEPT_PAUSE`] after the last speech.
    fn hear(&mut self, frame: &[i16], score: f32) {
        let counted_already = self.owed >= FRAME;
        self.owed = self.owed.saturating_sub(FRAME);
        if !counted_already {
            self.heard += FRAME;
        }
        if score >= CONFIDENT_SCORE {
            self.confident_frames += 1;
        }
        if score >= SPEECH_SCORE {
            self.audio.extend_from_slice(frame);
            self.last_speech_end = self.audio.len();
            self.speech_samples += FRAME;
            self.silence = 0;
            self.owed = 0;
            self.early_end = None;
            return;
        }
        if !counted_already {
            self.silence += FRAME;
        }
        if self.silence <= samples(KEPT_PAUSE) {
            self.audio.extend_from_slice(frame);
        }
    }

    /// Where the turn's audio ends if it ends now: a short tail after the last speech.
    fn end(&self) -> usize {
        (self.last_speech_end + samples(TAIL)).min(self.audio.len())
    }

    /// What a frame just heard means for speculation: a pause as long as the tail hands out
    /// the turn's audio as it would end (once per pause); speech after it takes that back.
    fn speculate(&mut self) -> Option<Heard> {
        if self.speculated && self.silence == 0 {
            self.speculated = false;
            return Some(Heard::SpeechResumed);
        }
        if self.speculated || self.silence < samples(TAIL) || !self.is_speech() {
            return None;
        }
        self.speculated = true;
        Some(Heard::SilenceBegan(self.audio[..self.end()].to_vec()))
    }

    /// Whether enough was heard for this to be an answer rather than noise or a click.
    fn is_speech(&self) -> bool {
        self.speech_samples >= samples(MIN_SPEECH) && self.confident_frames >= CONFIDENT_FRAMES
    }
}

impl Default for Listener {
    fn default() -> Self {
        Listener::new()
    }
}

impl Listener {
    /// A listener with earshot's bundled model and a 3 s thinking pause.
    pub fn new() -> Listener {
        Listener::with_scorer(Box::new(Earshot(earshot::Detector::default_boxed())))
    }

    /// A listener over any frame scorer.
    pub fn with_scorer(scorer: Box<dyn FrameScorer>) -> Listener {
        Listener {
            scorer,
            pending: Vec::with_capacity(FRAME),
            recent: VecDeque::with_capacity(ONSET_WINDOW),
            pre_roll: VecDeque::with_capacity(samples(PRE_ROLL)),
            turn: None,
            thinking_pause: Duration::from_secs(3),
            tail_is_filler: false,
        }
    }

    /// The silence a candidate may keep before the turn ends.
    pub fn set_thinking_pause(&mut self, pause: Duration) {
        self.thinking_pause = pause;
    }

    /// Feeds samples; returns what was heard.
    pub fn feed(&mut self, audio: &[i16]) -> Vec<Heard> {
        let mut heard = Vec::new();
        for &sample in audio {
            self.pending.push(sample);
            if self.pending.len() == FRAME {
                let frame = std::mem::take(&mut self.pending);
                heard.extend(self.on_frame(&frame));
                self.pending = frame;
                self.pending.clear();
            }
        }
        heard
    }

    fn on_frame(&mut self, frame: &[i16]) -> Option<Heard> {
        let score = self.scorer.score(frame);
        let speech = score >= SPEECH_SCORE;
        if self.recent.len() == ONSET_WINDOW {
            self.recent.pop_front();
        }
        self.recent.push_back(speech);
        match &mut self.turn {
            None => self.listen_for_onset(frame, score),
            Some(_) => self.continue_turn(frame, score),
        }
    }

    fn listen_for_onset(&mut self, frame: &[i16], score: f32) -> Option<Heard> {
        let speaking = self.recent.iter().filter(|s| **s).count() >= ONSET_FRAMES;
        if !speaking {
            keep_last(&mut self.pre_roll, frame, samples(PRE_ROLL));
            return None;
        }
        let mut audio: Vec<i16> = self.pre_roll.drain(..).collect();
        audio.extend_from_slice(frame);
        let speech_samples = ONSET_FRAMES * FRAME;
        self.turn = Some(Turn {
            last_speech_end: audio.len(),
            silence: 0,
            heard: audio.len(),
            owed: 0,
            audio,
            speech_samples,
            confident_frames: usize::from(score >= CONFIDENT_SCORE),
            partials_due: 0,
            speculated: false,
            early_end: None,
        });
        None
    }

    fn continue_turn(&mut self, frame: &[i16], score: f32) -> Option<Heard> {
        let allowed = samples(self.allowed_pause());
        let turn = self.turn.as_mut()?;
        turn.hear(frame, score);
        let silence = turn.silence;
        if self.turn_is_over(allowed) {
            return self.end_turn().map(Heard::TurnEnded);
        }
        let turn = self.turn.as_mut()?;
        if let Some(speculation) = turn.speculate() {
            return Some(speculation);
        }
        let seconds = turn.audio.len() / samples(PARTIAL_EVERY);
        if seconds > turn.partials_due && silence < samples(PARTIAL_EVERY) && turn.is_speech() {
            turn.partials_due = seconds;
            return Some(Heard::PartialDue);
        }
        None
    }

    fn turn_is_over(&self, allowed: usize) -> bool {
        self.turn.as_ref().is_some_and(|turn| {
            let allowed = turn.early_end.map_or(allowed, |early| early.min(allowed));
            turn.silence > allowed || turn.heard >= samples(MAX_TURN)
        })
    }

    /// The audio of this pause ([`Heard::SilenceBegan`]) reads as a whole answer: the turn
    /// ends once the pause is `pause` long (never later than the thinking pause), unless
    /// speech comes first. Returns the turn's end when the pause is that long already; does
    /// nothing when no pause's audio is out (speech resumed since).
    pub fn end_early_after(&mut self, pause: Duration) -> Option<Heard> {
        let allowed = samples(self.allowed_pause());
        let turn = self.turn.as_mut().filter(|turn| turn.speculated)?;
        let early = samples(pause);
        turn.early_end = Some(turn.early_end.map_or(early, |known| known.min(early)));
        if self.turn_is_over(allowed) {
            return self.end_turn().map(Heard::TurnEnded);
        }
        None
    }

    /// No audio arrived for `gap` more while a turn is open: a client that sends audio only
    /// while someone speaks stops sending when the candidate pauses, and the pause must still
    /// end the turn. The gap counts as silence; audio that arrives later for the same span (a
    /// client that sends in bursts) is not counted again, and speech cancels it.
    pub fn note_gap(&mut self, gap: Duration) -> Option<Heard> {
        let allowed = samples(self.allowed_pause());
        let turn = self.turn.as_mut()?;
        let gap = samples(gap);
        turn.silence += gap;
        turn.heard += gap;
        turn.owed += gap;
        if self.turn_is_over(allowed) {
            return self.end_turn().map(Heard::TurnEnded);
        }
        self.turn.as_mut()?.speculate()
    }

    /// Whether a turn is being heard.
    pub fn in_turn(&self) -> bool {
        self.turn.is_some()
    }

    /// The pause that ends the turn unless something ends it early: the thinking pause,
    /// longer after a trailing filler.
    pub fn allowed_pause(&self) -> Duration {
        match self.tail_is_filler {
            true => self.thinking_pause + FILLER_GRACE,
            false => self.thinking_pause,
        }
    }

    /// Ends the turn: its audio up to a short tail after the last speech, or `None` (and
    /// nothing kept) when it held too little speech to be an answer.
    fn end_turn(&mut self) -> Option<Vec<i16>> {
        let mut turn = self.turn.take()?;
        self.tail_is_filler = false;
        self.recent.clear();
        self.scorer.reset();
        if !turn.is_speech() {
            return None;
        }
        let end = turn.end();
        turn.audio.truncate(end);
        Some(turn.audio)
    }

    /// `audio.commit`: ends the turn now; `None` if no speech was heard.
    pub fn commit(&mut self) -> Option<Vec<i16>> {
        self.end_turn()
    }

    /// `audio.clear`: forgets the turn and everything pending.
    pub fn clear(&mut self) {
        self.turn = None;
        self.pending.clear();
        self.pre_roll.clear();
        self.recent.clear();
        self.tail_is_filler = false;
        self.scorer.reset();
    }

    /// The turn's audio so far, for a partial transcript.
    pub fn heard_so_far(&self) -> Vec<i16> {
        self.turn
            .as_ref()
            .map(|t| t.audio.clone())
            .unwrap_or_default()
    }

    /// Tells the listener the latest partial transcript, so a trailing filler extends the
    /// pause.
    pub fn note_partial(&mut self, text: &str) {
        self.tail_is_filler = ends_with_filler(text);
    }
}

fn keep_last(buffer: &mut VecDeque<i16>, frame: &[i16], limit: usize) {
    buffer.extend(frame);
    let excess = buffer.len().saturating_sub(limit);
    buffer.drain(..excess);
}

/// Words a thinking candidate says before the answer.
const FILLERS: [&str; 10] = [
    "um",
    "umm",
    "uh",
    "er",
    "erm",
    "hmm",
    "let me think",
    "let me see",
    "so",
    "well",
];

/// Whether `text` ends in a filler ("um", "let me think"), ignoring case and punctuation.
pub fn ends_with_filler(text: &str) -> bool {
    let words: String = text
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '\'' {
                c.to_ascii_lowercase()
            } else {
                ' '
            }
        })
        .collect();
    let words: Vec<&str> = words.split_whitespace().collect();
    let joined = words.join(" ");
    let ends_in_filler = FILLERS
        .iter()
        .any(|filler| joined == *filler || joined.ends_with(&format!(" {filler}")));
    ends_in_filler || ends_in_let_me(&words)
}

/// "let me" and one more word: "let me think" as speech recognition often writes it ("let me
/// sink", "let me see").
fn ends_in_let_me(words: &[&str]) -> bool {
    matches!(words, [.., "let", "me", _])
}

/// The answer in a final transcript: annotations such as `[BLANK_AUDIO]` or `(silence)`
/// removed; `None` when nothing spoken is left.
pub fn spoken_text(text: &str) -> Option<String> {
    let mut kept = String::new();
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => kept.push(c),
            _ => {}
        }
    }
    let kept = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    let kept = without_repeats(&kept);
    kept.chars().any(char::is_alphanumeric).then_some(kept)
}

/// `text` with a sentence said again right after itself dropped: a small model on a short
/// clip may loop ("42. 42. 42." for "forty two"). A sentence ends at `.`, `?` or `!` followed
/// by a space or the end, so a decimal point or an address's dots never split one ("85.75",
/// "192.168.10.0"). A phrase looped three times or more between commas ("carb ice, carb ice,
/// carb ice") is kept once.
fn without_repeats(text: &str) -> String {
    let mut sentences: Vec<String> = Vec::new();
    for sentence in sentences_of(text) {
        let sentence = without_comma_loops(sentence.trim());
        let repeated = sentences
            .last()
            .is_some_and(|last| same_words(last, &sentence));
        if !sentence.is_empty() && !repeated {
            sentences.push(sentence);
        }
    }
    sentences.join(" ")
}

/// The sentences of `text`, each with its closing punctuation.
fn sentences_of(text: &str) -> Vec<&str> {
    let mut sentences = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((index, c)) = chars.next() {
        let at_boundary = chars.peek().is_none_or(|(_, next)| next.is_whitespace());
        if matches!(c, '.' | '?' | '!') && at_boundary {
            let end = index + c.len_utf8();
            sentences.push(&text[start..end]);
            start = end;
        }
    }
    sentences.push(&text[start..]);
    sentences
}

/// `sentence` with a comma-separated phrase said three or more times in a row kept once.
fn without_comma_loops(sentence: &str) -> String {
    let mut kept: Vec<&str> = Vec::new();
    for phrase in sentence.split(',') {
        if !kept.last().is_some_and(|last| same_words(last, phrase)) {
            kept.push(phrase);
        }
    }
    if sentence.split(',').count() < kept.len() + 2 {
        return sentence.to_owned();
    }
    let mut looped_once = kept.join(",");
    if let Some(end) = sentence
        .chars()
        .last()
        .filter(|c| matches!(c, '.' | '?' | '!'))
        && !looped_once.ends_with(end)
    {
        looped_once.push(end);
    }
    looped_once
}

fn same_words(a: &str, b: &str) -> bool {
    let words = |s: &str| -> Vec<String> {
        s.split_whitespace()
            .map(|w| {
                w.chars()
                    .filter(|c| c.is_alphanumeric())
                    .collect::<String>()
                    .to_lowercase()
            })
            .filter(|w| !w.is_empty())
            .collect()
    };
    words(a) == words(b)
}

#[cfg(test)]
#[path = "listener_tests.rs"]
mod tests;

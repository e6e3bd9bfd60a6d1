//! The examiner's voice, for a device that asked for it (`"speak": true`): each question, re-ask
//! (`answer.unclear`) and tutor's message the session sends is also handed to the voice (`ExaminerVoice`, off the
//! actor: a bounded queue and its own threads), whose audio goes out on the device's voice
//! lane. A refused or failed utterance costs the text nothing: it has gone out already. When
//! the candidate starts speaking over it (barge-in) the utterance is cancelled.

use viva_core::voice::synth::SpeakJob;
use viva_protocol::{ServerEvent, ServerMessage};

use super::actor::LiveSession;
use crate::voice_lane::Utterance;

/// What of `message` the examiner says aloud: its text and the question it asks, if one.
pub(super) fn spoken(message: &ServerMessage) -> Option<(String, Option<String>)> {
    match &message.event {
        ServerEvent::Question(question) => {
            Some((question.text.clone(), Some(question.question_id.clone())))
        }
        // The examiner says what it heard and asks again.
        ServerEvent::AnswerUnclear(unclear) => {
            Some((unclear.message.clone(), Some(unclear.question_id.clone())))
        }
        ServerEvent::TutorTurn(turn) => {
            let texts: Vec<&str> = turn.messages.iter().map(|m| m.text.trim()).collect();
            let text = texts.join(" ");
            (!text.trim().is_empty()).then_some((text, None))
        }
        _ => None,
    }
}

impl LiveSession {
    /// Speaks `text` on the attached device, if it hears the examiner and the server has a
    /// voice; the device's utterance still playing is cancelled first.
    pub(super) fn speak(&self, text: String, question_id: Option<String>) {
        let (Some(link), Some(voice)) = (&self.link, &self.deps.voice) else {
            return;
        };
        if !link.speaks {
            return;
        }
        let utterance = Utterance {
            question_id,
            text: text.clone(),
        };
        let Some((sink, abort)) = link.voice.begin(utterance) else {
            return;
        };
        let job = SpeakJob {
            text,
            abort,
            sink: Box::new(sink),
        };
        if voice.speak(job).is_err() {
            tracing::warn!("the examiner's voice is busy; this text goes unspoken");
            link.voice.cancel();
        }
    }

    /// The candidate started speaking: the examiner stops and listens.
    pub(super) fn barge_in(&self) {
        if let Some(link) = &self.link
            && link.voice.cancel()
        {
            tracing::debug!("barge-in: the examiner's voice stopped");
        }
    }
}

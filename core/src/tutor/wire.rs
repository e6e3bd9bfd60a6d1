//! A client's `tutor.*` event, read as the brain's input.

use viva_protocol::ErrorCode;
use viva_protocol::client::ClientEvent;

use super::brain::TutorInput;
use crate::base::AnswerInput;
use crate::base::Refusal;

/// The tutor input of `event`; `None` for an event that is not a `tutor.*` one.
pub fn tutor_input(event: ClientEvent) -> Option<Result<TutorInput, Refusal>> {
    Some(Ok(match event {
        ClientEvent::TutorMessage(message) => TutorInput::Message(message.text),
        ClientEvent::TutorRequestDrill(request) => TutorInput::RequestDrill(request.unit_id),
        ClientEvent::TutorDrillCheck(check) => {
            let answer = match (check.text, check.index) {
                (Some(text), None) => AnswerInput::Text(text),
                (None, Some(index)) => AnswerInput::Choice(index),
                _ => return Some(Err(one_answer())),
            };
            TutorInput::DrillCheck {
                drill_id: Some(check.drill_id),
                answer,
            }
        }
        ClientEvent::TutorStuck => TutorInput::Stuck,
        ClientEvent::TutorTryAnother => TutorInput::TryAnother,
        ClientEvent::TutorDrillContinue => TutorInput::DrillContinue,
        ClientEvent::TutorExamSubmit(submit) => TutorInput::ExamSubmit {
            question_id: submit.question_id,
            index: submit.index,
        },
        ClientEvent::TutorMemoViewed(memo) => TutorInput::MemoViewed {
            question_id: memo.question_id,
        },
        ClientEvent::TutorExamContinue => TutorInput::ExamContinue,
        _ => return None,
    }))
}

fn one_answer() -> Refusal {
    Refusal::new(
        ErrorCode::InvalidField,
        "tutor.drill_check needs exactly one of text and index",
    )
}

#[cfg(test)]
mod tests {
    use viva_protocol::ClientMessage;

    use super::*;

    fn read(json: &str) -> Option<Result<TutorInput, Refusal>> {
        let message: ClientMessage = serde_json::from_str(json).unwrap();
        tutor_input(message.event)
    }

    #[test]
    fn each_tutor_event_reads_as_its_input_and_others_as_none() {
        let cases = [
            (
                r#"{"type":"tutor.message","text":"hi"}"#,
                TutorInput::Message("hi".into()),
            ),
            (
                r#"{"type":"tutor.request_drill"}"#,
                TutorInput::RequestDrill(None),
            ),
            (
                r#"{"type":"tutor.drill_check","drill_id":"d1","index":2}"#,
                TutorInput::DrillCheck {
                    drill_id: Some("d1".into()),
                    answer: AnswerInput::Choice(2),
                },
            ),
            (r#"{"type":"tutor.stuck"}"#, TutorInput::Stuck),
            (r#"{"type":"tutor.try_another"}"#, TutorInput::TryAnother),
            (
                r#"{"type":"tutor.drill_continue"}"#,
                TutorInput::DrillContinue,
            ),
            (
                r#"{"type":"tutor.exam_submit","question_id":"q","index":1}"#,
                TutorInput::ExamSubmit {
                    question_id: "q".into(),
                    index: 1,
                },
            ),
            (
                r#"{"type":"tutor.memo_viewed","question_id":"q"}"#,
                TutorInput::MemoViewed {
                    question_id: "q".into(),
                },
            ),
            (
                r#"{"type":"tutor.exam_continue"}"#,
                TutorInput::ExamContinue,
            ),
        ];
        for (json, expected) in cases {
            assert_eq!(read(json), Some(Ok(expected)), "{json}");
        }
        assert_eq!(read(r#"{"type":"ping"}"#), None);
    }

    #[test]
    fn a_check_needs_exactly_one_answer() {
        for json in [
            r#"{"type":"tutor.drill_check","drill_id":"d1"}"#,
            r#"{"type":"tutor.drill_check","drill_id":"d1","text":"4","index":0}"#,
        ] {
            let refused = read(json).unwrap().unwrap_err();
            assert_eq!(refused.code, ErrorCode::InvalidField, "{json}");
        }
    }
}

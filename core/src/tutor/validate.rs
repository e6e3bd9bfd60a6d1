//! A tutor reply held to the turn's policy (PV-AI-012), whoever wrote it — the embedded
//! brain or a model. Every rule is checked in code; a reply that breaks one is replaced by
//! the policy's fallback (a Socratic question, else a drill), never retried.

use super::policy::{Action, Policy};

/// What a reply proposes, as far as the policy can check it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProposedReply {
    /// What it does.
    pub action: Action,
    /// The unit it works on.
    pub target: String,
    /// Its text, shown to the student.
    pub text: String,
    /// The exam question it offers (an `Exam` reply).
    pub exam_question: Option<String>,
    /// Key ideas on its concept card (none without a card).
    pub key_ideas: u32,
    /// Worked examples it shows.
    pub worked_examples: u32,
    /// Steps its drill card shows.
    pub drill_steps: u32,
    /// Questions the text asks (one at a time).
    pub questions: u32,
}

/// The first rule a reply breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Violation {
    /// Its action is not allowed this turn.
    #[error("action not allowed")]
    ActionNotAllowed,
    /// Its target is not a scoped unit.
    #[error("target out of scope")]
    TargetOutOfScope,
    /// An exam reply without a question, or with one that is not available to the student
    /// at the desired tier (not a candidate, another tier, or locked).
    #[error("exam question not available")]
    ExamQuestionNotAvailable,
    /// A concept card (key ideas) outside a concept-card reply, which only a stuck student
    /// gets.
    #[error("concept card not allowed")]
    CardNotAllowed,
    /// More key ideas than a card may hold.
    #[error("too many key ideas")]
    TooManyKeyIdeas,
    /// More worked examples than allowed.
    #[error("too many worked examples")]
    TooManyWorkedExamples,
    /// More drill steps than allowed.
    #[error("too many drill steps")]
    TooManyDrillSteps,
    /// More words than allowed.
    #[error("too long")]
    TooLong,
    /// More than one question at a time.
    #[error("several questions")]
    SeveralQuestions,
}

impl Violation {
    /// A stable label, for the turn log and metrics.
    pub fn label(self) -> &'static str {
        match self {
            Violation::ActionNotAllowed => "action_not_allowed",
            Violation::TargetOutOfScope => "target_out_of_scope",
            Violation::ExamQuestionNotAvailable => "exam_question_not_available",
            Violation::CardNotAllowed => "card_not_allowed",
            Violation::TooManyKeyIdeas => "too_many_key_ideas",
            Violation::TooManyWorkedExamples => "too_many_worked_examples",
            Violation::TooManyDrillSteps => "too_many_drill_steps",
            Violation::TooLong => "too_long",
            Violation::SeveralQuestions => "several_questions",
        }
    }
}

/// Every reason a reply may be replaced by the fallback: each [`Violation`]'s label, and
/// `nothing_to_show` (the action had nothing to show: no drill source, no exam question), and
/// `model_<rule>` for a model's proposal that broke a rule (the brain's turn is used).
pub const FALLBACK_REASONS: &[&str] = &[
    "action_not_allowed",
    "target_out_of_scope",
    "exam_question_not_available",
    "card_not_allowed",
    "too_many_key_ideas",
    "too_many_worked_examples",
    "too_many_drill_steps",
    "too_long",
    "several_questions",
    "nothing_to_show",
    "model_action_not_allowed",
    "model_target_out_of_scope",
    "model_target_not_the_policys",
    "model_remapped",
    "model_exam_question_not_available",
    "model_card_not_allowed",
    "model_too_many_key_ideas",
    "model_too_many_worked_examples",
    "model_too_many_drill_steps",
    "model_too_long",
    "model_several_questions",
    "model_timeout",
    "model_endpoint",
    "model_empty",
    "model_prompt",
    "model_truncated",
    "model_unparseable",
    "model_unknown_action",
    "model_recites_prompt",
    "model_empty_text",
    "model_card_on_plain_reply",
    "model_key_idea_too_long",
    "model_none",
    "model_other",
];

/// Checks a reply against the policy; `available` are the exam questions of the target's
/// desired tier this student may take now.
pub fn validate(
    reply: &ProposedReply,
    policy: &Policy,
    available: &[&str],
) -> Result<(), Violation> {
    let limits = policy.constraints;
    let checks = [
        (
            policy.allowed_actions.contains(&reply.action),
            Violation::ActionNotAllowed,
        ),
        (
            policy.scoped_units.contains(&reply.target),
            Violation::TargetOutOfScope,
        ),
        (
            exam_question_ok(reply, available),
            Violation::ExamQuestionNotAvailable,
        ),
        (
            reply.key_ideas == 0 || reply.action == Action::ConceptCard,
            Violation::CardNotAllowed,
        ),
        (
            reply.key_ideas <= limits.max_key_ideas,
            Violation::TooManyKeyIdeas,
        ),
        (
            reply.worked_examples <= limits.max_worked_examples,
            Violation::TooManyWorkedExamples,
        ),
        (
            reply.drill_steps <= limits.max_drill_steps,
            Violation::TooManyDrillSteps,
        ),
        (
            word_count(&reply.text) <= limits.max_words as usize,
            Violation::TooLong,
        ),
        (reply.questions <= 1, Violation::SeveralQuestions),
    ];
    match checks.into_iter().find(|(ok, _)| !ok) {
        Some((_, violation)) => Err(violation),
        None => Ok(()),
    }
}

fn exam_question_ok(reply: &ProposedReply, available: &[&str]) -> bool {
    match (&reply.exam_question, reply.action) {
        (Some(id), Action::Exam) => available.contains(&id.as_str()),
        (None, Action::Exam) | (Some(_), _) => false,
        (None, _) => true,
    }
}

/// Words in a reply's text.
pub fn word_count(text: &str) -> usize {
    text.split_whitespace().count()
}

/// What replaces a reply that broke a rule: a Socratic question when allowed, else a drill.
pub fn fallback_action(policy: &Policy) -> Action {
    if policy.allowed_actions.contains(&Action::SocraticQuestion) {
        Action::SocraticQuestion
    } else {
        Action::Drill
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tutor::policy::CONSTRAINTS;
    use crate::tutor::snapshot::Tier;

    fn policy(allowed: &[Action]) -> Policy {
        Policy {
            target: "add".into(),
            blocker: None,
            stuck: allowed.contains(&Action::ConceptCard),
            desired_exam_tier: Some(Tier::Bronze),
            exam_ready: allowed.contains(&Action::Exam),
            allowed_actions: allowed.to_vec(),
            scoped_units: vec!["add".into(), "count".into()],
            constraints: CONSTRAINTS,
        }
    }

    fn reply(action: Action) -> ProposedReply {
        ProposedReply {
            action,
            target: "add".into(),
            text: "What do you get when you add 3 and 4?".into(),
            exam_question: None,
            key_ideas: 0,
            worked_examples: 0,
            drill_steps: 0,
            questions: 1,
        }
    }

    #[test]
    fn each_rule_of_the_policy_is_enforced_in_code() {
        use Action::{ConceptCard, Drill, Exam, SocraticQuestion};
        let all = [SocraticQuestion, Drill, ConceptCard, Exam];
        let plain = [SocraticQuestion, Drill];
        let long = "word ".repeat(171);
        let exam = |id: &str| ProposedReply {
            exam_question: Some(id.into()),
            ..reply(Exam)
        };
        let rows: [(ProposedReply, &[Action], Option<Violation>); 14] = [
            (reply(SocraticQuestion), &plain, None),
            (reply(Exam), &plain, Some(Violation::ActionNotAllowed)),
            (
                reply(ConceptCard),
                &plain,
                Some(Violation::ActionNotAllowed),
            ),
            (
                ProposedReply {
                    target: "mul".into(),
                    ..reply(Drill)
                },
                &plain,
                Some(Violation::TargetOutOfScope),
            ),
            (exam("b1"), &all, None),
            (exam("b2"), &all, Some(Violation::ExamQuestionNotAvailable)),
            (reply(Exam), &all, Some(Violation::ExamQuestionNotAvailable)),
            (
                ProposedReply {
                    exam_question: Some("b1".into()),
                    ..reply(Drill)
                },
                &all,
                Some(Violation::ExamQuestionNotAvailable),
            ),
            (
                ProposedReply {
                    key_ideas: 3,
                    worked_examples: 1,
                    ..reply(ConceptCard)
                },
                &all,
                None,
            ),
            (
                ProposedReply {
                    key_ideas: 4,
                    ..reply(ConceptCard)
                },
                &all,
                Some(Violation::TooManyKeyIdeas),
            ),
            (
                ProposedReply {
                    key_ideas: 2,
                    ..reply(SocraticQuestion)
                },
                &all,
                Some(Violation::CardNotAllowed),
            ),
            (
                ProposedReply {
                    worked_examples: 2,
                    drill_steps: 2,
                    ..reply(Drill)
                },
                &all,
                Some(Violation::TooManyWorkedExamples),
            ),
            (
                ProposedReply {
                    drill_steps: 3,
                    ..reply(Drill)
                },
                &all,
                Some(Violation::TooManyDrillSteps),
            ),
            (
                ProposedReply {
                    text: long,
                    ..reply(SocraticQuestion)
                },
                &all,
                Some(Violation::TooLong),
            ),
        ];
        for (proposed, allowed, expected) in rows {
            let got = validate(&proposed, &policy(allowed), &["b1"]).err();
            assert_eq!(got, expected, "{proposed:?} under {allowed:?}");
        }
        let two = ProposedReply {
            questions: 2,
            ..reply(SocraticQuestion)
        };
        assert_eq!(
            validate(&two, &policy(&all), &[]),
            Err(Violation::SeveralQuestions)
        );
        assert_eq!(word_count(&"word ".repeat(170)), 170);
    }

    #[test]
    fn the_fallback_is_a_socratic_question_else_a_drill() {
        assert_eq!(
            fallback_action(&policy(&[Action::SocraticQuestion, Action::Drill])),
            Action::SocraticQuestion
        );
        assert_eq!(fallback_action(&policy(&[Action::Drill])), Action::Drill);
        let labels: Vec<&str> = [Violation::TooLong, Violation::TargetOutOfScope]
            .map(Violation::label)
            .to_vec();
        assert_eq!(labels, ["too_long", "target_out_of_scope"]);
    }
}

//! Every labelled answer of the examiner benchmark assessed as an exam assesses it (against
//! its element, every other oral element pending), one line each: score, mentioned elements
//! and feedback. Two builds print the same lines when a change keeps every verdict.
//!
//! `cargo run --release -p viva-fuzz --bin verdicts > verdicts.txt`

use viva_core::examiner::EmbeddedExaminer;
use viva_fuzz::answers::AnswerWorld;
use viva_fuzz::draw::Draw;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let world = AnswerWorld::load()?;
    let examiner = EmbeddedExaminer::new(world.library.clone());
    for (index, labelled) in world.answers.iter().enumerate() {
        let mut request = world.request(&mut Draw::new(0, index as u64), labelled.answer.clone());
        request.element_code = labelled.element.clone();
        request
            .other_pending
            .retain(|code| *code != labelled.element);
        let assessed = examiner.assess_now(&request);
        println!(
            "{index} {} {:?} {:?} {:?}",
            labelled.element, assessed.score, assessed.mentioned_elements, assessed.feedback
        );
    }
    Ok(())
}

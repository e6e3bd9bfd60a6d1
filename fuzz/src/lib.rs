//! Viva's fuzz harness on stable Rust: seeded, reproducible generators that build inputs for
//! a target from its structure and from mutations of real seed inputs, and a runner that
//! feeds a target millions of them, catching panics and keeping the slowest input.
//!
//! - `draw`: the seeded choices every generator makes (SplitMix64, from `viva-blueprint`).
//! - `corpus`: the repository's real inputs: the ACS library, rubrics, labelled answers.
//! - `answers`: adversarial and random exam answers for the examiner's judge.
//! - `run`: the runner (`Target`, `run`, `Report`).
//! - `frames`, `exprs`, `judge`: the targets: the protocol decoder, the expression language
//!   and the judge.

pub mod answers;
pub mod corpus;
pub mod draw;
pub mod exprs;
pub mod frames;
pub mod judge;
pub mod run;

#[cfg(test)]
mod smoke {
    //! A CI-sized run of each target; the 10-million-input runs are `bin/fuzz.rs`'s.

    use super::draw::Draw;
    use super::run::{Target, run};

    #[test]
    fn the_protocol_decoder_takes_20_000_frames_without_a_panic() {
        let report = run(&super::frames::Frames, 7, 20_000);
        assert_eq!(report.panic_count, 0, "{report}");
    }

    #[test]
    fn the_expression_language_takes_20_000_programs_without_a_panic() {
        let exprs = super::exprs::Exprs::load();
        let report = run(&exprs, 7, 20_000);
        assert_eq!(report.panic_count, 0, "{report}");
        let compiled = (0..1_000)
            .filter(|&i| {
                let input = Target::input(&exprs, &mut Draw::new(7, i));
                input.compiles()
            })
            .count();
        assert!(
            compiled >= 300,
            "only {compiled} of 1,000 inputs compile: too few evaluate"
        );
    }

    #[test]
    fn the_judge_takes_200_answers_without_a_panic() {
        let judge = super::judge::Judge::load().expect("the corpus loads");
        let report = run(&judge, 7, 200);
        assert_eq!(report.panic_count, 0, "{report}");
    }
}

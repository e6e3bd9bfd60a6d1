//! The end-of-turn model (Smart Turn v3.2 on ONNX Runtime, both installed in the models
//! folder) on festival speech, through the judge the server runs: whole sentences sound
//! complete, a sentence cut mid-way does not (Pipecat's reference gave 0.010 for it).

use std::sync::mpsc;
use std::time::Duration;

use viva_core::voice::end_of_turn::{JudgeJob, TurnJudge};
use viva_speech::end_of_turn::{SMART_TURN_FILE, SmartTurnJudge};
use viva_speech::onnx::ONNXRUNTIME_FILE;

use crate::harness::speech::{concat, model_file, silence, synthesize};

/// The probability the judge gives `text` said by festival, with the 200 ms of silence the
/// listener keeps before it hands a pause out.
fn judged(judge: &SmartTurnJudge, text: &str) -> f32 {
    let (tx, rx) = mpsc::channel();
    let audio = concat(&[synthesize(text), silence(200)]);
    let reply = Box::new(move |result| tx.send(result).expect("the test waits"));
    judge
        .submit(JudgeJob { audio, reply })
        .expect("an empty queue");
    let result = rx.recv_timeout(Duration::from_secs(120));
    result.expect("a reply").expect("a probability")
}

#[test]
fn whole_sentences_sound_complete_and_a_cut_one_does_not() {
    let judge = SmartTurnJudge::start(&model_file(ONNXRUNTIME_FILE), &model_file(SMART_TURN_FILE))
        .expect("the model loads");
    for whole in [
        "A flight review is required every twenty four calendar months.",
        "To carry passengers I need three takeoffs and landings within the preceding ninety days.",
    ] {
        let p = judged(&judge, whole);
        assert!(p > 0.5, "{whole:?}: {p}");
    }
    let cut = "Before the flight I would check the weather, and then the first point of intended landing and";
    let p = judged(&judge, cut);
    assert!(p < 0.5, "{cut:?}: {p}");
}

//! Tests of the listener: scripted frame scores for the turn rules, earshot for noise.

use super::*;

/// Loud frames are speech, quiet ones silence.
struct Loudness;

impl FrameScorer for Loudness {
    fn score(&mut self, frame: &[i16]) -> f32 {
        let loud = frame.iter().any(|s| s.unsigned_abs() > 500);
        if loud { 1.0 } else { 0.0 }
    }

    fn reset(&mut self) {}
}

fn scripted() -> Listener {
    Listener::with_scorer(Box::new(Loudness))
}

fn speech(ms: usize) -> Vec<i16> {
    (0..ms * 16)
        .map(|i| if i % 2 == 0 { 3000 } else { -3000 })
        .collect()
}

fn silence(ms: usize) -> Vec<i16> {
    vec![0; ms * 16]
}

fn turns(heard: &[Heard]) -> Vec<usize> {
    heard
        .iter()
        .filter_map(|h| match h {
            Heard::TurnEnded(audio) => Some(audio.len()),
            _ => None,
        })
        .collect()
}

/// Whether what a gap produced ended the turn (a pause may hand out its audio, see
/// [`Heard::SilenceBegan`], and the turn goes on).
fn ends_turn(heard: Option<Heard>) -> bool {
    matches!(heard, Some(Heard::TurnEnded(_)))
}

fn feed_all(listener: &mut Listener, parts: &[Vec<i16>]) -> Vec<Heard> {
    parts.iter().flat_map(|part| listener.feed(part)).collect()
}

#[test]
fn a_thinking_pause_within_the_threshold_keeps_one_turn() {
    let mut listener = scripted();
    let heard = feed_all(
        &mut listener,
        &[speech(1000), silence(2500), speech(1000), silence(3500)],
    );
    let lengths = turns(&heard);
    assert_eq!(lengths.len(), 1, "{heard:?}");
    assert!(heard.contains(&Heard::PartialDue));
    // Speech from the first sample (no pre-roll), the 2.5 s pause cut to KEPT_PAUSE.
    let expected = 16 * (1000 + 600 + 1000 + 200);
    assert!(
        lengths[0].abs_diff(expected) <= 2 * FRAME,
        "{lengths:?} vs {expected}"
    );
}

#[test]
fn silence_beyond_the_threshold_separates_two_turns() {
    let mut listener = scripted();
    let parts = [speech(800), silence(3500), speech(800), silence(3500)];
    assert_eq!(turns(&feed_all(&mut listener, &parts)).len(), 2);
}

#[test]
fn the_threshold_follows_the_setting() {
    let mut listener = scripted();
    listener.set_thinking_pause(Duration::from_secs(5));
    let parts = [speech(800), silence(4000), speech(800), silence(5200)];
    assert_eq!(turns(&feed_all(&mut listener, &parts)).len(), 1);
}

#[test]
fn silence_and_blips_make_no_turn() {
    let mut listener = scripted();
    let parts = [
        silence(5000),
        speech(110),
        silence(4000),
        speech(50),
        silence(4000),
    ];
    assert_eq!(feed_all(&mut listener, &parts), Vec::<Heard>::new());
}

#[test]
fn a_trailing_filler_extends_the_pause() {
    let mut listener = scripted();
    listener.feed(&speech(1000));
    listener.note_partial("Hmm, let me think.");
    let heard = feed_all(&mut listener, &[silence(4000), speech(800), silence(5500)]);
    assert_eq!(turns(&heard).len(), 1, "{heard:?}");
}

#[test]
fn an_ended_turn_keeps_pre_roll_and_a_short_tail() {
    let mut listener = scripted();
    let heard = feed_all(&mut listener, &[silence(1000), speech(1000), silence(3500)]);
    let lengths = turns(&heard);
    // The pre-roll (300 ms) ends with the frames that made the onset.
    let onset_ms = (ONSET_FRAMES - 1) * FRAME / 16;
    let expected = 16 * (300 + 1000 - onset_ms + 200);
    assert!(
        lengths[0].abs_diff(expected) <= 2 * FRAME,
        "{lengths:?} vs {expected}"
    );
}

#[test]
fn commit_ends_the_turn_and_clear_discards_it() {
    let mut listener = scripted();
    assert_eq!(listener.commit(), None, "nothing heard");
    listener.feed(&speech(600));
    assert!(!listener.heard_so_far().is_empty());
    assert!(
        listener
            .commit()
            .is_some_and(|audio| audio.len() >= 590 * 16)
    );
    listener.feed(&speech(600));
    listener.clear();
    assert_eq!(listener.commit(), None);
    assert!(listener.heard_so_far().is_empty());
}

#[test]
fn a_turn_is_capped_at_its_maximum_length() {
    let mut listener = scripted();
    let heard = listener.feed(&speech(61_000));
    assert_eq!(turns(&heard), [samples(MAX_TURN)]);
}

/// Loud frames score as likely speech but never surely speech, as noise does.
struct Hiss;

impl FrameScorer for Hiss {
    fn score(&mut self, frame: &[i16]) -> f32 {
        let loud = frame.iter().any(|s| s.unsigned_abs() > 500);
        if loud { 0.85 } else { 0.0 }
    }

    fn reset(&mut self) {}
}

#[test]
fn long_likely_speech_without_a_sure_frame_is_noise() {
    let mut listener = Listener::with_scorer(Box::new(Hiss));
    let heard = feed_all(&mut listener, &[speech(2000), silence(4000)]);
    assert_eq!(heard, Vec::<Heard>::new());
    assert_eq!(listener.commit(), None);
}

fn white_noise(seconds: usize, amplitude_divisor: i16, seed: u64) -> Vec<i16> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..seconds * RATE)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 48) as i16) / amplitude_divisor
        })
        .collect()
}

#[test]
fn earshot_hears_no_turn_in_silence_or_white_noise() {
    for seed in 0..8 {
        for divisor in [2, 8, 32] {
            let mut listener = Listener::new();
            let noise = white_noise(5, divisor, seed);
            let heard = feed_all(&mut listener, &[silence(1000), noise, silence(4000)]);
            assert_eq!(
                turns(&heard),
                Vec::<usize>::new(),
                "seed {seed}, 1/{divisor}"
            );
            assert_eq!(listener.commit(), None, "seed {seed}, 1/{divisor}");
        }
    }
}

#[test]
fn fillers_are_recognised_at_the_end_only() {
    let cases = [
        ("um", true),
        ("The answer is, um...", true),
        ("Let me think.", true),
        ("HMM, let me sink.", true),
        ("Let me see", true),
        ("let me explain why", false),
        ("so", true),
        ("It's eighty five.", false),
        ("summer", false),
        ("", false),
        ("umbrella", false),
    ];
    for (text, expected) in cases {
        assert_eq!(ends_with_filler(text), expected, "{text:?}");
    }
}

#[test]
fn annotations_are_not_answers() {
    let cases = [
        ("[BLANK_AUDIO]", None),
        (" (silence) ", None),
        ("...", None),
        ("The answer is 85.", Some("The answer is 85.")),
        ("[Music] eighty five", Some("eighty five")),
        ("42. 42. 42. 42.", Some("42.")),
        (
            "The answer is 42. the answer is 42",
            Some("The answer is 42."),
        ),
        ("Yes. No. Yes.", Some("Yes. No. Yes.")),
        ("Ninety days, or 3 months", Some("Ninety days, or 3 months")),
        ("The answer is 85.75.", Some("The answer is 85.75.")),
        ("It's 192.168.10.0.", Some("It's 192.168.10.0.")),
        ("62.5. 62.5.", Some("62.5.")),
        ("Carb ice, carb ice, carb ice, carb ice.", Some("Carb ice.")),
        ("Day, day, night", Some("Day, day, night")),
    ];
    for (text, expected) in cases {
        assert_eq!(spoken_text(text).as_deref(), expected, "{text:?}");
    }
}

#[test]
fn a_client_that_stops_sending_gets_its_turn_ended_by_wall_clock() {
    let mut listener = scripted();
    let heard = feed_all(&mut listener, &[speech(1500), silence(200)]);
    assert!(turns(&heard).is_empty());
    assert!(listener.in_turn());
    assert!(!ends_turn(listener.note_gap(Duration::from_millis(2000))));
    let ended = listener.note_gap(Duration::from_millis(1000));
    assert!(matches!(ended, Some(Heard::TurnEnded(_))), "{ended:?}");
    assert!(!listener.in_turn());
}

#[test]
fn audio_arriving_late_for_a_gap_is_not_counted_twice() {
    // A client sending in bursts: 2 s of silence arrives after 2 s of wall-clock gap was
    // counted; together they are 2 s of pause, not 4, so the turn goes on.
    let mut listener = scripted();
    feed_all(&mut listener, &[speech(1500)]);
    assert!(!ends_turn(listener.note_gap(Duration::from_millis(2000))));
    let heard = feed_all(&mut listener, &[silence(2000), speech(500), silence(500)]);
    assert!(turns(&heard).is_empty(), "{heard:?}");
    assert!(listener.in_turn());
}

#[test]
fn speech_after_a_gap_keeps_the_turn_open() {
    let mut listener = scripted();
    feed_all(&mut listener, &[speech(1000)]);
    assert!(!ends_turn(listener.note_gap(Duration::from_millis(2500))));
    feed_all(&mut listener, &[speech(1000)]);
    assert!(!ends_turn(listener.note_gap(Duration::from_millis(2500))));
    assert!(listener.in_turn());
}

#[test]
fn a_gap_with_no_turn_open_does_nothing() {
    let mut listener = scripted();
    assert_eq!(listener.note_gap(Duration::from_secs(10)), None);
    assert!(!listener.in_turn());
}

/// What the listener handed out ahead of the end ([`Heard::SilenceBegan`]), and the end.
fn speculations_and_end(heard: &[Heard]) -> (Vec<&Vec<i16>>, Option<&Vec<i16>>) {
    let speculated = heard
        .iter()
        .filter_map(|h| match h {
            Heard::SilenceBegan(audio) => Some(audio),
            _ => None,
        })
        .collect();
    let ended = heard.iter().find_map(|h| match h {
        Heard::TurnEnded(audio) => Some(audio),
        _ => None,
    });
    (speculated, ended)
}

#[test]
fn a_pause_hands_out_the_turn_as_it_would_end_and_the_end_matches_it() {
    let mut listener = scripted();
    let heard = feed_all(&mut listener, &[speech(1500), silence(3500)]);
    let (speculated, ended) = speculations_and_end(&heard);
    assert_eq!(speculated.len(), 1, "once per pause: {heard:?}");
    assert_eq!(Some(speculated[0]), ended, "the end is what was handed out");
    assert!(!heard.contains(&Heard::SpeechResumed));
    let began = heard
        .iter()
        .position(|h| matches!(h, Heard::SilenceBegan(_)))
        .unwrap();
    let end = heard
        .iter()
        .position(|h| matches!(h, Heard::TurnEnded(_)))
        .unwrap();
    assert!(began < end);
}

#[test]
fn speech_after_a_pause_takes_the_handed_out_audio_back() {
    let mut listener = scripted();
    let heard = feed_all(
        &mut listener,
        &[speech(1000), silence(800), speech(1000), silence(3500)],
    );
    let (speculated, ended) = speculations_and_end(&heard);
    assert_eq!(speculated.len(), 2, "{heard:?}");
    let resumed = heard.iter().position(|h| *h == Heard::SpeechResumed);
    let second = heard
        .iter()
        .rposition(|h| matches!(h, Heard::SilenceBegan(_)));
    assert!(resumed.is_some() && resumed < second, "{heard:?}");
    assert_ne!(
        Some(speculated[0]),
        ended,
        "the first pause was not the end"
    );
    assert_eq!(Some(speculated[1]), ended, "the last pause was");
}

#[test]
fn noise_and_a_pause_shorter_than_the_tail_hand_out_nothing() {
    let mut listener = scripted();
    let blip = feed_all(&mut listener, &[speech(100), silence(1000)]);
    assert!(
        !blip.iter().any(|h| matches!(h, Heard::SilenceBegan(_))),
        "a blip is not speech: {blip:?}"
    );
    let mut listener = scripted();
    let short = feed_all(&mut listener, &[speech(1000), silence(150), speech(1000)]);
    assert!(
        !short.iter().any(|h| matches!(h, Heard::SilenceBegan(_))),
        "{short:?}"
    );
}

#[test]
fn a_gap_in_the_audio_counts_as_the_pause_that_begins_speculation() {
    let mut listener = scripted();
    listener.feed(&speech(1000));
    let heard = listener.note_gap(Duration::from_millis(300));
    assert!(
        matches!(heard, Some(Heard::SilenceBegan(_))),
        "a pause began"
    );
}

#[test]
fn a_whole_answer_ends_the_turn_after_the_short_pause_with_the_speculated_audio() {
    let mut listener = scripted();
    let heard = feed_all(&mut listener, &[speech(1000), silence(300)]);
    let (speculated, end) = speculations_and_end(&heard);
    assert!(end.is_none());
    let speculated = speculated[0].clone();
    assert_eq!(listener.end_early_after(Duration::from_millis(1200)), None);
    let heard = listener.feed(&silence(1000));
    assert_eq!(heard, vec![Heard::TurnEnded(speculated)]);
}

#[test]
fn a_decision_that_comes_after_the_short_pause_ends_the_turn_at_once() {
    let mut listener = scripted();
    feed_all(&mut listener, &[speech(1000), silence(1500)]);
    assert!(ends_turn(
        listener.end_early_after(Duration::from_millis(1200))
    ));
    assert!(!listener.in_turn());
}

#[test]
fn speech_after_a_whole_answer_restores_the_thinking_pause() {
    let mut listener = scripted();
    feed_all(&mut listener, &[speech(1000), silence(300)]);
    assert_eq!(listener.end_early_after(Duration::from_millis(1200)), None);
    let heard = feed_all(&mut listener, &[silence(500), speech(500), silence(2000)]);
    assert!(turns(&heard).is_empty(), "{heard:?}");
    assert_eq!(turns(&listener.feed(&silence(1100))).len(), 1);
}

#[test]
fn no_early_end_without_a_pause_handed_out() {
    let mut listener = scripted();
    listener.feed(&speech(1000));
    assert_eq!(listener.end_early_after(Duration::from_millis(1200)), None);
    assert!(turns(&listener.feed(&silence(2000))).is_empty());
}

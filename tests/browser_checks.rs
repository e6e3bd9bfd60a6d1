//! Checks of the web client's finer points, called from the browser tests' flows (so the
//! suite starts no extra server or browser for them): the home page's keyboard path to
//! Start and its live summary of the tasks ticked, the microphone's resampler measured on
//! tones in the page, the words the client uses for raw codes and errors, the exam page's
//! labelled answer box and labelled assessment, and its quiet live regions.

use serde_json::Value;

use crate::harness::browser::Browser;

/// The most Tab presses from a fresh home page to the exam's Start button.
const MOST_TABS_TO_START: u32 = 10;

/// Reloads the (signed-in) home page and checks it: Start within [`MOST_TABS_TO_START`]
/// Tab presses of page load, the task picker folded with a summary that follows what is
/// ticked. Leaves one task unticked, then every task ticked again.
pub async fn home_page_keyboard_and_task_summary(browser: &Browser, url: &str) {
    browser.open(url).await;
    let all = browser.text_containing("#exam-scope-summary", "All ").await;
    browser
        .text_when("#sessions", |text| !text.contains("Loading"))
        .await;
    let presses = browser.tabs_to("#start-exam-button", 30).await;
    println!("Tab presses from page load to Start exam: {presses:?}");
    assert!(
        presses.is_some_and(|n| n <= MOST_TABS_TO_START),
        "Start exam in at most {MOST_TABS_TO_START} Tab presses: {presses:?}"
    );
    let folded = browser
        .run("return document.querySelector('#exam-scope').open;", vec![])
        .await;
    assert_eq!(folded, false, "the picker starts folded");
    let summary = browser.text_containing("#exam-scope-title", &all).await;
    assert!(summary.starts_with("Choose areas and tasks"), "{summary}");
    browser.click("#exam-scope-title").await;
    browser.click("#exam-areas input[name=task]").await;
    let one_less = browser
        .text_when("#exam-scope-summary", |text| text != all)
        .await;
    assert!(
        one_less.contains(" of ") && one_less.contains(" in "),
        "{all} → {one_less}"
    );
    // The area's box, mixed now, ticks all its tasks; pressed again it clears them.
    browser.click("#exam-areas input[name=area]").await;
    browser.text_when("#exam-scope-summary", |t| t == all).await;
    browser.click("#exam-areas input[name=area]").await;
    let area_cleared = browser
        .text_when("#exam-scope-summary", |text| text != all)
        .await;
    assert!(
        area_cleared.contains(" of ") && area_cleared != one_less,
        "{area_cleared}"
    );
    browser.screenshot("home-task-picker").await;
    browser.click("#exam-areas input[name=area]").await;
    browser.text_when("#exam-scope-summary", |t| t == all).await;
    browser.click("#exam-scope-title").await;
}

/// The microphone's resampler (`/resample.js`, which the worklet imports), run in the page
/// on one second of each tone: gain in dB at the output by frequency.
const RESAMPLER_GAINS: &str = r#"
const { Resampler } = await import("/resample.js");
const rate = arguments[0];
const gains = {};
for (const f of [300, 1000, 3000, 6500, 9000, 12000, 20000]) {
  if (f >= rate / 2) continue;
  const x = new Float32Array(rate);
  for (let i = 0; i < x.length; i++) x[i] = 0.5 * Math.sin(2 * Math.PI * f * i / rate);
  const resampler = new Resampler(rate, 16000);
  const out = [];
  for (let i = 0; i < x.length; i += 128) out.push(...resampler.push(x.subarray(i, i + 128)));
  const steady = out.slice(400, out.length - 400);
  const rms = Math.sqrt(steady.reduce((a, v) => a + v * v, 0) / steady.length);
  gains[f] = 20 * Math.log10(rms / (0.5 / Math.SQRT2));
}
return gains;
"#;

/// The stop band's floor that the tests hold the resampler to (it measures about 69 dB
/// down at 9 kHz and more above).
const STOP_BAND_DB: f64 = -50.0;

/// Measures the resampler in the page at 48 kHz and 44.1 kHz input: within 0.5 dB below
/// 7 kHz, at least 50 dB down above 8 kHz (where it would fold into speech at 16 kHz).
pub async fn resampler_keeps_speech_and_drops_what_would_fold(browser: &Browser) {
    for rate in [48_000, 44_100] {
        let script = format!("return (async () => {{ {RESAMPLER_GAINS} }})(...arguments);");
        let gains = browser.run(&script, vec![Value::from(rate)]).await;
        println!("resampler gains in dB from {rate} Hz to 16 kHz: {gains}");
        let gain = |f: u32| gains[f.to_string()].as_f64().expect("a gain");
        for f in [300, 1000, 3000, 6500] {
            assert!(gain(f).abs() <= 0.5, "{f} Hz from {rate} Hz: {gains}");
        }
        for f in [9000, 12000, 20000] {
            assert!(gain(f) <= STOP_BAND_DB, "{f} Hz from {rate} Hz: {gains}");
        }
    }
}

/// The client's words (`/words.js`) for raw codes: a microphone error by kind, never its
/// raw text; scores and outcomes capitalised and explained.
pub async fn client_words_are_plain(browser: &Browser) {
    let script = r#"
const words = await import("/words.js");
const mic = (name) => words.micProblem(new DOMException("raw detail", name));
return {
  denied: mic("NotAllowedError"), missing: mic("NotFoundError"), busy: mic("NotReadableError"),
  other: mic("TypeError"), partial: words.scoreWord("partial"),
  incomplete: words.outcomeWords({ outcome: "incomplete", asked: 1, planned_questions: 9 }),
};"#;
    let wrapped = format!("return (async () => {{ {script} }})();");
    let said = browser.run(&wrapped, vec![]).await;
    let text = |key: &str| said[key].as_str().unwrap_or_default().to_owned();
    assert!(text("denied").contains("not allowed"), "{said}");
    assert!(text("missing").contains("No microphone"), "{said}");
    assert!(text("busy").contains("in use"), "{said}");
    for key in ["denied", "missing", "busy", "other"] {
        assert!(!text(key).contains("raw detail"), "{key}: {said}");
    }
    assert_eq!(text("partial"), "Partly right");
    assert_eq!(said["incomplete"][0], "Incomplete");
    assert!(
        said["incomplete"][1]
            .as_str()
            .is_some_and(|s| s.contains("1 of its 9 planned")),
        "{said}"
    );
}

/// The exam page's answer box has a visible label, and the live transcript is not a live
/// region (the page's polite announcer speaks for it).
pub async fn exam_page_is_labelled_and_quiet(browser: &Browser) {
    let script = r#"
const label = document.querySelector('label[for=answer]');
const live = (css) => document.querySelector(css)?.getAttribute('aria-live');
return {
  label: label && label.offsetParent !== null ? label.textContent : null,
  transcript: live('#transcript'), question: live('#question'),
  announcer: live('#announcer'), role: document.querySelector('#announcer')?.getAttribute('role'),
};"#;
    let found = browser.run(script, vec![]).await;
    assert_eq!(found["label"], "Your answer", "{found}");
    assert_eq!(found["transcript"], "off", "{found}");
    assert!(found["question"].is_null(), "{found}");
    assert_eq!(found["announcer"], "polite", "{found}");
    assert_eq!(found["role"], "status", "{found}");
}

/// After the first answer: its assessment names the question it assesses, with its score
/// in words and the question's own text, and the announcer said it once.
pub async fn first_assessment_is_labelled(browser: &Browser, asked: &str, score: &str) {
    let heading = format!("Question 1 \u{2014} assessed: {score}");
    let card = browser.text_containing("#assessment", &heading).await;
    assert!(card.contains(asked), "the question assessed: {card}");
    let announced = text_content_when(browser, "#announcer", |t| t.contains(&heading)).await;
    assert_eq!(announced.matches(&heading).count(), 1, "{announced}");
}

/// Waits until the `textContent` of `css` (visible or not) satisfies `ready`; returns it.
pub async fn text_content_when(
    browser: &Browser,
    css: &str,
    ready: impl Fn(&str) -> bool,
) -> String {
    let script = format!("return document.querySelector({css:?})?.textContent ?? '';");
    let mut text = String::new();
    for _ in 0..900 {
        text = browser
            .run(&script, vec![])
            .await
            .as_str()
            .unwrap_or_default()
            .to_owned();
        if ready(&text) {
            return text;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("{css} never became ready: {text:?}");
}

/// The "Read aloud" switch: `aria-pressed`, and its visible text changes with it.
pub async fn read_aloud_is_a_real_toggle(browser: &Browser) {
    let state = "const b = document.querySelector('#speak'); \
        return [b.getAttribute('aria-pressed'), b.textContent, getComputedStyle(b).backgroundColor];";
    let before = browser.run(state, vec![]).await;
    browser.click("#speak").await;
    let after = browser.run(state, vec![]).await;
    assert_ne!(before[0], after[0], "aria-pressed flips: {before} {after}");
    assert_ne!(before[1], after[1], "the text says so: {before} {after}");
    assert_ne!(before[2], after[2], "and the look: {before} {after}");
    let on = if after[0] == "true" { &after } else { &before };
    assert!(on[1].as_str().is_some_and(|t| t.contains(": on")), "{on}");
}

//! The web client in a real browser: headless Chromium (Debian's `chromium` under
//! `chromedriver`) against a real `viva serve --dev`, driven over WebDriver. A voice exam
//! answered by a fake microphone playing festival's speech, a takeover between two
//! browsers, a reconnect after the server is killed and restarted (the answer typed
//! meanwhile kept and sent once), an exam on a phone's screen, an assessment answered by
//! clicks, a tutoring session from a drill to an exam block, and a checkride-style exam
//! that records answers quietly and ends with its debrief. Each test saves
//! screenshots (`screenshots/` under cargo's target directory, or `$VIVA_SCREENSHOTS`) and
//! fails on any console error. Its own binary, so the browsers have the machine to
//! themselves; the tests take it in turn.

mod browser_checks;
mod browser_oidc;
#[allow(dead_code, unused_imports)] // this binary uses part of the shared harness
mod harness;

use std::path::{Path, PathBuf};

use harness::browser::{Browser, Driver};
use harness::speech::{RATE, model_file, synthesize};
use harness::{Options, Server, drill_key, exam_key};

/// One test at a time: each runs Chromium, and the voice test whisper too.
static MACHINE: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn page(server: &Server) -> String {
    format!("http://{}/", server.addr())
}

async fn dev_server() -> Server {
    Server::start_with_options(Options {
        dev: true,
        ..Default::default()
    })
    .await
}

async fn sign_in(browser: &Browser, server: &Server, user: &str) {
    browser.open(&page(server)).await;
    browser.find_now("#user").await;
    assert_accessible(browser, "sign-in").await;
    browser.type_into("#user", user).await;
    browser.click("form button[type=submit]").await;
    browser.text_containing("#who", user).await;
    browser
        .text_when("#sessions", |text| !text.contains("Loading"))
        .await;
}

/// The cheap accessibility check on the screen as it stands.
async fn assert_accessible(browser: &Browser, screen: &str) {
    let problems = browser.accessibility_problems().await;
    assert!(problems.is_empty(), "{screen}: {problems:#?}");
}

async fn assert_no_console_errors(browser: &Browser, what: &str) {
    let errors = browser.console_errors().await;
    assert!(errors.is_empty(), "{what}: console errors {errors:?}");
}

async fn session_id(browser: &Browser) -> String {
    let value = browser
        .run("return sessionStorage.getItem('viva.session');", vec![])
        .await;
    value.as_str().expect("a session in the page").to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn an_assessment_is_answered_by_clicks_and_its_result_renders() {
    let _machine = MACHINE.lock().await;
    let server = dev_server().await;
    let driver = Driver::start().await;
    let browser = driver.browser(None).await;
    browser.open(&page(&server)).await;
    browser.find_now("#user").await;
    browser.screenshot("sign-in").await;
    sign_in(&browser, &server, "ada").await;
    browser_checks::home_page_keyboard_and_task_summary(&browser, &page(&server)).await;
    assert_accessible(&browser, "home").await;
    browser.screenshot("home").await;
    browser_checks::resampler_keeps_speech_and_drops_what_would_fold(&browser).await;
    browser_checks::client_words_are_plain(&browser).await;
    // The check itself finds what it looks for: pale text and a nameless field.
    let planted = "const p = document.createElement('p'); p.id = 'planted'; \
        p.style.color = '#dddddd'; p.textContent = 'pale'; \
        const i = document.createElement('input'); i.id = 'nameless'; \
        document.querySelector('main').append(p, i);";
    browser.run(planted, vec![]).await;
    let problems = browser.accessibility_problems().await;
    assert!(
        problems
            .iter()
            .any(|p| p.contains("contrast") && p.contains("#planted"))
            && problems.iter().any(|p| p.contains("#nameless")),
        "{problems:?}"
    );
    browser
        .run("document.querySelector('#planted').remove(); document.querySelector('#nameless').remove();", vec![])
        .await;
    browser
        .choose("#assessment-id", "MATH-FUNDAMENTALS-L1")
        .await;
    browser.click("#assessment-learning").await;
    browser.click("#start-assessment-button").await;
    let mut answered = 0;
    loop {
        let progress = browser
            .text_when("#progress, #result-title", |t| !t.is_empty())
            .await;
        if progress == "Result" {
            break;
        }
        let options = browser
            .run(
                "return document.querySelectorAll('#options button').length;",
                vec![],
            )
            .await;
        if options.as_u64().unwrap_or(0) > 0 {
            browser.click("#options button").await;
        } else {
            browser.type_into("#answer", "42").await;
            browser.click("#answer-send").await;
        }
        answered += 1;
        if answered == 1 {
            browser.text_when("#assessment", |t| !t.is_empty()).await;
            assert_accessible(&browser, "assessment").await;
            browser.screenshot("assessment-item").await;
        }
        // The next item, or the result: the page moves on by itself.
        browser
            .text_when("#progress, #result-title", |t| t != progress)
            .await;
        assert!(answered <= 60, "the assessment never ended");
    }
    let outcome = browser.text_containing("#outcome", "%").await;
    assert!(outcome.contains("passed"), "a verdict: {outcome}");
    let sections = browser.text_containing("#areas", "Addition").await;
    assert!(sections.contains("Division"), "{sections}");
    assert_accessible(&browser, "assessment result").await;
    browser.screenshot("assessment-result").await;
    assert_no_console_errors(&browser, "assessment").await;
    browser.close().await;
}

/// A browser signed in as `user` on a new tutoring session of the arithmetic course, its
/// opening turn shown; and the session's id.
async fn start_arithmetic_tutoring(
    driver: &Driver,
    server: &Server,
    user: &str,
) -> (Browser, String) {
    let browser = driver.browser(None).await;
    sign_in(&browser, server, user).await;
    browser.choose("#tutor-course", "ARITHMETIC").await;
    browser.click("#start-tutor-button").await;
    browser.text_when("#timeline", |t| !t.is_empty()).await;
    browser.text_containing("#snapshot", "Focus").await;
    let session = session_id(&browser).await;
    (browser, session)
}

/// From the tutor's opening turn: two drills answered right (their keys read from the
/// checkpoint), then Continue to the exam block; returns the open exam question's id.
async fn drills_to_exam(browser: &Browser, server: &Server, session: &str) -> String {
    browser
        .click("button[data-action=drill]:not([disabled])")
        .await;
    for streak in 1..=2 {
        // The newest card must be the new drill: the first one stays in the timeline, and
        // its key is not the one stored once the next is drawn.
        let newest_drill = "#timeline > .msg:last-child[data-action=drill]";
        browser.text_containing(newest_drill, "Drill (").await;
        let key = drill_key(server, session);
        let option = format!(
            "#timeline > .msg:last-child .options button:nth-child({})",
            key + 1
        );
        browser.click(&option).await;
        if streak == 1 {
            assert_accessible(browser, "tutor workspace").await;
            browser.screenshot("tutor-drill").await;
        }
        browser
            .click("button[data-action=check]:not([disabled])")
            .await;
        let checked = browser
            .text_containing("#timeline > .msg:last-child", &format!("Streak: {streak}"))
            .await;
        // The feedback once (the turn's message), the card's verdict apart from it.
        assert!(!checked.contains("Right. Right"), "{checked}");
        assert_eq!(checked.matches("Right:").count(), 1, "{checked}");
        // The progress panel counts the drill with the turn that checked it.
        let panel = browser
            .text_containing("#snapshot", &format!("{streak} of {streak} right"))
            .await;
        assert!(!panel.contains("not started"), "{panel}");
        if streak == 1 {
            browser.screenshot("tutor-drill-checked").await;
        }
        browser
            .click("button[data-action=continue]:not([disabled])")
            .await;
    }
    let exam = browser
        .text_containing("#timeline > .msg:last-child", "bronze")
        .await;
    let question: String = browser
        .run(
            "return document.querySelector('#timeline > .msg:last-child').dataset.action;",
            vec![],
        )
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert_eq!(
        question, "exam",
        "an exam block follows two right drills: {exam}"
    );
    let checkpoint = harness::stored_checkpoint(server, session);
    checkpoint["tutor"]["open"]["question_id"]
        .as_str()
        .expect("the open exam question")
        .to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tutoring_session_goes_from_drills_to_an_exam_block() {
    let _machine = MACHINE.lock().await;
    let server = dev_server().await;
    let driver = Driver::start().await;
    let (browser, session) = start_arithmetic_tutoring(&driver, &server, "tia").await;
    let open = drills_to_exam(&browser, &server, &session).await;
    browser.screenshot("tutor-exam").await;
    let key = exam_key("arithmetic.yaml", &open);
    browser
        .click(&format!(
            "#timeline > .msg:last-child .options button:nth-child({})",
            key + 1
        ))
        .await;
    browser
        .click("button[data-action=submit]:not([disabled])")
        .await;
    browser
        .text_containing("#timeline > .msg:last-child", "Passed")
        .await;
    browser.text_containing("#snapshot", "bronze").await;
    browser.screenshot("tutor-exam-passed").await;
    // The page opened again resumes the session; its progress panel, from the server, still
    // counts this session's two drills.
    browser.open(&page(&server)).await;
    browser.text_containing("#snapshot", "2 of 2 right").await;
    // On a phone the three panes stack, and the progress panel folds away.
    browser.resize(390, 844).await;
    browser.click(".panel-toggle").await;
    let folded = browser
        .run(
            "return document.querySelector('#snapshot').dataset.open;",
            vec![],
        )
        .await;
    assert_eq!(folded, "false");
    assert_accessible(&browser, "tutor on a phone").await;
    browser.screenshot("tutor-phone").await;
    assert_no_console_errors(&browser, "tutoring").await;
    browser.close().await;
}

async fn start_text_exam(browser: &Browser) {
    browser.choose("#exam-input", "text").await;
    browser.click("#start-exam-button").await;
    browser.text_when("#question", |t| t.len() > 10).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_second_browser_takes_the_exam_and_the_first_continues_here() {
    let _machine = MACHINE.lock().await;
    let server = dev_server().await;
    let driver = Driver::start().await;
    let laptop = driver.browser(None).await;
    sign_in(&laptop, &server, "bo").await;
    start_text_exam(&laptop).await;
    let asked = laptop.text_when("#question", |t| t.len() > 10).await;
    let phone = driver.browser(None).await;
    sign_in(&phone, &server, "bo").await;
    phone.click("#sessions button[aria-label^=Resume]").await;
    let resumed = phone.text_when("#question", |t| t.len() > 10).await;
    assert_eq!(resumed, asked, "the same question, where the exam stood");
    phone.text_containing("#progress", "Question 1 of").await;
    laptop
        .text_containing("#paused-title", "another device")
        .await;
    assert_accessible(&laptop, "paused").await;
    laptop.screenshot("takeover-paused").await;
    laptop.click("#continue-here").await;
    phone
        .text_containing("#paused-title", "another device")
        .await;
    let back = laptop.text_when("#question", |t| t.len() > 10).await;
    assert_eq!(back, asked);
    laptop.type_into("#answer", "I do not know.").await;
    laptop.click("#answer-send").await;
    laptop.text_when("#assessment", |t| !t.is_empty()).await;
    assert_no_console_errors(&laptop, "laptop").await;
    assert_no_console_errors(&phone, "phone").await;
    laptop.close().await;
    phone.close().await;
}

/// The value of the form field `css`.
async fn field_value(browser: &Browser, css: &str) -> String {
    let script = format!("return document.querySelector({css:?}).value;");
    let value = browser.run(&script, vec![]).await;
    value.as_str().unwrap_or_default().to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn an_answer_typed_while_the_server_is_down_stays_marked_and_is_sent_once_when_it_is_back() {
    let _machine = MACHINE.lock().await;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut server = Server::start_with_options(Options {
        dev: true,
        listen: Some(format!("127.0.0.1:{port}")),
        ..Default::default()
    })
    .await;
    let driver = Driver::start().await;
    let browser = driver.browser(None).await;
    sign_in(&browser, &server, "cy").await;
    start_text_exam(&browser).await;
    let asked = browser.text_when("#question", |t| t.len() > 10).await;
    server.kill().await;
    browser.text_containing("#link-state", "Reconnecting").await;
    let offline = "I do not know, typed offline.";
    browser.type_into("#answer", offline).await;
    browser.click("#answer-send").await;
    let mark = browser
        .text_containing("#answer-queued", "will be sent when you are back")
        .await;
    assert_eq!(
        field_value(&browser, "#answer").await,
        offline,
        "the answer stays in its box: {mark}"
    );
    // A second press while it waits sends nothing more.
    browser.click("#answer-send").await;
    assert_accessible(&browser, "an answer waiting for the connection").await;
    browser.screenshot("reconnecting").await;
    let server = server.restart().await;
    browser.text_containing("#link-state", "Connected").await;
    let feedback = browser.text_when("#assessment", |t| !t.is_empty()).await;
    assert!(
        feedback.contains("assessed: Unsatisfactory"),
        "the answer typed offline was assessed: {feedback}"
    );
    let question = browser.text_when("#question", |t| t != asked).await;
    assert!(!question.is_empty());
    browser
        .text_when("#answer-queued", |mark| mark.is_empty())
        .await;
    assert_eq!(
        field_value(&browser, "#answer").await,
        "",
        "the box is free"
    );
    browser.click("#end").await;
    browser.click("#end").await;
    let transcript = browser.text_containing("#result-transcript", offline).await;
    assert_eq!(
        transcript.matches(offline).count(),
        1,
        "recorded once, on the question it answered: {transcript}"
    );
    let errors = browser.console_errors().await;
    // While the server was down the page's reconnect attempts failed, and so did its check
    // of whether the sign-in was refused (the server was unreachable); that is all.
    let unexpected: Vec<&String> = errors
        .iter()
        .filter(|e| {
            !e.contains("WebSocket connection to") && !e.contains("net::ERR_CONNECTION_REFUSED")
        })
        .collect();
    assert!(unexpected.is_empty(), "console errors {unexpected:?}");
    drop(server);
    browser.close().await;
}

/// What does not fit the window: a page wider than it, and a header item (the name, the
/// connection's state, Sign out) broken over two lines or outside it. Empty when all fits.
const PHONE_FIT: &str = r#"
const problems = [];
const width = document.scrollingElement.scrollWidth;
if (width > innerWidth) problems.push(`the page is ${width} px wide in ${innerWidth} px`);
for (const item of document.querySelectorAll("header.bar > *")) {
  if (item.hidden || !item.textContent.trim()) continue;
  const range = document.createRange();
  range.selectNodeContents(item);
  const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => r.top);
  const lines = tops.filter((top) => top > Math.min(...tops) + 4).length + 1;
  if (lines > 1) problems.push(`#${item.id} "${item.textContent}" takes ${lines} lines`);
  const box = item.getBoundingClientRect();
  if (box.left < 0 || box.right > innerWidth) problems.push(`#${item.id} is outside the window`);
}
return problems;
"#;

async fn assert_fits(browser: &Browser, screen: &str) {
    let problems = browser.run(PHONE_FIT, vec![]).await;
    assert_eq!(problems, serde_json::json!([]), "{screen}");
}

#[tokio::test(flavor = "multi_thread")]
async fn on_a_phone_the_header_and_the_result_page_fit_the_screen() {
    let _machine = MACHINE.lock().await;
    let server = dev_server().await;
    let driver = Driver::start().await;
    let browser = driver.browser(None).await;
    browser.resize(390, 844).await;
    let width = browser.run("return innerWidth;", vec![]).await;
    assert_eq!(width, 390, "a phone's width");
    sign_in(&browser, &server, "alexandra.k").await;
    assert_fits(&browser, "home").await;
    browser.screenshot("home-phone").await;
    start_text_exam(&browser).await;
    assert_fits(&browser, "exam").await;
    browser_checks::exam_page_is_labelled_and_quiet(&browser).await;
    let asked = browser.text_when("#question", |t| t.len() > 10).await;
    browser.type_into("#answer", "I do not know.").await;
    browser.click("#answer-send").await;
    browser_checks::first_assessment_is_labelled(&browser, &asked, "Unsatisfactory").await;
    assert_accessible(&browser, "exam on a phone").await;
    browser.screenshot("exam-assessed-phone").await;
    browser.click("#end").await;
    browser.click("#end").await;
    browser.text_containing("#areas", "Satisfactory").await;
    let transcript = browser
        .text_containing("#result-transcript", "I do not know.")
        .await;
    // The question as the examiner asked it, its element code secondary.
    assert!(
        transcript.contains(&asked) && transcript.contains("Element PA."),
        "{transcript}"
    );
    browser.text_containing("#outcome", "Incomplete").await;
    browser
        .text_containing("#outcome-meaning", "no pass or fail verdict")
        .await;
    assert_fits(&browser, "result").await;
    assert_accessible(&browser, "result on a phone").await;
    browser.run("window.scrollTo(0, 0);", vec![]).await;
    browser.screenshot("exam-result-phone").await;
    assert_no_console_errors(&browser, "phone").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_checkride_records_answers_quietly_and_ends_with_its_debrief() {
    let _machine = MACHINE.lock().await;
    let server = dev_server().await;
    let driver = Driver::start().await;
    let browser = driver.browser(None).await;
    sign_in(&browser, &server, "cass").await;
    browser.choose("#exam-style", "checkride").await;
    start_text_exam(&browser).await;
    browser.type_into("#answer", "I do not know.").await;
    browser.click("#answer-send").await;
    browser
        .text_containing("#assessment", "Question 1 \u{2014} answer recorded")
        .await;
    browser
        .text_containing("#question", "Let's come back to that later.")
        .await;
    assert_accessible(&browser, "checkride question").await;
    browser.click("#end").await;
    browser.click("#end").await;
    let outcome = browser
        .text_containing("#debrief-outcome", "letter of discontinuance")
        .await;
    assert!(outcome.contains("61.43(f)"), "{outcome}");
    browser
        .text_containing(".debrief-item", "I do not know.")
        .await;
    assert_accessible(&browser, "checkride debrief").await;
    browser.screenshot("checkride-debrief").await;
    assert_no_console_errors(&browser, "checkride").await;
    browser.close().await;
}

/// A WAV file the fake microphone plays: a second of silence, the answer, then silence
/// longer than the thinking pause, so the server ends the turn by itself.
fn spoken_answer(dir: &Path, text: &str) -> PathBuf {
    let mut samples = vec![0i16; RATE];
    samples.extend(synthesize(text));
    samples.extend(std::iter::repeat_n(0i16, RATE * 8));
    let path = dir.join("answer.wav");
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: RATE as u32,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut writer = hound::WavWriter::create(&path, spec).expect("write the answer");
    for sample in samples {
        writer.write_sample(sample).expect("a sample");
    }
    writer.finalize().expect("finish the answer");
    path
}

#[tokio::test(flavor = "multi_thread")]
async fn a_voice_exam_is_answered_by_the_microphone_and_graded() {
    let _machine = MACHINE.lock().await;
    let model = model_file("ggml-tiny.en.bin");
    let server = Server::start_with_options(Options {
        dev: true,
        args: vec!["--whisper-model".into(), model.display().to_string()],
        ..Default::default()
    })
    .await;
    let audio = tempfile::tempdir().expect("audio dir");
    let wav = spoken_answer(
        audio.path(),
        "A private pilot needs a pilot certificate, a current medical certificate and a flight review.",
    );
    let driver = Driver::start().await;
    let browser = driver.browser(Some(&wav)).await;
    sign_in(&browser, &server, "dee").await;
    browser.choose("#exam-input", "voice").await;
    browser.click("#start-exam-button").await;
    browser.text_when("#question", |t| t.len() > 10).await;
    browser.screenshot("exam-question").await;
    browser_checks::read_aloud_is_a_real_toggle(&browser).await;
    // The page does not listen while it reads aloud; the fake microphone starts at once.
    if browser
        .run(
            "return document.querySelector('#speak').getAttribute('aria-pressed');",
            vec![],
        )
        .await
        == "true"
    {
        browser.click("#speak").await;
    }
    // A microphone the browser refuses: a helpful notice, not the raw error.
    let refuse_once = "const devices = navigator.mediaDevices; const real = devices.getUserMedia; \
        devices.getUserMedia = () => { devices.getUserMedia = real; \
        return Promise.reject(new DOMException('Permission denied', 'NotAllowedError')); };";
    browser.run(refuse_once, vec![]).await;
    browser.click("#mic").await;
    let refused = browser
        .text_containing("#notice", "not allowed to use your microphone")
        .await;
    assert!(!refused.contains("NotAllowedError"), "{refused}");
    browser.screenshot("exam-microphone-refused").await;
    browser.click("#mic").await;
    let assessed = browser.text_containing("#assessment", "You said").await;
    assert!(
        assessed.to_lowercase().contains("medical"),
        "the transcript of what the microphone played, assessed: {assessed}"
    );
    browser_checks::text_content_when(&browser, "#announcer", |t| t.contains("You said")).await;
    assert_accessible(&browser, "exam").await;
    browser.screenshot("exam-assessed").await;
    browser.click("#end").await;
    browser.click("#end").await;
    browser.text_containing("#result-title", "Result").await;
    browser.text_when("#outcome", |t| !t.is_empty()).await;
    let transcript = browser
        .text_containing("#result-transcript", "medical")
        .await;
    assert!(transcript.contains("PA."), "{transcript}");
    assert_accessible(&browser, "exam result").await;
    browser.screenshot("exam-result").await;
    browser
        .run(
            "document.querySelector('#result-transcript').scrollIntoView();",
            vec![],
        )
        .await;
    browser.screenshot("exam-result-transcript").await;
    assert_no_console_errors(&browser, "voice exam").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_token_signs_in_and_an_expired_one_is_asked_for_again() {
    let _machine = MACHINE.lock().await;
    let server = Server::start().await;
    let driver = Driver::start().await;
    let browser = driver.browser(None).await;
    let signed = format!("{}?access_token={}", page(&server), harness::token("eve"));
    browser.open(&signed).await;
    browser.text_containing("#who", "Signed in").await;
    browser
        .text_when("#sessions", |text| text.contains("None yet"))
        .await;
    // The review reads `GET /v1/progress` with the same token: nothing examined yet.
    browser
        .text_when("#review", |text| text.contains("Nothing yet"))
        .await;
    let address: String = browser
        .run("return location.href;", vec![])
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        !address.contains("access_token"),
        "the token leaves the address bar: {address}"
    );
    assert_no_console_errors(&browser, "signed in by token").await;
    let stale = driver.browser(None).await;
    let expired = format!(
        "{}?access_token={}",
        page(&server),
        harness::expired_token("eve")
    );
    stale.open(&expired).await;
    stale.text_containing("#notice", "sign in again").await;
    stale.find_now("#token").await;
    assert_accessible(&stale, "sign-in by token").await;
    browser.close().await;
    stale.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_wrong_exam_answer_locks_the_question_with_a_countdown() {
    let _machine = MACHINE.lock().await;
    let server = dev_server().await;
    let driver = Driver::start().await;
    let (browser, session) = start_arithmetic_tutoring(&driver, &server, "lu").await;
    let open = drills_to_exam(&browser, &server, &session).await;
    let wrong = (exam_key("arithmetic.yaml", &open) + 1) % 4;
    browser
        .click(&format!(
            "#timeline > .msg:last-child .options button:nth-child({})",
            wrong + 1
        ))
        .await;
    browser
        .click("button[data-action=submit]:not([disabled])")
        .await;
    let result = browser
        .text_containing("#timeline > .msg:last-child", "locked for")
        .await;
    assert!(result.contains("Not this time"), "{result}");
    assert!(
        result.contains(" h ") || result.contains("min"),
        "a countdown: {result}"
    );
    let snapshot = browser.text_containing("#snapshot", "Locked").await;
    assert!(snapshot.contains(&open), "{snapshot}");
    assert_no_console_errors(&browser, "locked").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_server_voice_plays_the_question_in_the_page() {
    let _machine = MACHINE.lock().await;
    let model = model_file("ggml-tiny.en.bin");
    let server = Server::start_with_options(Options {
        dev: true,
        args: vec![
            "--whisper-model".into(),
            model.display().to_string(),
            "--tts".into(),
            "festival".into(),
        ],
        ..Default::default()
    })
    .await;
    let driver = Driver::start().await;
    let browser = driver.browser(None).await;
    browser.open(&page(&server)).await;
    browser
        .run("localStorage.setItem('viva.server-voice', 'on');", vec![])
        .await;
    sign_in(&browser, &server, "vic").await;
    start_text_exam(&browser).await;
    let pressed = "return document.querySelector('#server-voice').getAttribute('aria-pressed');";
    assert_eq!(browser.run(pressed, vec![]).await, "true");
    // The page counts what it scheduled on its AudioContext.
    let stats = "return globalThis.vivaVoice;";
    let mut voice = browser.run(stats, vec![]).await;
    for _ in 0..300 {
        if voice["ended"].as_array().is_some_and(|e| !e.is_empty()) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        voice = browser.run(stats, vec![]).await;
    }
    assert_eq!(voice["started"], 1, "{voice}");
    assert_eq!(voice["ended"][0], "completed", "{voice}");
    let samples = voice["samples"].as_u64().unwrap_or(0);
    assert!(samples > 22_050, "a second of audio at least: {voice}");
    browser.screenshot("exam-server-voice").await;
    assert_no_console_errors(&browser, "server voice").await;
    browser.close().await;
}

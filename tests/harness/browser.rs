//! A real browser for the web client's tests: Debian's headless Chromium under chromedriver,
//! driven over WebDriver (fantoccini), with a fake microphone that plays a WAV file (what
//! `scripts/setup --test` installs). Each browser is its own Chromium with its own profile,
//! so two of them are two devices. Screenshots go to `$VIVA_SCREENSHOTS`, by default
//! `screenshots/` under cargo's target directory, where CI keeps them.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use fantoccini::wd::{Capabilities, WebDriverCompatibleCommand};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use tempfile::TempDir;
use tokio::process::{Child, Command};

/// Long enough only for a hang: a page event, a model decode on a busy machine.
const WAIT: Duration = Duration::from_secs(90);
const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// A running chromedriver; browsers open sessions on it. Killed on drop.
pub struct Driver {
    child: Child,
    url: String,
}

impl Driver {
    /// Starts chromedriver on a free loopback port.
    pub async fn start() -> Driver {
        assert!(
            Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists(),
            "{CHROMIUM} and {CHROMEDRIVER} are missing: run scripts/setup --test \
             (apt-get install chromium chromium-driver)"
        );
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("start chromedriver");
        let url = format!("http://127.0.0.1:{port}");
        let status = format!("127.0.0.1:{port}");
        tokio::time::timeout(WAIT, async {
            while tokio::net::TcpStream::connect(&status).await.is_err() {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        })
        .await
        .expect("chromedriver listening");
        Driver { child, url }
    }

    /// A new browser (its own Chromium and profile); `microphone` is the WAV file its fake
    /// microphone plays once, from when the page opens it.
    pub async fn browser(&self, microphone: Option<&Path>) -> Browser {
        let profile = tempfile::tempdir().expect("a browser profile");
        let mut args = vec![
            "--headless=new".to_owned(),
            "--no-sandbox".to_owned(),
            "--disable-gpu".to_owned(),
            "--disable-dev-shm-usage".to_owned(),
            "--window-size=1280,900".to_owned(),
            "--use-fake-ui-for-media-stream".to_owned(),
            "--use-fake-device-for-media-stream".to_owned(),
            "--autoplay-policy=no-user-gesture-required".to_owned(),
            format!("--user-data-dir={}", profile.path().display()),
        ];
        if let Some(wav) = microphone {
            args.push(format!(
                "--use-file-for-fake-audio-capture={}%noloop",
                wav.display()
            ));
        }
        let mut capabilities = Capabilities::new();
        capabilities.insert(
            "goog:chromeOptions".into(),
            json!({"binary": CHROMIUM, "args": args}),
        );
        capabilities.insert("goog:loggingPrefs".into(), json!({"browser": "ALL"}));
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = ClientBuilder::new(connector)
            .capabilities(capabilities)
            .connect(&self.url)
            .await
            .expect("a Chromium session");
        Browser {
            client,
            _profile: profile,
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
    }
}

/// One browser window.
pub struct Browser {
    client: Client,
    _profile: TempDir,
}

impl Browser {
    /// Opens `url`.
    pub async fn open(&self, url: &str) {
        self.client.goto(url).await.expect("open the page");
    }

    /// Waits until `css` matches an element, then clicks it.
    pub async fn click(&self, css: &str) {
        let element = self.find(css).await;
        element
            .click()
            .await
            .unwrap_or_else(|err| panic!("click {css}: {err}"));
    }

    /// Waits until `css` matches an element, then types `text` into it.
    pub async fn type_into(&self, css: &str, text: &str) {
        let element = self.find(css).await;
        element
            .send_keys(text)
            .await
            .unwrap_or_else(|err| panic!("type into {css}: {err}"));
    }

    /// Picks the option whose value is `value` in the select `css`.
    pub async fn choose(&self, css: &str, value: &str) {
        let element = self.find(css).await;
        element
            .select_by_value(value)
            .await
            .unwrap_or_else(|err| panic!("choose {value} in {css}: {err}"));
    }

    /// Waits until `css` matches an element.
    pub async fn find_now(&self, css: &str) {
        self.find(css).await;
    }

    async fn find(&self, css: &str) -> fantoccini::elements::Element {
        let wait = self.client.wait().forever().for_element(Locator::Css(css));
        match tokio::time::timeout(WAIT, wait).await {
            Ok(Ok(element)) => element,
            Ok(Err(err)) => panic!("find {css}: {err}"),
            Err(_) => panic!(
                "no {css} within {WAIT:?}; the page: {}",
                self.page_text().await
            ),
        }
    }

    /// Waits until the text of `css` satisfies `ready`; returns it.
    pub async fn text_when(&self, css: &str, ready: impl Fn(&str) -> bool) -> String {
        let wait = async {
            loop {
                if let Ok(element) = self.client.find(Locator::Css(css)).await
                    && let Ok(text) = element.text().await
                    && ready(&text)
                {
                    return text;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        };
        match tokio::time::timeout(WAIT, wait).await {
            Ok(text) => text,
            Err(_) => panic!(
                "{css} never became ready within {WAIT:?}; the page: {}",
                self.page_text().await
            ),
        }
    }

    /// Waits until `css` holds some text containing `part`.
    pub async fn text_containing(&self, css: &str, part: &str) -> String {
        self.text_when(css, |text| text.contains(part)).await
    }

    /// The page's visible text.
    pub async fn page_text(&self) -> String {
        match self.client.find(Locator::Css("body")).await {
            Ok(body) => body.text().await.unwrap_or_default(),
            Err(err) => format!("(no body: {err})"),
        }
    }

    /// Runs `script` in the page (its `arguments` are `args`) and returns its value.
    pub async fn run(&self, script: &str, args: Vec<Value>) -> Value {
        self.client
            .execute(script, args)
            .await
            .unwrap_or_else(|err| panic!("script failed: {err}"))
    }

    /// What a cheap accessibility check finds on the page as it stands: form controls
    /// and buttons with no accessible name, a positive `tabindex` (which breaks the focus
    /// order), and visible text whose contrast with its background is under WCAG AA
    /// (4.5:1, or 3:1 for large text). Empty when all is well.
    pub async fn accessibility_problems(&self) -> Vec<String> {
        let found = self.run(ACCESSIBILITY_CHECK, vec![]).await;
        found
            .as_array()
            .into_iter()
            .flatten()
            .map(|problem| problem.as_str().unwrap_or_default().to_owned())
            .collect()
    }

    /// Presses and releases `key` (WebDriver actions: the key goes wherever focus is).
    pub async fn press(&self, key: Key) {
        let key: char = key.into();
        let actions = KeyActions::new("keyboard".to_owned())
            .then(KeyAction::Down { value: key })
            .then(KeyAction::Up { value: key });
        self.client
            .perform_actions(actions)
            .await
            .expect("press a key");
    }

    /// Presses Tab until the focused element matches `css`; returns how many presses it
    /// took, or `None` after `most`.
    pub async fn tabs_to(&self, css: &str, most: u32) -> Option<u32> {
        let focused = format!("return document.activeElement.matches({css:?});");
        for presses in 1..=most {
            self.press(Key::Tab).await;
            if self.run(&focused, vec![]).await == true {
                return Some(presses);
            }
        }
        None
    }

    /// Resizes the window (a phone is 390 × 844).
    pub async fn resize(&self, width: u32, height: u32) {
        self.client
            .set_window_size(width, height)
            .await
            .expect("resize the window");
    }

    /// Saves a screenshot as `name.png`; returns where.
    pub async fn screenshot(&self, name: &str) -> PathBuf {
        let png = self.client.screenshot().await.expect("a screenshot");
        let dir = screenshots_dir();
        std::fs::create_dir_all(&dir).expect("the screenshot folder");
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, png).expect("write the screenshot");
        path
    }

    /// What the page logged at level SEVERE (console errors, failed loads, uncaught
    /// exceptions) since the last call.
    pub async fn console_errors(&self) -> Vec<String> {
        let logs = self
            .client
            .issue_cmd(BrowserLog)
            .await
            .expect("read the browser log");
        logs.as_array()
            .into_iter()
            .flatten()
            .filter(|entry| entry["level"] == "SEVERE")
            .map(|entry| entry["message"].as_str().unwrap_or_default().to_owned())
            .collect()
    }

    /// Closes the browser.
    pub async fn close(self) {
        let _ = self.client.close().await;
    }
}

/// Where screenshots go.
pub fn screenshots_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("VIVA_SCREENSHOTS") {
        return PathBuf::from(dir);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"),
        PathBuf::from,
    );
    target.join("screenshots")
}

/// chromedriver's log endpoint (`goog:loggingPrefs` turns the browser log on).
#[derive(Debug)]
struct BrowserLog;

impl WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/se/log",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (::http::Method, Option<String>) {
        (
            ::http::Method::POST,
            Some(r#"{"type": "browser"}"#.to_owned()),
        )
    }
}

/// The page-side half of [`Browser::accessibility_problems`].
const ACCESSIBILITY_CHECK: &str = r##"
const problems = [];
const visible = (e) => e.offsetParent !== null || getComputedStyle(e).position === "fixed";
const describe = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + " " + (e.textContent || "").trim().slice(0, 30);
for (const e of document.querySelectorAll("input, select, textarea, button")) {
  if (!visible(e) || e.type === "hidden") continue;
  const named = e.getAttribute("aria-label") || e.getAttribute("aria-labelledby")
    || (e.id && document.querySelector(`label[for="${e.id}"]`)) || e.closest("label")
    || (e.tagName === "BUTTON" && e.textContent.trim());
  if (!named) problems.push("no accessible name: " + describe(e));
}
for (const e of document.querySelectorAll("[tabindex]")) {
  if (Number(e.getAttribute("tabindex")) > 0) problems.push("positive tabindex: " + describe(e));
}
const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
const luminance = ([r, g, b]) => {
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
};
const background = (e) => {
  for (let n = e; n; n = n.parentElement) {
    const c = rgb(getComputedStyle(n).backgroundColor);
    if (c.length >= 3 && (c.length < 4 || c[3] > 0.5)) return c;
  }
  return [255, 255, 255];
};
for (const e of document.querySelectorAll("body *")) {
  const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  if (!own || !visible(e) || e.closest("[disabled]")) continue;
  const style = getComputedStyle(e);
  const a = luminance(rgb(style.color)), b = luminance(background(e));
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
  const needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
  if (ratio < needed) problems.push(`contrast ${ratio.toFixed(2)} < ${needed}: ` + describe(e));
}
return problems;
"##;

//! `[llm]` and the `--llm-*` flags: which OpenAI-compatible endpoint examines, checked once.
//! With no URL, the embedded examiner runs and nothing here is needed.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, bail};
use serde::Deserialize;
use viva_llm::provider::LlmSettings;

/// `[llm]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LlmSection {
    /// The API base, such as `http://127.0.0.1:8090/v1`.
    pub url: Option<String>,
    /// The model name.
    pub model: Option<String>,
    /// The most one call may take, such as `"8s"`.
    pub timeout: Option<String>,
    /// Calls in flight at once.
    pub max_in_flight: Option<usize>,
    /// The token cap of one reply.
    pub max_tokens: Option<u32>,
    /// A folder of prompt templates replacing the built-in ones file by file.
    pub prompts: Option<PathBuf>,
    /// Whether the examiner phrases the likely next question while the candidate answers
    /// (default true; a call that misses is wasted, so a metered endpoint may turn it off).
    pub phrase_ahead: Option<bool>,
}

/// What the flags say; they win over the file.
#[derive(Debug, Default, Clone)]
pub struct LlmFlags {
    /// `--llm-url`.
    pub url: Option<String>,
    /// `--llm-model`.
    pub model: Option<String>,
    /// `--llm-api-key` (or `VIVA_LLM_API_KEY`).
    pub api_key: Option<String>,
    /// `--prompts`.
    pub prompts: Option<PathBuf>,
}

const DEFAULT_TIMEOUT: Duration = Duration::from_secs(8);
const TIMEOUTS: std::ops::RangeInclusive<Duration> =
    Duration::from_millis(100)..=Duration::from_secs(120);

/// The endpoint to use, or `None` for the embedded examiner; and the prompts folder.
pub fn resolve(
    section: &LlmSection,
    flags: LlmFlags,
) -> anyhow::Result<(Option<LlmSettings>, Option<PathBuf>)> {
    let prompts = flags.prompts.or_else(|| section.prompts.clone());
    let Some(url) = flags.url.or_else(|| section.url.clone()) else {
        return Ok((None, prompts));
    };
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        bail!("the LLM URL must be http:// or https://, not {url:?}");
    }
    let Some(model) = flags.model.or_else(|| section.model.clone()) else {
        bail!("an LLM URL needs a model name (--llm-model or [llm] model)");
    };
    let timeout = match &section.timeout {
        Some(text) => {
            humantime::parse_duration(text).with_context(|| format!("[llm] timeout = {text:?}"))?
        }
        None => DEFAULT_TIMEOUT,
    };
    if !TIMEOUTS.contains(&timeout) {
        bail!("[llm] timeout must be 100ms to 120s, not {timeout:?}");
    }
    let max_in_flight = section.max_in_flight.unwrap_or(4);
    let max_tokens = section.max_tokens.unwrap_or(256);
    if !(1..=256).contains(&max_in_flight) || !(16..=4096).contains(&max_tokens) {
        bail!("[llm] max_in_flight must be 1 to 256 and max_tokens 16 to 4096");
    }
    let settings = LlmSettings {
        base_url: url,
        model,
        api_key: flags.api_key,
        timeout,
        max_in_flight,
        max_tokens,
    };
    Ok((Some(settings), prompts))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(text: &str) -> LlmSection {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn no_url_means_the_embedded_examiner() {
        let (settings, prompts) = resolve(&LlmSection::default(), LlmFlags::default()).unwrap();
        assert!(settings.is_none() && prompts.is_none());
    }

    #[test]
    fn flags_win_and_defaults_fill_in() {
        let file =
            section("url = \"http://127.0.0.1:1/v1\"\nmodel = \"file-model\"\ntimeout = \"3s\"");
        let flags = LlmFlags {
            model: Some("flag-model".into()),
            ..LlmFlags::default()
        };
        let settings = resolve(&file, flags).unwrap().0.unwrap();
        assert_eq!(settings.model, "flag-model");
        assert_eq!(settings.timeout, Duration::from_secs(3));
        assert_eq!((settings.max_in_flight, settings.max_tokens), (4, 256));
    }

    #[test]
    fn bad_settings_are_refused_with_the_reason() {
        let no_model = section("url = \"http://127.0.0.1:1/v1\"");
        let err = resolve(&no_model, LlmFlags::default()).unwrap_err();
        assert!(err.to_string().contains("model"), "{err}");
        let ftp = section("url = \"ftp://x\"\nmodel = \"m\"");
        assert!(resolve(&ftp, LlmFlags::default()).is_err());
        let slow = section("url = \"http://x/v1\"\nmodel = \"m\"\ntimeout = \"10m\"");
        assert!(resolve(&slow, LlmFlags::default()).is_err());
        let greedy = section("url = \"http://x/v1\"\nmodel = \"m\"\nmax_in_flight = 0");
        assert!(resolve(&greedy, LlmFlags::default()).is_err());
    }
}

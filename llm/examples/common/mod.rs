//! What the tutor's benchmark tools share.

use std::time::Duration;

use viva_llm::provider::{LlmSettings, Provider};

/// One call at a time to the model at `url`, each bounded by `timeout`.
pub fn provider(url: &str, model: &str, timeout: Duration, max_tokens: u32) -> Provider {
    Provider::new(LlmSettings {
        base_url: url.to_owned(),
        model: model.to_owned(),
        api_key: None,
        timeout,
        max_in_flight: 1,
        max_tokens,
    })
}

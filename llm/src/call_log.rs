//! One model call's turn log, filled in as the call goes: the prompt hash, latency, tokens,
//! and the outcome with its reason. Every adapter (the examiner, the tutor) logs the same way.

use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};
use viva_core::examiner::ExaminerCall;

use crate::provider::Reply;

/// One model call under way: what its turn log needs, filled in as it goes.
pub(crate) struct CallLog {
    pub(crate) call: &'static str,
    pub(crate) prompt_hash: String,
    pub(crate) began: Instant,
    pub(crate) reply: Option<Reply>,
}

impl CallLog {
    pub(crate) fn new(call: &'static str) -> CallLog {
        CallLog {
            call,
            prompt_hash: String::new(),
            began: Instant::now(),
            reply: None,
        }
    }

    /// The turn log entry: `fallback` names why the reply was not used.
    pub(crate) fn finish(self, model: &str, fallback: Option<&'static str>) -> ExaminerCall {
        let millis = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let reply = self.reply.unwrap_or_default();
        // From the call's start, as the first token is: rendering the prompts included.
        let latency = self.began.elapsed();
        ExaminerCall {
            call: self.call.to_owned(),
            model: model.to_owned(),
            prompt_hash: self.prompt_hash,
            latency_ms: millis(latency),
            first_token_ms: reply.first_token.map(millis),
            prompt_tokens: reply.prompt_tokens,
            completion_tokens: reply.completion_tokens,
            outcome: if fallback.is_some() {
                "fallback"
            } else {
                "used"
            }
            .to_owned(),
            fallback_reason: fallback.map(str::to_owned),
        }
    }
}

/// The first 16 hex digits of the SHA-256 of a call's two prompts.
pub fn prompt_hash(system: &str, user: &str) -> String {
    let digest = Sha256::new()
        .chain_update(system.as_bytes())
        .chain_update([0])
        .chain_update(user.as_bytes())
        .finalize();
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prompt_hash_is_stable_and_tells_system_from_user() {
        let hash = prompt_hash("system", "user");
        assert_eq!(hash.len(), 16);
        assert_eq!(hash, prompt_hash("system", "user"));
        assert_ne!(hash, prompt_hash("systemuser", ""));
        assert_ne!(hash, prompt_hash("system", "user "));
    }

    #[test]
    fn a_call_log_says_used_or_why_not() {
        let mut log = CallLog::new("assess");
        log.prompt_hash = "ab".into();
        log.began = Instant::now()
            .checked_sub(Duration::from_millis(2_500))
            .unwrap();
        log.reply = Some(Reply {
            prompt_tokens: 600,
            completion_tokens: 80,
            first_token: Some(Duration::from_millis(40)),
            ..Reply::default()
        });
        let used = log.finish("qwen", None);
        assert_eq!(
            (used.outcome.as_str(), used.first_token_ms),
            ("used", Some(40))
        );
        assert!(used.latency_ms >= 2_500, "from the call's start: {used:?}");
        assert_eq!((used.prompt_tokens, used.completion_tokens), (600, 80));
        let failed = CallLog::new("phrase").finish("qwen", Some("timeout"));
        assert_eq!(failed.outcome, "fallback");
        assert_eq!(failed.fallback_reason.as_deref(), Some("timeout"));
        assert_eq!(
            (failed.call.as_str(), failed.model.as_str()),
            ("phrase", "qwen")
        );
    }
}

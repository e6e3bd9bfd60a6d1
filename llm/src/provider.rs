//! The model behind an OpenAI-compatible chat-completions endpoint (OpenAI, llama.cpp's
//! server, vLLM, Ollama), through async-openai. Every call is bounded: it waits for one of
//! `max_in_flight` permits and for the reply within one `timeout`, and it is made once.
//! async-openai's default client retries server errors and 429s three times (measured: a
//! 500 was requested 4 times); this provider hands it a plain reqwest service instead, so
//! nothing is retried. What the caller does with a failure is to fall back, not to call
//! again.

use std::sync::Arc;
use std::time::{Duration, Instant};

use async_openai::Client;
use async_openai::config::OpenAIConfig;
use async_openai::types::chat::{
    ChatCompletionRequestMessage, ChatCompletionRequestSystemMessageArgs,
    ChatCompletionRequestUserMessageArgs, CreateChatCompletionRequestArgs, FinishReason,
    ResponseFormat, ResponseFormatJsonSchema,
};
use serde_json::Value;
use tokio::sync::Semaphore;

/// Where the model is and how far to trust its latency.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmSettings {
    /// The API base, such as `http://127.0.0.1:8090/v1`.
    pub base_url: String,
    /// The model name sent with each request.
    pub model: String,
    /// The API key, if the endpoint wants one.
    pub api_key: Option<String>,
    /// The most one call may take, waiting for a permit included.
    pub timeout: Duration,
    /// Calls in flight at once, across all sessions.
    pub max_in_flight: usize,
    /// The token cap of one reply.
    pub max_tokens: u32,
}

/// A reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// Its text.
    pub text: String,
    /// It stopped at the token cap.
    pub truncated: bool,
    /// Prompt tokens, as the server counted them (0 when it did not say).
    pub prompt_tokens: u32,
    /// Reply tokens.
    pub completion_tokens: u32,
    /// From asking for a permit to the whole reply.
    pub latency: Duration,
}

/// Why a call gave no reply.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CallError {
    /// No reply within the timeout.
    #[error("no reply within {0:?}")]
    Timeout(Duration),
    /// The endpoint failed (connection, HTTP status, or a body that is not a completion).
    #[error("endpoint: {0}")]
    Endpoint(String),
    /// A completion without text.
    #[error("the reply had no text")]
    Empty,
}

impl CallError {
    /// A stable label for metrics and logs.
    pub fn label(&self) -> &'static str {
        match self {
            CallError::Timeout(_) => "timeout",
            CallError::Endpoint(_) => "endpoint",
            CallError::Empty => "empty",
        }
    }
}

/// The model, shared by every session of a node.
pub struct Provider {
    client: Client<OpenAIConfig>,
    settings: LlmSettings,
    permits: Arc<Semaphore>,
}

impl std::fmt::Debug for Provider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Provider")
            .field("base_url", &self.settings.base_url)
            .field("model", &self.settings.model)
            .finish_non_exhaustive()
    }
}

impl Provider {
    /// A provider for `settings`.
    pub fn new(settings: LlmSettings) -> Provider {
        let mut config = OpenAIConfig::new().with_api_base(&settings.base_url);
        if let Some(key) = &settings.api_key {
            config = config.with_api_key(key);
        }
        // No retry layer: one request per call.
        let plain = async_openai::middleware::ReqwestService::new(reqwest::Client::new());
        Provider {
            client: Client::with_config(config).with_http_service(plain),
            permits: Arc::new(Semaphore::new(settings.max_in_flight.max(1))),
            settings,
        }
    }

    /// The settings it was made with.
    pub fn settings(&self) -> &LlmSettings {
        &self.settings
    }

    /// A reply to `user` under `system`, as JSON following `schema` when one is given.
    pub async fn complete(
        &self,
        system: &str,
        user: &str,
        schema: Option<(&str, Value)>,
    ) -> Result<Reply, CallError> {
        let began = Instant::now();
        let limit = self.settings.timeout;
        let call = async {
            let _permit = self
                .permits
                .acquire()
                .await
                .map_err(|err| CallError::Endpoint(err.to_string()))?;
            self.call(system, user, schema).await
        };
        let mut reply = tokio::time::timeout(limit, call)
            .await
            .map_err(|_| CallError::Timeout(limit))??;
        reply.latency = began.elapsed();
        Ok(reply)
    }

    async fn call(
        &self,
        system: &str,
        user: &str,
        schema: Option<(&str, Value)>,
    ) -> Result<Reply, CallError> {
        let endpoint = |err: async_openai::error::OpenAIError| CallError::Endpoint(err.to_string());
        let messages: Vec<ChatCompletionRequestMessage> = vec![
            ChatCompletionRequestSystemMessageArgs::default()
                .content(system)
                .build()
                .map_err(endpoint)?
                .into(),
            ChatCompletionRequestUserMessageArgs::default()
                .content(user)
                .build()
                .map_err(endpoint)?
                .into(),
        ];
        let mut request = CreateChatCompletionRequestArgs::default();
        request
            .model(&self.settings.model)
            .messages(messages)
            .max_completion_tokens(self.settings.max_tokens);
        if let Some((name, schema)) = schema {
            request.response_format(ResponseFormat::JsonSchema {
                json_schema: ResponseFormatJsonSchema {
                    name: name.to_owned(),
                    description: None,
                    schema,
                    strict: Some(true),
                },
            });
        }
        let request = request.build().map_err(endpoint)?;
        let response = self.client.chat().create(request).await.map_err(endpoint)?;
        let choice = response
            .choices
            .into_iter()
            .next()
            .ok_or(CallError::Empty)?;
        let text = choice.message.content.filter(|t| !t.trim().is_empty());
        let usage = response.usage.unwrap_or_default();
        Ok(Reply {
            text: text.ok_or(CallError::Empty)?,
            truncated: choice.finish_reason == Some(FinishReason::Length),
            prompt_tokens: usage.prompt_tokens,
            completion_tokens: usage.completion_tokens,
            latency: Duration::ZERO,
        })
    }
}

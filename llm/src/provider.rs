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
    ChatCompletionRequestUserMessageArgs, ChatCompletionStreamOptions, CreateChatCompletionRequest,
    CreateChatCompletionRequestArgs, FinishReason, ResponseFormat, ResponseFormatJsonSchema,
};
use futures_util::StreamExt;
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

/// What a streaming caller wants after a piece of text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Keep the model writing.
    Continue,
    /// Stop: the text so far is enough, or already unusable.
    Stop,
}

/// A reply.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reply {
    /// Its text.
    pub text: String,
    /// It stopped at the token cap.
    pub truncated: bool,
    /// Prompt tokens, as the server counted them (0 when it did not say).
    pub prompt_tokens: u32,
    /// Reply tokens.
    pub completion_tokens: u32,
    /// From asking to the first piece of a streamed reply (`None` when not streamed).
    pub first_token: Option<Duration>,
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
        // No retry layer: one request per call. No idle connections either: llama.cpp's
        // server may close a kept-alive connection just as the next call takes it from the
        // pool, and with no retry that call would fail (seen: 1 assessment in 6). A fresh
        // connection costs a loopback round trip, or a TLS handshake for a remote endpoint,
        // small beside a model call.
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(0)
            .build()
            .unwrap_or_default();
        let plain = async_openai::middleware::ReqwestService::new(http);
        Provider {
            client: Client::with_config(config).with_http_service(plain),
            permits: Arc::new(Semaphore::new(settings.max_in_flight.max(1))),
            settings,
        }
    }

    /// The same provider with another token cap per reply.
    pub fn with_max_tokens(self, max_tokens: u32) -> Provider {
        let settings = LlmSettings {
            max_tokens,
            ..self.settings
        };
        Provider { settings, ..self }
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
        let request = self.request(system, user, schema)?;
        self.bounded(Instant::now(), async {
            let response = self.client.chat().create(request).await.map_err(endpoint)?;
            let usage = response.usage.unwrap_or_default();
            let choice = response
                .choices
                .into_iter()
                .next()
                .ok_or(CallError::Empty)?;
            let text = choice.message.content.unwrap_or_default();
            Ok(Reply {
                text,
                truncated: choice.finish_reason == Some(FinishReason::Length),
                prompt_tokens: usage.prompt_tokens,
                completion_tokens: usage.completion_tokens,
                first_token: None,
                latency: Duration::ZERO,
            })
        })
        .await
    }

    /// A reply to `user` under `system` (as JSON following `schema` when one is given),
    /// streamed: each piece of text goes to `piece` as it arrives, and the stream is dropped
    /// (the model server stops generating) as soon as `piece` answers [`Flow::Stop`]. The
    /// reply holds the text received until then.
    pub async fn stream(
        &self,
        system: &str,
        user: &str,
        schema: Option<(&str, Value)>,
        piece: &mut (dyn FnMut(&str) -> Flow + Send),
    ) -> Result<Reply, CallError> {
        let mut request = self.request(system, user, schema)?;
        request.stream_options = Some(ChatCompletionStreamOptions {
            include_usage: Some(true),
            include_obfuscation: None,
        });
        let began = Instant::now();
        self.bounded(began, async {
            let mut stream = self
                .client
                .chat()
                .create_stream(request)
                .await
                .map_err(endpoint)?;
            let mut reply = Reply::default();
            while let Some(chunk) = stream.next().await {
                let chunk = chunk.map_err(endpoint)?;
                if let Some(usage) = chunk.usage {
                    reply.prompt_tokens = usage.prompt_tokens;
                    reply.completion_tokens = usage.completion_tokens;
                }
                let Some(choice) = chunk.choices.into_iter().next() else {
                    continue;
                };
                reply.truncated |= choice.finish_reason == Some(FinishReason::Length);
                let text = choice.delta.content.unwrap_or_default();
                if text.is_empty() {
                    continue;
                }
                reply.first_token.get_or_insert_with(|| began.elapsed());
                reply.text.push_str(&text);
                if piece(&text) == Flow::Stop {
                    break;
                }
            }
            Ok(reply)
        })
        .await
    }

    /// Runs `call` under a permit and the timeout, both counted in the reply's latency
    /// (since `began`); a reply without text is [`CallError::Empty`].
    async fn bounded(
        &self,
        began: Instant,
        call: impl Future<Output = Result<Reply, CallError>>,
    ) -> Result<Reply, CallError> {
        let limit = self.settings.timeout;
        let permitted = async {
            let _permit = self
                .permits
                .acquire()
                .await
                .map_err(|err| CallError::Endpoint(err.to_string()))?;
            call.await
        };
        let mut reply = tokio::time::timeout(limit, permitted)
            .await
            .map_err(|_| CallError::Timeout(limit))??;
        if reply.text.trim().is_empty() {
            return Err(CallError::Empty);
        }
        reply.latency = began.elapsed();
        Ok(reply)
    }

    fn request(
        &self,
        system: &str,
        user: &str,
        schema: Option<(&str, Value)>,
    ) -> Result<CreateChatCompletionRequest, CallError> {
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
        request.build().map_err(endpoint)
    }
}

fn endpoint(err: async_openai::error::OpenAIError) -> CallError {
    CallError::Endpoint(err.to_string())
}

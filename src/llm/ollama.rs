//! Ollama through `ollama-rs`: the only code that touches the network or tokio. A
//! [`Connection`] owns a single-threaded tokio runtime and offers a blocking API in which
//! every request runs under a timeout; the chat model ([`crate::llm::OllamaLlm`]) and the
//! Ollama embedder (`search::embed::OllamaEmbedder`, which imports this, never the other
//! way round) both sit on it.
//!
//! What may leave the machine is decided here, in [`http_client`], and nowhere else: a
//! server that is not on this machine is refused unless the section's `allow_remote`
//! says otherwise; redirects are never followed (a loopback server answering `307` to
//! another host would otherwise carry prompts and code there); proxies from the
//! environment (`HTTP_PROXY`, `ALL_PROXY`, ...) are ignored for a loopback server, and
//! `localhost` is pinned to the loopback address rather than looked up.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use anyhow::Result;
use ollama_rs::Ollama;
use ollama_rs::error::OllamaError;
use ollama_rs::generation::chat::ChatMessage;
use ollama_rs::generation::chat::request::ChatMessageRequest;
use ollama_rs::generation::embeddings::request::{EmbeddingsInput, GenerateEmbeddingsRequest};
use ollama_rs::models::ModelOptions;

use crate::llm::LlmError;

/// One Ollama server: its client, a runtime to drive it, and the timeout of every request.
/// `section` (`embed` or `llm`) and `fallback` (the provider that needs no server) name
/// the configuration keys its error messages point at.
pub struct Connection {
    rt: tokio::runtime::Runtime,
    client: Ollama,
    url: String,
    timeout: Duration,
    section: &'static str,
    fallback: &'static str,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("url", &self.url)
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl Connection {
    /// A client for `url`; refuses a host that is not this machine unless `allow_remote`.
    /// Does not talk to the server yet.
    pub fn new(
        url: &str,
        allow_remote: bool,
        timeout: Duration,
        section: &'static str,
        fallback: &'static str,
    ) -> Result<Connection, LlmError> {
        let (parsed, client) = http_client(url, allow_remote, section)?;
        let client = Ollama::builder().url(parsed).reqwest_client(client).build();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| LlmError::Bad(format!("starting the Ollama client runtime: {e}")))?;
        Ok(Connection {
            rt,
            client,
            url: url.to_string(),
            timeout,
            section,
            fallback,
        })
    }

    /// The server's address as configured.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Runs one request to completion, or gives up after the timeout.
    fn run<T>(
        &self,
        fut: impl Future<Output = Result<T, OllamaError>>,
    ) -> Result<T, Result<OllamaError, LlmError>> {
        match self
            .rt
            .block_on(async { tokio::time::timeout(self.timeout, fut).await })
        {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(Ok(e)),
            Err(_) => Err(Err(self.timeout_error())),
        }
    }

    fn timeout_error(&self) -> LlmError {
        LlmError::Timeout {
            after: self.timeout,
            section: self.section,
            fallback: self.fallback,
        }
    }

    fn unreachable(&self, e: &OllamaError) -> LlmError {
        LlmError::Unreachable(format!(
            "cannot reach Ollama at {} ({}): start it or set `{}.provider = \"{}\"`",
            self.url,
            error_text(e),
            self.section,
            self.fallback
        ))
    }

    /// Checks that the server answers and has `model` (`name` alone matches any tag).
    pub fn check_model(&self, model: &str) -> Result<(), LlmError> {
        let models = self
            .run(self.client.list_local_models())
            .map_err(|e| e.map_or_else(|e| e, |e| self.unreachable(&e)))?;
        let found = models.iter().any(|m| {
            m.name == model || (!model.contains(':') && m.name.split(':').next() == Some(model))
        });
        if found {
            Ok(())
        } else {
            Err(LlmError::ModelMissing {
                model: model.to_string(),
                url: self.url.clone(),
            })
        }
    }

    /// One chat turn (a system and a user message) with `model`, deterministic sampling;
    /// the reply's text.
    pub fn chat(&self, model: &str, system: &str, prompt: &str) -> Result<String, LlmError> {
        let req = ChatMessageRequest::new(
            model.to_string(),
            vec![
                ChatMessage::system(system.to_string()),
                ChatMessage::user(prompt.to_string()),
            ],
        )
        .options(ModelOptions::default().temperature(0.0).seed(0));
        let res = self
            .run(self.client.send_chat_messages(req))
            .map_err(|e| e.map_or_else(|e| e, |e| self.request_error(model, &e)))?;
        Ok(res.message.content)
    }

    /// Embeddings of `texts` with `model`, in order.
    pub fn embed(&self, model: &str, texts: &[&str]) -> Result<Vec<Vec<f32>>, LlmError> {
        let req = GenerateEmbeddingsRequest::new(
            model.to_string(),
            EmbeddingsInput::Multiple(texts.iter().map(|t| t.to_string()).collect()),
        );
        let res = self
            .run(self.client.generate_embeddings(req))
            .map_err(|e| e.map_or_else(|e| e, |e| self.request_error(model, &e)))?;
        Ok(res.embeddings)
    }

    /// A failed request: the server gone, the model gone, or anything else.
    fn request_error(&self, model: &str, e: &OllamaError) -> LlmError {
        match e {
            OllamaError::ReqwestError(r) if r.is_connect() => self.unreachable(e),
            OllamaError::ReqwestError(r) if r.is_timeout() => self.timeout_error(),
            OllamaError::Other(_) | OllamaError::InternalError(_)
                if error_text(e).contains("not found") && error_text(e).contains(model) =>
            {
                LlmError::ModelMissing {
                    model: model.to_string(),
                    url: self.url.clone(),
                }
            }
            _ => LlmError::Bad(format!(
                "Ollama at {} with `{model}`: {}",
                self.url,
                error_text(e)
            )),
        }
    }
}

/// The error with its causes, on one line.
fn error_text(e: &OllamaError) -> String {
    let mut s = match e {
        OllamaError::InternalError(inner) => inner.message.clone(),
        _ => e.to_string(),
    };
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cause = c.source();
    }
    s
}

/// The checked URL of an Ollama server and the HTTP client to reach it with: the one
/// place that decides what may leave the machine. A server off this machine is refused
/// unless `allow_remote`; no redirect is ever followed; a loopback server is reached
/// directly, never through a proxy from the environment, and `localhost` is not looked
/// up (it always means the loopback address). `section` names the configuration keys in
/// errors.
pub fn http_client(
    url: &str,
    allow_remote: bool,
    section: &str,
) -> Result<(reqwest::Url, reqwest::Client), LlmError> {
    let bad = |why: &str| LlmError::Bad(format!("`{section}.ollama_url` = {url:?}: {why}"));
    let parsed = reqwest::Url::parse(url).map_err(|e| bad(&e.to_string()))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(bad("only http:// and https:// servers can be used"));
    }
    let host = parsed.host_str().unwrap_or("").to_string();
    if host.is_empty() {
        return Err(bad("no host"));
    }
    let local = is_local(&host);
    if !local && !allow_remote {
        return Err(LlmError::RemoteRefused(format!(
            "the Ollama server {url} is not on this machine, so code would leave it; \
             set `{section}.allow_remote = true` to allow that"
        )));
    }
    // Ollama never redirects; a redirect is refused as an error naming where it led.
    let redirect = reqwest::redirect::Policy::custom(|attempt| {
        let to = attempt.url().to_string();
        attempt.error(RedirectRefused(to))
    });
    let mut builder = reqwest::Client::builder().redirect(redirect);
    if local {
        builder = builder.no_proxy();
        if host.eq_ignore_ascii_case("localhost") {
            let port = parsed.port_or_known_default().unwrap_or(80);
            builder = builder.resolve(&host, SocketAddr::new(Ipv4Addr::LOCALHOST.into(), port));
        }
    }
    let client = builder
        .build()
        .map_err(|e| bad(&format!("cannot build an HTTP client: {e}")))?;
    Ok((parsed, client))
}

/// A redirect the server answered with, refused.
#[derive(Debug)]
struct RedirectRefused(String);

impl std::fmt::Display for RedirectRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the server answered with a redirect to {}, which llmc never follows",
            self.0
        )
    }
}

impl std::error::Error for RedirectRefused {}

/// Whether `host` names this machine.
fn is_local(host: &str) -> bool {
    let h = host.trim_start_matches('[').trim_end_matches(']');
    h.eq_ignore_ascii_case("localhost") || h.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_hosts_are_local() {
        for h in ["localhost", "127.0.0.1", "127.1.2.3", "[::1]", "::1"] {
            assert!(is_local(h), "{h}");
        }
        for h in ["example.com", "10.0.0.1", "192.168.1.2", ""] {
            assert!(!is_local(h), "{h}");
        }
    }
}

//! Ollama through `ollama-rs`: the only code that touches the network or tokio. It owns a
//! single-threaded tokio runtime and offers a blocking API. A host that is not on this
//! machine is refused unless `embed.allow_remote` says otherwise.

use std::net::IpAddr;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use ollama_rs::Ollama;
use ollama_rs::generation::embeddings::request::{EmbeddingsInput, GenerateEmbeddingsRequest};

use crate::config::EmbedConfig;
use crate::error::LlmcError;
use crate::search::embed::{Embedder, normalize};

/// Embeddings from an Ollama server, in batches, each request under a timeout.
pub struct OllamaEmbedder {
    rt: tokio::runtime::Runtime,
    client: Ollama,
    url: String,
    model: String,
    batch: usize,
    timeout: Duration,
}

impl std::fmt::Debug for OllamaEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OllamaEmbedder")
            .field("url", &self.url)
            .field("model", &self.model)
            .finish()
    }
}

impl OllamaEmbedder {
    /// Connects to the configured server and checks that it has the model.
    pub fn new(cfg: &EmbedConfig) -> Result<OllamaEmbedder> {
        let client = Ollama::try_new(cfg.ollama_url.as_str()).map_err(|e| {
            LlmcError::Config(format!("`embed.ollama_url` = {:?}: {e}", cfg.ollama_url))
        })?;
        let host = client.url().host_str().unwrap_or("").to_string();
        if !is_local(&host) && !cfg.allow_remote {
            return Err(LlmcError::Config(format!(
                "the Ollama server {} is not on this machine, so code would leave it; \
                 set `embed.allow_remote = true` to allow that",
                cfg.ollama_url
            ))
            .into());
        }
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("starting the Ollama client runtime")?;
        let e = OllamaEmbedder {
            rt,
            url: cfg.ollama_url.clone(),
            client,
            model: cfg.ollama_model.clone(),
            batch: cfg.batch_size.max(1),
            timeout: Duration::from_secs(cfg.timeout_secs.max(1)),
        };
        e.check_model()?;
        Ok(e)
    }

    fn check_model(&self) -> Result<()> {
        let models = self
            .rt
            .block_on(async {
                tokio::time::timeout(self.timeout, self.client.list_local_models()).await
            })
            .map_err(|_| anyhow!("Ollama at {} did not answer in {:?}", self.url, self.timeout))?
            .map_err(|e| {
                anyhow!(
                    "cannot reach Ollama at {} ({}): start it, or set `embed.provider = \"builtin\"`",
                    self.url,
                    error_text(&e)
                )
            })?;
        let wanted = self.model.as_str();
        let found = models.iter().any(|m| {
            m.name == wanted || (!wanted.contains(':') && m.name.split(':').next() == Some(wanted))
        });
        if !found {
            bail!(
                "Ollama at {} has no model `{wanted}`: run `ollama pull {wanted}` (it has: {})",
                self.url,
                if models.is_empty() {
                    "none".to_string()
                } else {
                    models
                        .iter()
                        .map(|m| m.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            );
        }
        Ok(())
    }

    fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let req = GenerateEmbeddingsRequest::new(
            self.model.clone(),
            EmbeddingsInput::Multiple(texts.iter().map(|t| t.to_string()).collect()),
        );
        let res = self
            .rt
            .block_on(async {
                tokio::time::timeout(self.timeout, self.client.generate_embeddings(req)).await
            })
            .map_err(|_| {
                anyhow!(
                    "Ollama at {} did not embed {} texts in {:?}",
                    self.url,
                    texts.len(),
                    self.timeout
                )
            })?
            .map_err(|e| {
                anyhow!(
                    "embedding with `{}` at {}: {}",
                    self.model,
                    self.url,
                    error_text(&e)
                )
            })?;
        if res.embeddings.len() != texts.len() {
            bail!(
                "Ollama returned {} embeddings for {} texts",
                res.embeddings.len(),
                texts.len()
            );
        }
        Ok(res
            .embeddings
            .into_iter()
            .map(|mut v| {
                normalize(&mut v);
                v
            })
            .collect())
    }
}

impl Embedder for OllamaEmbedder {
    fn id(&self) -> String {
        format!("ollama/{}", self.model)
    }

    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let mut out = Vec::with_capacity(texts.len());
        for batch in texts.chunks(self.batch) {
            out.extend(self.embed_batch(batch)?);
        }
        Ok(out)
    }
}

/// The error with its causes, on one line.
fn error_text(e: &ollama_rs::error::OllamaError) -> String {
    let mut s = e.to_string();
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cause = c.source();
    }
    s
}

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

    #[test]
    fn a_remote_server_is_refused_without_opt_in() {
        let cfg = EmbedConfig {
            provider: "ollama".into(),
            ollama_url: "http://10.1.2.3:11434".into(),
            ..EmbedConfig::default()
        };
        let err = OllamaEmbedder::new(&cfg).expect_err("refused");
        assert!(err.to_string().contains("allow_remote"), "{err}");
    }
}

//! The [`Llm`] seam, its errors, the per-question call [`Budget`], and [`OllamaLlm`], the
//! chat model on an Ollama server. No prompts here: those are in `synth`.

use std::time::Duration;

use crate::config::{LlmConfig, LlmProvider};
use crate::llm::ollama::Connection;

/// Why an LLM call failed. `Unreachable` and `Timeout` mean "answer without the LLM";
/// their messages are one line, fit for a warning.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// The server is not there (its message says how to start it or turn the LLM off).
    #[error("{0}")]
    Unreachable(String),
    /// The server did not answer in time; `section` (`embed` or `llm`) and `fallback` (the
    /// provider that needs no server) name the keys to change.
    #[error(
        "Ollama did not answer within {}s: raise `{section}.timeout_secs` or set `{section}.provider = \"{fallback}\"`",
        .after.as_secs()
    )]
    Timeout {
        after: Duration,
        section: &'static str,
        fallback: &'static str,
    },
    /// The server does not have the model.
    #[error("Ollama at {url} has no model `{model}`: run `ollama pull {model}`")]
    ModelMissing { model: String, url: String },
    /// The server is on another machine and `allow_remote` is off.
    #[error("{0}")]
    RemoteRefused(String),
    /// The question's budget of LLM calls is spent.
    #[error("the LLM call budget of this question is spent")]
    BudgetExhausted,
    /// Anything else: a malformed URL, an unexpected reply.
    #[error("{0}")]
    Bad(String),
}

/// A language model that completes one prompt.
pub trait Llm {
    /// The reply to `prompt` under the instructions in `system`.
    fn complete(&self, system: &str, prompt: &str) -> Result<String, LlmError>;
    /// What answered, for the trace (`ollama/qwen2.5-coder:1.5b`).
    fn name(&self) -> String;
    /// Characters of one source's text to put in a prompt (`llm.max_source_chars`): how
    /// much context the model can take is a property of the model.
    fn max_source_chars(&self) -> usize {
        LlmConfig::default().max_source_chars
    }
}

/// LLM calls allowed for one question. Take one unit before each call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    limit: u32,
    used: u32,
}

impl Budget {
    /// A budget of `limit` calls.
    pub fn new(limit: u32) -> Budget {
        Budget { limit, used: 0 }
    }

    /// Takes one call, or fails with [`LlmError::BudgetExhausted`] when none is left.
    pub fn try_take(&mut self) -> Result<(), LlmError> {
        if self.used >= self.limit {
            return Err(LlmError::BudgetExhausted);
        }
        self.used += 1;
        Ok(())
    }

    /// Calls taken so far.
    pub fn used(&self) -> u32 {
        self.used
    }

    /// Calls allowed.
    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// Calls left.
    pub fn left(&self) -> u32 {
        self.limit - self.used
    }
}

/// A chat model on an Ollama server; every call under `llm.timeout_secs`.
#[derive(Debug)]
pub struct OllamaLlm {
    conn: Connection,
    model: String,
    max_source_chars: usize,
}

impl OllamaLlm {
    /// Connects to `llm.ollama_url` (refused if not on this machine unless
    /// `llm.allow_remote`) and checks that the server answers and has `llm.model`.
    pub fn new(cfg: &LlmConfig) -> Result<OllamaLlm, LlmError> {
        let conn = Connection::new(
            &cfg.ollama_url,
            cfg.allow_remote,
            Duration::from_secs(cfg.timeout_secs.max(1)),
            "llm",
            "none",
        )?;
        conn.check_model(&cfg.model)?;
        Ok(OllamaLlm {
            conn,
            model: cfg.model.clone(),
            max_source_chars: cfg.max_source_chars,
        })
    }
}

impl Llm for OllamaLlm {
    fn complete(&self, system: &str, prompt: &str) -> Result<String, LlmError> {
        self.conn.chat(&self.model, system, prompt)
    }

    fn name(&self) -> String {
        format!("ollama/{}", self.model)
    }

    fn max_source_chars(&self) -> usize {
        self.max_source_chars
    }
}

/// The configured model: `None` for `llm.provider = "none"`, else the checked server.
pub fn from_config(cfg: &LlmConfig) -> Result<Option<Box<dyn Llm>>, LlmError> {
    match cfg.provider {
        LlmProvider::None => Ok(None),
        LlmProvider::Ollama => Ok(Some(Box::new(OllamaLlm::new(cfg)?))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_refuses_once_spent() {
        let mut b = Budget::new(2);
        assert!(b.try_take().is_ok());
        assert!(b.try_take().is_ok());
        assert!(matches!(b.try_take(), Err(LlmError::BudgetExhausted)));
        assert_eq!((b.used(), b.limit(), b.left()), (2, 2, 0));
        assert!(matches!(
            Budget::new(0).try_take(),
            Err(LlmError::BudgetExhausted)
        ));
    }

    #[test]
    fn a_remote_server_is_refused_without_opt_in() {
        let cfg = LlmConfig {
            provider: LlmProvider::Ollama,
            ollama_url: "http://10.1.2.3:11434".into(),
            ..LlmConfig::default()
        };
        let err = OllamaLlm::new(&cfg).expect_err("refused");
        assert!(matches!(err, LlmError::RemoteRefused(_)), "{err:?}");
        assert!(err.to_string().contains("llm.allow_remote"), "{err}");
    }

    #[test]
    fn provider_none_has_no_model() {
        assert!(matches!(from_config(&LlmConfig::default()), Ok(None)));
    }
}

//! The LLM of one question: connected on first use, with the question's budget; a
//! failure to connect or a failed call is a warning and the answer goes on without it.

use crate::config::{Config, LlmProvider};
use crate::llm::{self, Budget, Llm};

/// The configured LLM, connected on first use; a failure to connect is a warning and
/// the answer goes on without it.
pub struct LlmSlot<'c> {
    config: &'c Config,
    disabled: bool,
    connected: Option<Option<Box<dyn Llm>>>,
    pub budget: Budget,
    pub warnings: Vec<String>,
}

impl<'c> LlmSlot<'c> {
    pub fn new(config: &'c Config, disabled: bool) -> LlmSlot<'c> {
        LlmSlot {
            config,
            disabled: disabled || config.llm.provider == LlmProvider::None,
            connected: None,
            budget: Budget::new(config.llm.budget),
            warnings: Vec::new(),
        }
    }

    /// Runs `f` with the LLM and this question's budget, if an LLM is configured, allowed
    /// and reachable.
    pub fn with<T>(&mut self, f: impl FnOnce(&dyn Llm, &mut Budget) -> T) -> Option<T> {
        self.get()?;
        let llm = self.connected.as_ref()?.as_deref()?;
        Some(f(llm, &mut self.budget))
    }

    /// The LLM, if one is configured, allowed and reachable.
    pub fn get(&mut self) -> Option<&dyn Llm> {
        if self.disabled {
            return None;
        }
        if self.connected.is_none() {
            let c = match llm::from_config(&self.config.llm) {
                Ok(l) => l,
                Err(e) => {
                    self.warnings
                        .push(format!("LLM unavailable, answering without it: {e}"));
                    None
                }
            };
            self.connected = Some(c);
        }
        self.connected.as_ref().and_then(|c| c.as_deref())
    }

    /// Records a failed call; the answer goes on without the LLM.
    pub fn failed(&mut self, what: &str, e: &llm::LlmError) {
        self.warnings
            .push(format!("LLM {what} failed, answering without it: {e}"));
        if matches!(
            e,
            llm::LlmError::Unreachable(_) | llm::LlmError::Timeout { .. }
        ) {
            self.disabled = true;
        }
    }
}

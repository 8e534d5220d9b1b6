//! Models behind a network API: the Ollama embedder and the optional chat model of
//! `llmc ask`. Only [`ollama`] touches the network or tokio; everything it offers is
//! blocking.
//!
//! The LLM path of `ask`, for its pipeline to call:
//!
//! - [`from_config`] gives the configured [`Llm`] (`None` for `llm.provider = "none"`);
//!   [`OllamaLlm::new`] checks that the server answers and has the model.
//! - A [`Budget`] per question ([`Budget::new`]`(llm.budget)`): every call takes one unit
//!   first, and none is made once it is spent ([`LlmError::BudgetExhausted`]).
//! - [`synthesize`] writes a short answer from numbered [`Source`]s that cites them as
//!   `[1]`, `[2]`, then checks it with [`check_grounding`] (pure, no LLM). An answer that
//!   fails comes back with `grounded = false` and its `problems`: the caller flags it.
//! - [`classify`] is the fallback classifier: intents from an allowed list.
//! - Every failure is an [`LlmError`]; `Unreachable` and `Timeout` carry a message fit for a
//!   one-line warning, after which `ask` answers without the LLM.

mod chat;
mod ground;
pub mod ollama;
mod synth;

pub use chat::{Budget, Llm, LlmError, OllamaLlm, from_config};
pub use ground::check_grounding;
pub use synth::{Source, Synthesis, classify, synthesize};

//! Ctrl-C and `kill` during an index run: the first SIGINT or SIGTERM asks the run to
//! stop at its next safe point (between files, between batches of commits, before the
//! commit), where it discards what it wrote and leaves the last good generation in
//! place; a second one ends the process at once. Outside an index run the signals keep
//! their default action (a reader dies on Ctrl-C as any command does).
//!
//! The one process-wide state here is the flag the handlers set; it is only read by
//! [`check`] while a [`Guard`] is alive.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use signal_hook::SigId;
use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::low_level::unregister;

use crate::error::LlmcError;

static FLAG: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();

fn flag() -> &'static Arc<AtomicBool> {
    FLAG.get_or_init(|| Arc::new(AtomicBool::new(false)))
}

/// While alive, SIGINT and SIGTERM set the flag that [`check`] reads (a second signal
/// exits with 130); dropped, the default actions are back.
pub struct Guard {
    ids: Vec<SigId>,
}

impl Guard {
    /// Installs the handlers. Failing to (no signals on this platform) is not an error:
    /// the run then simply cannot be stopped gently.
    pub fn install() -> Guard {
        let flag = flag();
        flag.store(false, Ordering::SeqCst);
        let mut ids = Vec::new();
        for sig in [SIGINT, SIGTERM] {
            // The exit must come first: it acts only when the flag is already set.
            if let Ok(id) = signal_hook::flag::register_conditional_shutdown(sig, 130, flag.clone())
            {
                ids.push(id);
            }
            if let Ok(id) = signal_hook::flag::register(sig, flag.clone()) {
                ids.push(id);
            }
        }
        Guard { ids }
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        for id in self.ids.drain(..) {
            unregister(id);
        }
    }
}

/// Whether a stop was asked for.
pub fn requested() -> bool {
    FLAG.get().is_some_and(|f| f.load(Ordering::Relaxed))
}

/// An error at a safe point when a stop was asked for.
pub fn check() -> Result<(), LlmcError> {
    if requested() {
        Err(LlmcError::Interrupted)
    } else {
        Ok(())
    }
}

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

/// How a child process waited on under a time limit ended.
#[derive(Debug)]
pub enum Waited {
    Exited(std::process::ExitStatus),
    /// Still running at the deadline: killed.
    TimedOut,
    /// A stop was asked for ([`requested`]): killed.
    Interrupted,
}

/// Waits for `child` until `deadline`, polling every `poll`; kills it (and reaps it) when
/// the time is up or a stop is asked for.
pub fn wait_until(
    child: &mut std::process::Child,
    deadline: std::time::Instant,
    poll: std::time::Duration,
) -> std::io::Result<Waited> {
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Waited::Exited(status));
        }
        let stop = if requested() {
            Waited::Interrupted
        } else if std::time::Instant::now() >= deadline {
            Waited::TimedOut
        } else {
            std::thread::sleep(poll);
            continue;
        };
        let _ = child.kill();
        let _ = child.wait();
        return Ok(stop);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;
    use std::time::{Duration, Instant};

    #[test]
    fn a_child_past_its_deadline_is_killed_and_one_that_ends_is_waited_for() {
        let started = Instant::now();
        let mut slow = Command::new("sleep").arg("5").spawn().expect("sleep");
        let waited = wait_until(
            &mut slow,
            started + Duration::from_millis(100),
            Duration::from_millis(5),
        )
        .expect("wait");
        assert!(matches!(waited, Waited::TimedOut), "{waited:?}");
        assert!(started.elapsed() < Duration::from_secs(2));
        // Killed and reaped: nothing is left to wait for.
        assert!(slow.try_wait().expect("try_wait").is_some());

        let mut quick = Command::new("true").spawn().expect("true");
        let waited = wait_until(
            &mut quick,
            Instant::now() + Duration::from_secs(5),
            Duration::from_millis(5),
        )
        .expect("wait");
        assert!(
            matches!(waited, Waited::Exited(s) if s.success()),
            "{waited:?}"
        );
    }
}

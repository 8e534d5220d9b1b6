//! Progress reporting. Stages report events through [`Progress`]; only this module draws
//! (with indicatif, on stderr, and only when stderr is a terminal).

use std::io::Write as _;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Receives progress events from long-running stages.
pub trait Progress: Sync {
    /// A stage with `total` steps begins.
    fn start(&self, stage: &str, total: u64);
    /// `n` more steps are done.
    fn inc(&self, n: u64);
    /// The stage is over.
    fn finish(&self);
    /// A one-line note for the user (e.g. that the run waits for another).
    fn note(&self, _msg: &str) {}
}

/// Reports nothing.
pub struct NoProgress;

impl Progress for NoProgress {
    fn start(&self, _: &str, _: u64) {}
    fn inc(&self, _: u64) {}
    fn finish(&self) {}
}

/// A progress bar on stderr, drawn only when stderr is a terminal.
pub struct Bar {
    bar: ProgressBar,
    /// Notes go to stderr unless the user asked for quiet.
    notes: bool,
}

impl Bar {
    /// A hidden bar unless `visible` and stderr is a terminal.
    pub fn new(visible: bool, notes: bool) -> Bar {
        let target = if visible {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(None, target);
        Bar { bar, notes }
    }
}

impl Progress for Bar {
    fn start(&self, stage: &str, total: u64) {
        self.bar.set_length(total);
        self.bar.set_position(0);
        if let Ok(style) = ProgressStyle::with_template(
            "{msg:>10} [{bar:30}] {pos}/{len} {elapsed_precise}, about {eta} left",
        ) {
            self.bar.set_style(style.progress_chars("=> "));
        }
        self.bar.set_message(stage.to_string());
    }
    fn inc(&self, n: u64) {
        self.bar.inc(n);
    }
    fn finish(&self) {
        self.bar.finish_and_clear();
    }
    fn note(&self, msg: &str) {
        if self.notes {
            // A closed stderr is no reason to fail (eprintln! would panic).
            self.bar.suspend(|| {
                let _ = writeln!(std::io::stderr(), "{msg}");
            });
        }
    }
}

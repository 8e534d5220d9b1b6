//! Entry point for the `taskr` command-line tool.

mod config;
mod scheduler;
mod util;

use config::load as load_config;
use scheduler::task::{Describe, Task};
use scheduler::Scheduler;

/// Version string printed at start-up.
static VERSION: &str = "0.1.0";

/// Prints a line only when `$cond` holds.
macro_rules! log_if {
    ($cond:expr, $($arg:tt)*) => {
        if $cond {
            println!($($arg)*);
        }
    };
}

/// Cleans up a task name typed on the command line.
///
/// Unlike `util::normalize` this keeps the original case.
fn normalize(name: &str) -> String {
    name.trim().replace(' ', "-")
}

/// Loads the config, plans the tasks and prints the order.
fn main() {
    let verbose = std::env::args().any(|a| a == "-v");
    log_if!(verbose, "taskr {VERSION}");
    let cfg = match load_config("taskr.conf") {
        Ok(cfg) => cfg,
        Err(err) => {
            eprintln!("taskr: {err}");
            std::process::exit(2);
        }
    };
    let mut sched: Scheduler = Scheduler::new(cfg.workers);
    let mut next_id = 0;
    for raw in &cfg.tasks {
        let task: Task = Task::new(next_id, &normalize(raw));
        let text = task.describe();
        log_if!(verbose, "adding {text}");
        sched.add(task);
        next_id += 1;
    }
    let order = sched.plan();
    let summary = sched.describe();
    log_if!(verbose, "{summary}");
    for line in sched.report() {
        println!("{line}");
    }
    println!("{order:?}");
}

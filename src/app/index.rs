//! `llmc index`, and the background run that reads the rest of a long history.

use std::time::Duration;

use anyhow::Result;

use super::{Ctx, print_json};
use crate::cli::IndexArgs;
use crate::error::Exit;
use crate::index::{self, IndexOptions};
use crate::progress::Bar;

/// How long `llmc index` spends on history after the code is committed; a longer history
/// is read on by a background run ([`continue_in_background`]).
pub const INDEX_HISTORY_BUDGET: Duration = Duration::from_secs(2);

/// Indexes the repository and prints a one-line summary (or JSON statistics).
pub fn cmd_index(ctx: &Ctx, args: &IndexArgs) -> Result<Exit> {
    let bar = Bar::new(!ctx.quiet && !args.json, !ctx.quiet);
    if args.history_only {
        let stats = index::continue_history(&ctx.root, &ctx.config, &bar)?;
        match (stats, args.json) {
            (Some(s), true) => print_json(serde_json::to_value(&s)?)?,
            (Some(s), false) => ctx.note(&s.summary()),
            (None, true) => print_json(serde_json::json!(null))?,
            (None, false) => ctx.note(
                "llmc: nothing to read: no index yet, its history is off, or another \
                 `llmc index --history-only` is reading it",
            ),
        }
        return Ok(Exit::Ok);
    }
    let stats = index::run_with(
        &ctx.root,
        &ctx.config,
        &IndexOptions {
            rebuild: args.rebuild,
            history_budget: Some(INDEX_HISTORY_BUDGET),
            precise: args.precise || ctx.config.graph.precise == crate::config::PreciseMode::Auto,
            ..IndexOptions::default()
        },
        &bar,
    )?;
    // Keeping `.llmc/` out of git is a courtesy: failing at it must not fail the index.
    if let Err(e) = crate::root::exclude_store(&ctx.root) {
        ctx.warn(&format!("could not add .llmc/ to .git/info/exclude: {e:#}"));
    }
    for w in &stats.warnings {
        ctx.warn(w);
    }
    ctx.detail(&format!("index timings: {}", stats.timings()));
    if args.json {
        let mut v = serde_json::to_value(&stats)?;
        if let serde_json::Value::Object(m) = &mut v {
            m.insert("root".into(), ctx.root.display().to_string().into());
        }
        print_json(v)?;
    } else {
        ctx.note(&stats.summary());
    }
    if stats.history.remaining > 0 && stats.history.error.is_none() {
        continue_in_background(ctx);
    }
    Ok(Exit::Ok)
}

/// Starts `llmc index --history-only` detached from this process (its own process group,
/// no terminal, nothing inherited but the environment) to read the history left; it exits
/// at once when another one is reading it. A failure to start it only costs waiting.
pub fn continue_in_background(ctx: &Ctx) {
    if background_off() {
        return;
    }
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let mut cmd = std::process::Command::new(exe);
    cmd.arg("-C")
        .arg(&ctx.root)
        .arg("--quiet")
        .arg("--config")
        .arg(format!(
            "index.max_file_size={}",
            ctx.config.index.max_file_size
        ))
        .args(["index", "--history-only"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt as _;
        cmd.process_group(0);
    }
    if let Ok(mut child) = cmd.spawn() {
        // Reaped by a thread (a long-running `llmc mcp` would otherwise keep a zombie).
        std::thread::spawn(move || child.wait());
    }
}

/// Whether `LLMCTEST_HISTORY_BACKGROUND=0` keeps the history from going on in the
/// background (a test-only knob: the crash tests drive each run themselves).
fn background_off() -> bool {
    std::env::var("LLMCTEST_HISTORY_BACKGROUND").is_ok_and(|v| v.trim() == "0")
}

/// Starts the background history run when `ctx.root`'s index holds a history read in
/// part (after an answer, so the next one reaches further back).
pub fn continue_if_partial(ctx: &Ctx) {
    let Ok(store) = crate::store::Store::open_existing(&ctx.root) else {
        return;
    };
    if let Ok(s) = crate::history::status(&store)
        && s.remaining > 0
        && crate::store::writable(&ctx.root)
    {
        continue_in_background(ctx);
    }
}

//! `llmc index`.

use anyhow::Result;

use super::{Ctx, print_json};
use crate::cli::IndexArgs;
use crate::error::Exit;
use crate::index::{self, IndexOptions};
use crate::progress::Bar;

/// Indexes the repository and prints a one-line summary (or JSON statistics).
pub fn cmd_index(ctx: &Ctx, args: &IndexArgs) -> Result<Exit> {
    let bar = Bar::new(!ctx.quiet && !args.json, !ctx.quiet);
    let stats = index::run_with(
        &ctx.root,
        &ctx.config,
        &IndexOptions {
            rebuild: args.rebuild,
            precise: args.precise || ctx.config.graph.precise == crate::config::PreciseMode::Auto,
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
    Ok(Exit::Ok)
}

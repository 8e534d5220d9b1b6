//! `llmc log`: the commits that touched a definition, a file or a directory (or every
//! commit), newest first, from the history the index holds.

use anyhow::{Context, Result};

use super::style::Style;
use super::{Ctx, print_json, print_out};
use crate::cli::LogArgs;
use crate::error::{Exit, LlmcError};
use crate::history::query::{self, Log, LogFilter, Target};
use crate::history::{dates, git, meta};
use crate::store::Store;

/// Answers `llmc log` from the store.
pub fn cmd_log(ctx: &Ctx, args: &LogArgs) -> Result<Exit> {
    let now = jiff::Timestamp::now();
    let since = args
        .since
        .as_deref()
        .map(|s| {
            dates::parse(s, now).map_err(|e| LlmcError::Usage(format!("--since {s:?}: {e:#}")))
        })
        .transpose()?;
    let until = args
        .until
        .as_deref()
        .map(|s| {
            let t = dates::parse(s, now)
                .map_err(|e| LlmcError::Usage(format!("--until {s:?}: {e:#}")))?;
            // A bare date includes its whole day.
            Ok::<_, LlmcError>(if s.trim().parse::<jiff::civil::Date>().is_ok() {
                t + jiff::SignedDuration::from_secs(86_399)
            } else {
                t
            })
        })
        .transpose()?;
    let filter = LogFilter {
        since: since.map(|t| t.as_second()),
        until: until.map(|t| t.as_second()),
        author: args.author.clone(),
        grep: args.grep.clone(),
        limit: args.limit,
        offset: 0,
        oldest_first: args.reverse,
    };

    let store = Store::open_existing(&ctx.root)?;
    if let Some(note) = store.meta(meta::NOTE)? {
        ctx.note(&format!("llmc: no history: {note}"));
    } else if store.meta(meta::HEAD)?.is_none() {
        return Err(LlmcError::IndexUnusable {
            path: store.dir().to_path_buf(),
            reason: "it holds no history".into(),
        }
        .into());
    } else if let (Some(indexed), Some(head)) =
        (store.meta(meta::HEAD)?, git::head_from_files(&ctx.root))
        && head != indexed
    {
        ctx.note("llmc: HEAD moved since the last index: run `llmc index` for the newest commits");
    }
    let text = args.target.clone().unwrap_or_default();
    // A path is read from the directory llmc was started in first, then from the root.
    let from_start = ctx.from_start(&text);
    let log = store
        .read(|c| {
            Ok(resolve_target(c, &ctx.root, &text, from_start.as_deref())
                .and_then(|t| query::log(c, &t, &filter)))
        })?
        .context("reading the history")?;
    // One definition followed across renames and moves keeps its qualified name; several
    // qualified names mean the target is ambiguous.
    let qualnames: std::collections::BTreeSet<&str> = log
        .matched
        .iter()
        .filter_map(|m| m.split_once(':').map(|(_, q)| q))
        .collect();
    if let Target::Symbol { .. } = log.target
        && qualnames.len() > 1
    {
        let shown: Vec<&str> = log.matched.iter().take(8).map(String::as_str).collect();
        let more = log.matched.len().saturating_sub(shown.len());
        ctx.note(&format!(
            "llmc: {text:?} names {} definitions: {}{}; narrow it with Type::name or path:name",
            qualnames.len(),
            shown.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        ));
    }
    let found = !log.commits.is_empty();
    if args.json {
        print_json(to_json(&text, &log))?;
    } else {
        print_out(&render(&log, ctx.out))?;
    }
    if !found {
        ctx.note(&format!(
            "llmc: no commit matches {}",
            describe(&log.target)
        ));
        return Ok(Exit::NotFound);
    }
    Ok(Exit::Ok)
}

fn describe(t: &Target) -> String {
    match t {
        Target::All => "the filters".to_string(),
        Target::File { path } => format!("file {path}"),
        Target::Dir { path } => format!("directory {path}/"),
        Target::Symbol { name, path: None } => format!("definition {name}"),
        Target::Symbol {
            name,
            path: Some(p),
        } => format!("definition {name} in {p}"),
    }
}

fn to_json(text: &str, log: &Log) -> serde_json::Value {
    serde_json::json!({
        "target": text,
        "resolved": log.target,
        "matched": log.matched,
        "commits": log.commits,
    })
}

/// Human rows: one line per commit (date, short hash, author, subject), then what it
/// changed of the target, indented.
pub fn render(log: &Log, style: Style) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let symbol_target = matches!(log.target, Target::Symbol { .. });
    for c in &log.commits {
        let date = c.date.get(..10).unwrap_or(&c.date);
        let short = c.commit.get(..10).unwrap_or(&c.commit);
        let _ = writeln!(
            out,
            "{}  {}  {}  {}",
            style.dim(date),
            style.commit(short),
            c.author,
            style.header(&c.subject)
        );
        if symbol_target {
            for s in &c.symbols {
                let _ = writeln!(
                    out,
                    "    {}  {} {}  {} +{} -{}  {}",
                    style.path(&format!("{}:{}-{}", s.path, s.start_line, s.end_line)),
                    s.kind,
                    s.symbol,
                    s.change,
                    s.added,
                    s.removed,
                    s.hunks.join(" ")
                );
            }
        } else {
            for f in &c.files {
                let name = match &f.old_path {
                    Some(o) => format!("{} -> {}", style.path(o), style.path(&f.path)),
                    None => style.path(&f.path),
                };
                let lines = match (f.added, f.removed) {
                    (Some(a), Some(r)) => format!("+{a} -{r}"),
                    _ => "binary".to_string(),
                };
                let _ = writeln!(out, "    {} {name}  {lines}", f.status);
            }
            if !matches!(log.target, Target::All) {
                for s in &c.symbols {
                    let _ = writeln!(
                        out,
                        "      {} {} {} +{} -{}",
                        s.kind, s.symbol, s.change, s.added, s.removed
                    );
                }
            }
        }
    }
    out
}

/// The history target an argument names: read from the directory llmc was started in when
/// that names a path (or `path:name`) the history knows, else from the root or as a name.
fn resolve_target(
    c: &rusqlite::Connection,
    root: &std::path::Path,
    text: &str,
    from_start: Option<&str>,
) -> Result<Target> {
    if let Some(t) = from_start {
        match query::resolve(c, root, t)? {
            t @ (Target::All | Target::File { .. } | Target::Dir { .. }) => return Ok(t),
            t @ Target::Symbol { path: Some(_), .. } => return Ok(t),
            Target::Symbol { .. } => {}
        }
    }
    query::resolve(c, root, text)
}

//! `llmc log`: the commits that touched a definition, a file or a directory (or every
//! commit), newest first, from the history the index holds.

use anyhow::{Context, Result};

use super::pages::{self, Next};
use super::style::Style;
use super::{Ctx, json_text, print_json, print_out};
use crate::budget::{JsonPages, Shape};
use crate::cli::LogArgs;
use crate::error::{Exit, LlmcError};
use crate::history::query::{self, Log, LogCommit, LogFilter, Target};
use crate::history::{dates, git, meta};
use crate::store::Store;

/// Answers `llmc log` from the store.
pub fn cmd_log(ctx: &Ctx, args: &LogArgs) -> Result<Exit> {
    let mut filter = filter(
        args.since.as_deref(),
        args.until.as_deref(),
        args.author.clone(),
        args.grep.clone(),
        args.reverse,
    )?;
    filter.offset = args.offset;
    filter.limit = args.limit;
    if let Some(max) = args.max_tokens {
        // A page holds at most this many commits: read no more from the store.
        let most = window(max);
        filter.limit = Some(args.limit.map_or(most, |n| n.min(most)));
    }

    let store = Store::open_existing(&ctx.root)?;
    if let Some(note) = history_note(ctx, &store)? {
        ctx.note(&note);
    }
    let text = args.target.clone().unwrap_or_default();
    let log = query(ctx, &store, &text, &filter)?;
    if let Some(note) = ambiguity(&text, &log) {
        ctx.note(&note);
    }
    if let Some(note) = &log.history {
        ctx.note(&format!("llmc: {note}"));
    }
    if let Some(note) = shallow_note(&store)? {
        ctx.note(&note);
    }
    let found = !log.commits.is_empty();
    match (args.max_tokens, args.json) {
        (Some(max), json) => print_budgeted(ctx, args, &text, &log, max, json)?,
        (None, true) => print_json(to_json(&text, &log))?,
        (None, false) => print_out(&render(&log, ctx.out))?,
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

/// The smallest a commit prints (a human row: date, short hash, nothing else): a page of
/// `max` tokens holds at most `window(max)` commits.
pub fn window(max_tokens: usize) -> usize {
    max_tokens * crate::budget::BYTES_PER_TOKEN / 24 + 1
}

/// The filters of a log query; dates are read as `--since`/`--until` read them.
pub fn filter(
    since: Option<&str>,
    until: Option<&str>,
    author: Option<String>,
    grep: Option<String>,
    oldest_first: bool,
) -> Result<LogFilter> {
    let now = jiff::Timestamp::now();
    let since = since
        .map(|s| {
            dates::parse(s, now).map_err(|e| LlmcError::Usage(format!("--since {s:?}: {e:#}")))
        })
        .transpose()?;
    let until = until
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
    Ok(LogFilter {
        since: since.map(|t| t.as_second()),
        until: until.map(|t| t.as_second()),
        author,
        grep,
        limit: None,
        offset: 0,
        oldest_first,
        words: Vec::new(),
    })
}

/// What to say about the history before answering from it: why there is none, or that
/// HEAD moved since it was read. A store that never read the history is an error.
pub fn history_note(ctx: &Ctx, store: &Store) -> Result<Option<String>> {
    if let Some(note) = store.meta(meta::NOTE)? {
        return Ok(Some(format!("llmc: no history: {note}")));
    }
    let Some(indexed) = store.meta(meta::HEAD)? else {
        return Err(LlmcError::IndexUnusable {
            path: store.dir().to_path_buf(),
            reason: "it holds no history".into(),
        }
        .into());
    };
    Ok(git::head_from_files(&ctx.root)
        .filter(|head| *head != indexed)
        .map(|_| {
            "llmc: HEAD moved since the last index: run `llmc index` for the newest commits".into()
        }))
}

/// "llmc: shallow clone: the history stops at …" in a shallow clone, whose oldest
/// commit is not where things began.
pub fn shallow_note(store: &Store) -> Result<Option<String>> {
    Ok(store
        .read(|c| Ok(query::shallow(c)))??
        .map(|s| format!("llmc: {}", s.note)))
}

/// The log of `text` (a path is read from the directory llmc was started in first,
/// then from the root).
pub fn query(ctx: &Ctx, store: &Store, text: &str, filter: &LogFilter) -> Result<Log> {
    let from_start = ctx.from_start(text);
    store
        .read(|c| {
            Ok(resolve_target(c, &ctx.root, text, from_start.as_deref())
                .and_then(|t| query::log(c, &t, filter)))
        })?
        .context("reading the history")
}

/// One definition followed across renames and moves keeps its qualified name; several
/// qualified names mean the target is ambiguous: the note that says so.
pub fn ambiguity(text: &str, log: &Log) -> Option<String> {
    let qualnames: std::collections::BTreeSet<&str> = log
        .matched
        .iter()
        .filter_map(|m| m.split_once(':').map(|(_, q)| q))
        .collect();
    if !matches!(log.target, Target::Symbol { .. }) || qualnames.len() <= 1 {
        return None;
    }
    let shown: Vec<&str> = log.matched.iter().take(8).map(String::as_str).collect();
    let more = log.matched.len().saturating_sub(shown.len());
    Some(format!(
        "llmc: {text:?} names {} definitions: {}{}; narrow it with Type::name or path:name",
        qualnames.len(),
        shown.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    ))
}

/// The `--max-tokens` output: the commits that fit from `--offset`, and the manifest.
fn print_budgeted(
    ctx: &Ctx,
    args: &LogArgs,
    text: &str,
    log: &Log,
    max: usize,
    json: bool,
) -> Result<()> {
    let next = |offset: usize| next_command(args, offset, max);
    let next_json = |offset: usize, max: usize| next_command(args, offset, max);
    // The store gave the commits from --offset on, at most a page of them.
    let held = log.commits.len();
    let fitted = if json {
        pages::json_page(
            json_pages(to_json(text, log), args.offset, log.total),
            max,
            args.offset,
            Some(held),
            &Next::Command(&next_json),
            &|_, _| {},
            &json_text,
        )
    } else {
        let style = ctx.out;
        pages::human_page(
            vec![log.total],
            &["commits"],
            max,
            args.offset,
            Some(held),
            &next,
            &mut |w| {
                let r = w.range(0);
                let commits = log
                    .commits
                    .get(r.start.saturating_sub(args.offset)..r.end.saturating_sub(args.offset))
                    .unwrap_or_default();
                render_commits(log, commits, style)
            },
        )
    };
    print_out(&fitted.text)
}

/// A log's JSON document paged through its commits, of which it holds those from
/// `offset` (of `total`).
pub fn json_pages(doc: serde_json::Value, offset: usize, total: usize) -> JsonPages {
    JsonPages::new(doc, json_lists()).part(0, offset, total)
}

/// The lists a budget pages through: the commits.
pub fn json_lists() -> pages::Lists {
    vec![pages::list("commits", "/commits", Shape::Array)]
}

/// The command line of the page that starts at `offset`.
fn next_command(args: &LogArgs, offset: usize, max_tokens: usize) -> String {
    let mut w: Vec<String> = vec!["llmc".into(), "log".into()];
    if let Some(t) = &args.target {
        w.push(t.clone());
    }
    for (flag, v) in [
        ("--since", &args.since),
        ("--until", &args.until),
        ("--author", &args.author),
        ("--grep", &args.grep),
    ] {
        if let Some(v) = v {
            w.extend([flag.to_string(), v.clone()]);
        }
    }
    if let Some(n) = args.limit {
        w.extend(["-n".into(), n.to_string()]);
    }
    if args.reverse {
        w.push("--reverse".into());
    }
    w.extend(["--max-tokens".into(), max_tokens.to_string()]);
    w.extend(["--offset".into(), offset.to_string()]);
    if args.json {
        w.push("--json".into());
    }
    pages::command_line(&w)
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

/// `llmc log --json`: the commits held and how many match in all (`total`).
pub fn to_json(text: &str, log: &Log) -> serde_json::Value {
    let mut v = serde_json::json!({
        "target": text,
        "resolved": log.target,
        "matched": log.matched,
        "total": log.total,
        "commits": log.commits,
    });
    if let (Some(note), serde_json::Value::Object(m)) = (&log.history, &mut v) {
        m.insert("history".into(), note.clone().into());
    }
    v
}

/// Human rows: one line per commit (date, short hash, author, subject), then what it
/// changed of the target, indented.
pub fn render(log: &Log, style: Style) -> String {
    render_commits(log, &log.commits, style)
}

/// [`render`] of some of the log's commits.
fn render_commits(log: &Log, commits: &[LogCommit], style: Style) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let symbol_target = matches!(log.target, Target::Symbol { .. });
    for c in commits {
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

//! `llmc ask`: makes sure the index is there and fresh, asks, prints the answer.

use std::fmt::Write as _;
use std::sync::OnceLock;

use anyhow::Result;

use super::style::Style;
use super::{Ctx, print_json, print_out};
use crate::ask::{self, AskRequest, Freshness, Outcome, Status};
use crate::cli::AskArgs;
use crate::error::{Exit, LlmcError};
use crate::index::{self, IndexOptions};
use crate::progress::Bar;
use crate::store::Store;

/// Answers one question and prints it; exit code 1 when llmc abstains.
pub fn cmd_ask(ctx: &Ctx, args: &AskArgs) -> Result<Exit> {
    let question = args.question.join(" ");
    if question.trim().is_empty() {
        return Err(LlmcError::Config(
            "the question is empty: llmc ask \"who calls main?\"".into(),
        )
        .into());
    }
    let opts = EnsureIndex {
        refresh: !args.no_refresh,
        bar: !args.json,
    };
    let req = AskRequest {
        question,
        k: args.k,
        no_cache: args.no_cache,
        no_llm: args.no_llm,
    };
    let (mut outcome, freshness) = if Store::exists(&ctx.root) {
        // The freshness check stats every indexed file. It starts on a thread of its own
        // beside the question; the question's thread joins the stats once it has its
        // answer, and the question is asked again in the rare case that files changed
        // and were re-indexed.
        let root = ctx.root.clone();
        let slot: OnceLock<index::FreshnessCheck> = OnceLock::new();
        let asker = std::thread::current();
        let (first, check) = std::thread::scope(|s| {
            let check = s.spawn(|| -> Result<Option<String>> {
                let prepared = Store::open_existing(&root).and_then(|store| {
                    let check = index::FreshnessCheck::prepare(&root, &store)?;
                    Ok((slot.get_or_init(|| check), store))
                });
                // Prepared or failed: either way the question's thread need wait no more.
                asker.unpark();
                let (check, store) = prepared?;
                check.help();
                Ok(indexed_at(&store))
            });
            let first = ask::ask(&ctx.root, &ctx.config, &req);
            // Wait for the check to be prepared (or to fail), then share its stats.
            while slot.get().is_none() && !check.is_finished() {
                std::thread::park_timeout(std::time::Duration::from_millis(2));
            }
            if let Some(c) = slot.get() {
                c.help();
            }
            let check = check
                .join()
                .unwrap_or_else(|_| Err(anyhow::anyhow!("the index freshness check panicked")));
            (
                first,
                check.map(|at| (slot.get().is_some_and(|c| c.stale()), at)),
            )
        });
        let (stale, at) = check?;
        let freshness = bring_up_to_date(ctx, &opts, Some(at), stale)?;
        let outcome = if freshness.refreshed_files > 0 {
            ask::ask(&ctx.root, &ctx.config, &req)?
        } else {
            first?
        };
        (outcome, freshness)
    } else {
        let freshness = bring_up_to_date(ctx, &opts, None, true)?;
        (ask::ask(&ctx.root, &ctx.config, &req)?, freshness)
    };
    outcome.freshness = Freshness {
        generation: outcome.freshness.generation,
        ..freshness
    };
    if args.json {
        print_json(serde_json::to_value(&outcome)?)?;
    } else {
        for w in &outcome.warnings {
            ctx.warn(w);
        }
        print_out(&render(&outcome, args.trace, ctx.out))?;
        if ctx.verbose {
            for t in &outcome.trace {
                ctx.detail(&format!("{}: {:.2} ms", t.stage, t.ms));
            }
        }
    }
    Ok(if outcome.status == Status::Answered {
        Exit::Ok
    } else {
        Exit::NotFound
    })
}

/// How [`ensure_index`] may bring the index up to date.
pub struct EnsureIndex {
    /// Re-index changed files (else only warn that the index is stale).
    pub refresh: bool,
    /// Draw the progress bar (on a terminal, unless quiet).
    pub bar: bool,
}

/// Builds the index when there is none; re-indexes changed files unless told not to.
/// Shared by `llmc ask` and `llmc eval`.
pub fn ensure_index(ctx: &Ctx, opts: &EnsureIndex) -> Result<Freshness> {
    let store = match Store::open_existing(&ctx.root) {
        Ok(s) => Some(s),
        Err(e)
            if e.chain().any(|c| {
                matches!(
                    c.downcast_ref::<LlmcError>(),
                    Some(LlmcError::IndexMissing(_))
                )
            }) =>
        {
            None
        }
        Err(e) => return Err(e),
    };
    let (stale, at) = match &store {
        None => (true, None),
        Some(s) => (
            index::looks_stale(&ctx.root, s, cores())?,
            Some(indexed_at(s)),
        ),
    };
    bring_up_to_date(ctx, opts, at, stale)
}

/// The cores to share a freshness check between when nothing else runs beside it.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
}

/// When the index was last written.
fn indexed_at(store: &Store) -> Option<String> {
    store.meta("indexed_at").ok().flatten()
}

/// Indexes when there is no index (`existing` is `None`) or it is `stale` (and
/// `opts.refresh`), saying so; `existing` holds when the index was written.
fn bring_up_to_date(
    ctx: &Ctx,
    opts: &EnsureIndex,
    existing: Option<Option<String>>,
    stale: bool,
) -> Result<Freshness> {
    let Some(at) = existing else {
        ctx.note(&format!(
            "no index yet: indexing {} first",
            ctx.root.display()
        ));
        return reindex(ctx, opts, true);
    };
    if !stale {
        return Ok(Freshness {
            indexed_at: at,
            ..Freshness::default()
        });
    }
    if !opts.refresh || !crate::store::writable(&ctx.root) {
        if opts.refresh {
            ctx.warn("files changed since the index, which this user cannot write");
        } else {
            ctx.warn("files changed since the index; answering from it as it is (--no-refresh)");
        }
        return Ok(Freshness {
            indexed_at: at,
            stale: true,
            ..Freshness::default()
        });
    }
    reindex(ctx, opts, false)
}

/// Runs an index (the `first` one, or a refresh) and says what it did.
fn reindex(ctx: &Ctx, opts: &EnsureIndex, first: bool) -> Result<Freshness> {
    let bar = Bar::new(!ctx.quiet && opts.bar, !ctx.quiet);
    let stats = index::run_with(
        &ctx.root,
        &ctx.config,
        &IndexOptions { rebuild: false },
        &bar,
    )?;
    if let Err(e) = crate::root::exclude_store(&ctx.root) {
        ctx.warn(&format!("could not add .llmc/ to .git/info/exclude: {e:#}"));
    }
    let refreshed = stats.parsed + stats.deleted;
    if first {
        ctx.note(&stats.summary());
    } else if refreshed > 0 {
        ctx.note(&format!(
            "re-indexed {refreshed} changed file(s) first ({:.2} s)",
            stats.seconds
        ));
    }
    Ok(Freshness {
        indexed_at: indexed_at(&Store::open_existing(&ctx.root)?),
        refreshed_files: refreshed,
        built: first,
        ..Freshness::default()
    })
}

/// The human rendering.
pub fn render(o: &Outcome, trace: bool, style: Style) -> String {
    let mut s = String::new();
    if let Some(a) = &o.answer {
        if let Some(syn) = &a.synthesis {
            let _ = writeln!(s, "{}", syn.text.trim_end());
            if !syn.grounded {
                let _ = writeln!(
                    s,
                    "\n{} ({}): trust the sources below, not the prose.",
                    style.warn("[!] This answer failed the grounding check"),
                    syn.problems.join("; ")
                );
            }
            let _ = writeln!(s, "\n{}", style.header("From the index:"));
        }
        let _ = writeln!(s, "{}", a.text);
    }
    if let Some(ab) = &o.abstention {
        let _ = writeln!(s, "{} {}", style.warn("Not answered."), ab.message);
        if !ab.nearest.is_empty() {
            let _ = writeln!(s, "\n{}", style.header("Nearest:"));
            for c in &ab.nearest {
                let _ = writeln!(s, "  {}", source_line(c, style));
            }
        }
        if !ab.try_identifiers.is_empty() {
            let _ = writeln!(s, "\nTry asking about: {}", ab.try_identifiers.join(", "));
        }
    }
    if !o.sources.is_empty() {
        let _ = writeln!(s, "\n{}", style.header("Sources:"));
        for (i, c) in o.sources.iter().enumerate() {
            let routes: Vec<String> = c
                .evidence
                .iter()
                .map(|e| format!("{}#{}", e.route, e.rank))
                .collect();
            let _ = writeln!(
                s,
                "  [{}] {}  {}",
                i + 1,
                source_line(c, style),
                style.dim(&format!("[{}]", routes.join(" ")))
            );
        }
    }
    let c = &o.confidence;
    let _ = writeln!(
        s,
        "\nConfidence: {:.2} {} (retrieval {:.2}, coverage {:.2}, grounding {:.2})",
        c.score, c.label, c.retrieval, c.coverage, c.grounding
    );
    let f = &o.freshness;
    let mut fresh = format!("Index: generation {}", f.generation);
    if f.built {
        fresh.push_str(", built for this question");
    } else if f.refreshed_files > 0 {
        let _ = write!(
            fresh,
            ", {} changed file(s) re-indexed first",
            f.refreshed_files
        );
    }
    if f.stale {
        fresh.push_str(", files changed since (not re-indexed: --no-refresh)");
    }
    if o.cached {
        fresh.push_str(", answer from the cache");
    }
    let _ = writeln!(s, "{fresh}");
    if trace {
        let _ = writeln!(s, "\n{}", style.header("Trace:"));
        for t in &o.trace {
            let _ = writeln!(s, "  {:<16} {:>8.2} ms  {}", t.stage, t.ms, t.decision);
            for r in &t.reasons {
                let _ = writeln!(s, "  {:<16} {:>11}  - {r}", "", "");
            }
        }
    }
    s
}

fn source_line(c: &ask::Candidate, style: Style) -> String {
    let mut s = style.path(&format!(
        "{}:{}-{}",
        c.loc.path, c.loc.start_line, c.loc.end_line
    ));
    if let Some(sym) = &c.loc.symbol {
        let _ = write!(s, "  {sym} ({})", c.loc.kind);
    }
    if let Some(from) = &c.expanded_from {
        let _ = write!(s, "  (neighbour of {from})");
    }
    s
}

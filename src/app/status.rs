//! `llmc status`: what the index holds, and what changed on disk since.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use super::style::Style;
use super::{Ctx, print_json, print_out};
use crate::cli::StatusArgs;
use crate::config::IndexConfig;
use crate::error::Exit;
use crate::index::{self, walk};
use crate::store::Store;

/// The state of an index.
#[derive(Debug, Serialize)]
pub struct Status {
    pub root: String,
    pub generation: u64,
    /// When the last generation was committed (RFC 3339, UTC).
    pub indexed_at: Option<String>,
    pub files: Counted,
    pub definitions: Counted,
    pub chunks: u64,
    pub skipped: BTreeMap<String, u64>,
    /// Indexed files with problems that did not stop them being indexed.
    pub flagged: BTreeMap<&'static str, u64>,
    pub changed: Changed,
    pub size_bytes: u64,
    pub history: crate::history::HistoryStatus,
    /// The memories built beside definitions and chunks (`graph`, `history`, `lexical`,
    /// `semantic`).
    pub memories: Vec<&'static str>,
    /// Memories switched on or off in the configuration since the last index run.
    pub memories_switched: Vec<String>,
}

/// A total with a breakdown by language.
#[derive(Debug, Serialize)]
pub struct Counted {
    pub total: u64,
    pub by_language: BTreeMap<String, u64>,
}

/// Files that differ between the disk and the index.
#[derive(Debug, Default, Serialize)]
pub struct Changed {
    pub modified: Vec<String>,
    pub added: Vec<String>,
    pub deleted: Vec<String>,
}

impl Changed {
    /// How many files differ.
    pub fn total(&self) -> usize {
        self.modified.len() + self.added.len() + self.deleted.len()
    }
}

/// Reads the status of the index at `root`.
pub fn status(root: &Path, cfg: &IndexConfig) -> Result<Status> {
    let store = Store::open_existing(root)?;
    let generation = store.generation()?;
    let indexed_at = store
        .meta("indexed_at")?
        .and_then(|s| s.parse::<i64>().ok())
        .and_then(|secs| jiff::Timestamp::from_second(secs).ok())
        .map(|t| t.to_string());
    let by_lang = |sql: &str| -> Result<BTreeMap<String, u64>> {
        store.read(|c| {
            let mut stmt = c.prepare(sql)?;
            let rows = stmt.query_map([], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as u64))
            })?;
            rows.collect()
        })
    };
    let files = by_lang("SELECT lang, count(*) FROM files GROUP BY lang")?;
    let defs = by_lang(
        "SELECT f.lang, count(*) FROM symbols s JOIN files f ON f.id = s.file_id GROUP BY f.lang",
    )?;
    let chunks = store
        .read(|c| c.query_row("SELECT count(*) FROM chunks", [], |r| r.get::<_, i64>(0)))?
        as u64;
    let skipped: BTreeMap<String, u64> = store
        .meta("skipped")?
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or_default();
    let flagged = index::flag_counts(&store)?;
    let changed = changed_files(root, cfg, &store)?;
    let built = store.memories()?;
    Ok(Status {
        memories: built.names(),
        memories_switched: cfg.memories().changes_from(built),
        root: root.display().to_string(),
        generation,
        indexed_at,
        files: Counted {
            total: files.values().sum(),
            by_language: files,
        },
        definitions: Counted {
            total: defs.values().sum(),
            by_language: defs,
        },
        chunks,
        skipped,
        flagged,
        changed,
        size_bytes: store.size_on_disk(),
        history: crate::history::status(&store)?,
    })
}

/// Files that an `llmc index` now would add, re-parse or remove.
pub fn changed_files(root: &Path, cfg: &IndexConfig, store: &Store) -> Result<Changed> {
    let known = store.file_states()?;
    let plan = index::plan(root, cfg, &known);
    let mut changed = Changed::default();
    for f in plan.to_check {
        let Ok(bytes) = crate::source::read(root, &f.rel, cfg.max_file_size) else {
            continue;
        };
        match known.get(&f.rel) {
            Some(k) => {
                let hash = format!("{:032x}", xxhash_rust::xxh3::xxh3_128(&bytes));
                if hash != k.hash || walk::looks_binary(&bytes) {
                    changed.modified.push(f.rel);
                }
            }
            None if !walk::looks_binary(&bytes) => changed.added.push(f.rel),
            None => {}
        }
    }
    changed.deleted = plan.deleted.into_iter().map(|(p, _)| p).collect();
    Ok(changed)
}

/// Prints the status.
pub fn cmd_status(ctx: &Ctx, args: &StatusArgs) -> Result<Exit> {
    let s = status(&ctx.root, &ctx.config.index)?;
    if args.json {
        print_json(serde_json::to_value(&s)?)?;
        return Ok(Exit::Ok);
    }
    print_out(&render(&s, args.max_changed, ctx.out))?;
    Ok(Exit::Ok)
}

fn breakdown(m: &BTreeMap<String, u64>) -> String {
    let mut items: Vec<(&String, &u64)> = m.iter().collect();
    items.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    items
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The human form of a status.
pub fn render(s: &Status, max_changed: usize, style: Style) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    // The labels are 13 columns wide; colour only the word, not its padding.
    let l = |word: &str| format!("{}{}", style.header(word), " ".repeat(13 - word.len()));
    let _ = writeln!(out, "{}{}", l("root"), s.root);
    let _ = writeln!(
        out,
        "{}{} (indexed {})",
        l("generation"),
        s.generation,
        s.indexed_at.as_deref().unwrap_or("never")
    );
    let _ = writeln!(
        out,
        "{}{} ({})",
        l("files"),
        s.files.total,
        breakdown(&s.files.by_language)
    );
    let _ = writeln!(
        out,
        "{}{} ({})",
        l("definitions"),
        s.definitions.total,
        breakdown(&s.definitions.by_language)
    );
    let _ = writeln!(out, "{}{}", l("chunks"), s.chunks);
    let skipped: u64 = s.skipped.values().sum();
    let _ = writeln!(out, "{}{skipped}{}", l("skipped"), paren(&s.skipped));
    let flagged: BTreeMap<String, u64> = s
        .flagged
        .iter()
        .filter(|(_, v)| **v > 0)
        .map(|(k, v)| (k.to_string(), *v))
        .collect();
    if !flagged.is_empty() {
        let _ = writeln!(out, "{}{}", l("flagged"), breakdown(&flagged));
    }
    let c = &s.changed;
    if c.total() == 0 {
        let _ = writeln!(out, "{}none since the index", l("changed"));
    } else {
        let _ = writeln!(
            out,
            "{}{} since the index ({} modified, {} new, {} deleted): run `llmc index`",
            l("changed"),
            c.total(),
            c.modified.len(),
            c.added.len(),
            c.deleted.len()
        );
        let all = c
            .modified
            .iter()
            .map(|p| ("M", p))
            .chain(c.added.iter().map(|p| ("A", p)))
            .chain(c.deleted.iter().map(|p| ("D", p)));
        for (tag, p) in all.clone().take(max_changed) {
            let _ = writeln!(out, "  {tag} {}", style.path(p));
        }
        if c.total() > max_changed {
            let _ = writeln!(out, "  … and {} more", c.total() - max_changed);
        }
    }
    let memories = if s.memories.is_empty() {
        "none (definitions and chunks only)".to_string()
    } else {
        s.memories.join(", ")
    };
    let _ = writeln!(out, "{}{memories}", l("memories"));
    if !s.memories_switched.is_empty() {
        let _ = writeln!(
            out,
            "  {} since the index: run `llmc index`",
            s.memories_switched.join(", ")
        );
    }
    let h = &s.history;
    match (&h.note, &h.head) {
        (Some(note), _) => {
            let _ = writeln!(out, "{}none ({note})", l("history"));
        }
        (None, Some(head)) => {
            let _ = writeln!(
                out,
                "{}{} commits up to {}{}",
                l("history"),
                h.commits,
                head.get(..10).unwrap_or(head),
                if h.shallow {
                    " (shallow clone: the history stops at its boundary)"
                } else {
                    ""
                }
            );
            if h.partial {
                let _ = writeln!(out, "  {}", crate::history::PARTIAL_NOTE);
            }
        }
        (None, None) => {
            let _ = writeln!(out, "{}not ingested: run `llmc index`", l("history"));
        }
    }
    let _ = writeln!(out, "{}{}", l("size"), human_bytes(s.size_bytes));
    out
}

fn paren(m: &BTreeMap<String, u64>) -> String {
    if m.values().all(|v| *v == 0) {
        String::new()
    } else {
        format!(" ({})", breakdown(m))
    }
}

fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u < UNITS.len() - 1 {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

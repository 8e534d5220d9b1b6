//! The state of an index for `llmc status`: what the current generation holds (counts
//! from the store) and what changed on disk since (a plan of the next run, without
//! writing). `app::status` renders it.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use crate::config::{Config, IndexConfig};
use crate::search::sync::SearchSync;
use crate::store::Store;

/// The state of an index.
#[derive(Debug, Serialize)]
pub struct Status {
    pub root: String,
    pub generation: u64,
    /// When the last generation was committed (RFC 3339, UTC: `2026-11-26T01:39:34Z`).
    pub indexed_at: Option<String>,
    /// The same instant in seconds since the Unix epoch.
    pub indexed_at_unix: Option<i64>,
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
    /// Why the next `llmc ask` or `llmc index` reads every file again though none
    /// changed: an llmc that reads code differently, or vectors another embedder made.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_again: Option<String>,
    /// The SCIP indexes the last graph pass read: per index, its languages, when it was
    /// written and which files changed since (their edges are heuristic).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precise: Option<crate::graph::scip::ScipSummary>,
    /// Files of a language this build has no grammar for, read as text only, and the
    /// feature that parses them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_only: Option<String>,
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
pub fn status(root: &Path, config: &Config) -> Result<Status> {
    let cfg = &config.index;
    let store = Store::open_existing(root)?;
    let generation = store.generation()?;
    let read_again = if super::read_otherwise(&store, generation)? {
        Some(super::READ_OTHERWISE.to_string())
    } else {
        SearchSync::embedded_by(root, generation, config)?
    };
    let indexed_at = store.indexed_at()?;
    let files = store.files_by_language()?;
    let defs = store.definitions_by_language()?;
    let chunks = store.chunk_count()?;
    let skipped = store.skipped()?;
    let flagged = store.flag_counts()?;
    let changed = changed_files(root, cfg, &store)?;
    let built = store.memories()?;
    Ok(Status {
        memories: built.names(),
        memories_switched: cfg.memories().changes_from(built),
        read_again,
        root: root.display().to_string(),
        generation,
        indexed_at: indexed_at.map(|t| t.to_string()),
        indexed_at_unix: indexed_at.map(|t| t.as_second()),
        files: Counted {
            total: files.values().sum(),
            by_language: files.clone(),
        },
        definitions: Counted {
            total: defs.values().sum(),
            by_language: defs,
        },
        chunks,
        skipped,
        flagged,
        changed,
        text_only: crate::syntax::lang::left_out_note(&files),
        size_bytes: store.size_on_disk(),
        history: crate::history::status(&store)?,
        precise: store
            .meta(crate::store::meta::SCIP)?
            .and_then(|t| serde_json::from_str::<crate::graph::scip::ScipSummary>(&t).ok())
            .filter(|p| !p.sources.is_empty() || !p.warnings.is_empty()),
    })
}

/// Files that an `llmc index` now would add, re-parse or remove.
pub fn changed_files(root: &Path, cfg: &IndexConfig, store: &Store) -> Result<Changed> {
    let known = store.file_states()?;
    let plan = super::plan(root, cfg, &known);
    let mut changed = Changed::default();
    for f in plan.to_check {
        let Ok(bytes) = crate::source::read(root, &f.rel, cfg.max_file_size) else {
            continue;
        };
        let kept = super::kept_by_content(&f.rel, &bytes, cfg).is_ok();
        match known.get(&f.rel) {
            Some(k) => {
                let hash = crate::source::content_hash(&bytes);
                if hash != k.hash || !kept {
                    changed.modified.push(f.rel);
                }
            }
            None if kept => changed.added.push(f.rel),
            None => {}
        }
    }
    changed.deleted = plan.deleted.into_iter().map(|(p, _)| p).collect();
    Ok(changed)
}

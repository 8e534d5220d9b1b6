//! `llmc index`: walk → read and hash → parse → chunk → store, incrementally. Files
//! whose size and modification time are unchanged are not read; files whose content
//! hash is unchanged are not parsed; everything an index run writes becomes visible in
//! one commit.

pub mod precise;
pub mod status;
pub mod walk;
pub mod watch;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::mpsc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use rayon::prelude::*;
use serde::Serialize;

use crate::config::{Config, IndexConfig};
use crate::graph::resolve as graph;
use crate::model::FileRefs;
use crate::model::{Chunk, Symbol};
use crate::progress::Progress;
use crate::search::embed::Embedder;
use crate::search::sync::{self, Embedded, SearchStats, SearchSync, SearchWriter};
use crate::source::Refused;
use crate::store::{FileRow, FileState, Store, Writer, flags, meta};
use crate::syntax::{self, FileOptions, chunk::ChunkConfig};
use walk::{SkipCounts, SkipReason, WalkConfig, WalkedFile};

/// Options of one index run.
#[derive(Debug, Clone, Default)]
pub struct IndexOptions {
    /// Start over: ignore what the store holds.
    pub rebuild: bool,
    /// How long the history may take after the code is committed (None: read it all).
    /// What is left is in [`crate::history::HistoryStats::remaining`], for a later run.
    pub history_budget: Option<std::time::Duration>,
    /// Run the SCIP indexers found on PATH beside the run (`llmc index --precise`, or
    /// `graph.precise = "auto"` for `llmc index`; never for the re-index before an
    /// answer, which would wait for them).
    pub precise: bool,
    /// Write every call site before the code graph resolves it, as an incremental run
    /// does, even on a store with no calls (which otherwise holds them back and writes
    /// them resolved, see `graph::HeldCalls`): the two ways must give the same rows.
    pub store_calls_first: bool,
}

/// What an index run did.
#[derive(Debug, Clone, Serialize)]
pub struct IndexStats {
    pub generation: u64,
    /// Files in the index after the run.
    pub files: u64,
    pub symbols: u64,
    pub chunks: u64,
    /// Files parsed in this run (new or changed).
    pub parsed: u64,
    pub added: u64,
    pub modified: u64,
    pub deleted: u64,
    pub unchanged: u64,
    pub skipped: SkipCounts,
    pub seconds: f64,
    /// Of `seconds`, the code graph's cross-file resolution.
    pub graph_seconds: f64,
    /// Where `seconds` went, stage by stage.
    pub stages: StageSeconds,
    /// The history ingested in the same run.
    pub history: crate::history::HistoryStats,
    /// What the lexical and vector indexes did (absent when nothing changed).
    pub search: Option<SearchStats>,
    /// What the SCIP indexes contributed to the graph (absent when the graph was not
    /// laid again, or no index was read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precise: Option<crate::graph::scip::ScipSummary>,
    /// Problems that did not stop the run (a missing or corrupt SCIP index), each naming
    /// what it is about.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// Lines about the SCIP indexers run beside the index (`--precise`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl IndexStats {
    /// Where the time went, stage by stage (for `--verbose`).
    pub fn timings(&self) -> String {
        // Walking and comparing, then the files, up to the history.
        let files = self.stages.plan + self.stages.files;
        let mut parts = vec![format!("files {files:.3}s")];
        if let Some(s) = &self.search {
            parts.push(format!(
                "(embedding, across files and commit, {:.3}s)",
                s.vectors.embed_seconds
            ));
        }
        parts.push(format!("history {:.3}s", self.history.seconds));
        parts.push(format!("graph {:.3}s", self.graph_seconds));
        if self.search.is_some() {
            parts.push(format!(
                "(search indexes' commit, beside the graph, {:.3}s)",
                self.stages.search_commit
            ));
        }
        let rest = self.seconds - files - self.history.seconds - self.graph_seconds;
        parts.push(format!("commit and the rest {:.3}s", rest.max(0.0)));
        parts.push(format!("total {:.3}s", self.seconds));
        parts.join(", ")
    }

    /// The one-line summary printed at the end of a run.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "indexed {} files ({} parsed: {} new, {} changed; {} removed), {} symbols, {} chunks",
            self.files,
            self.parsed,
            self.added,
            self.modified,
            self.deleted,
            self.symbols,
            self.chunks
        );
        let total_skipped: u64 = self.skipped.values().sum();
        if total_skipped > 0 {
            let parts: Vec<String> = self
                .skipped
                .iter()
                .map(|(r, n)| format!("{} {n}", r.as_str()))
                .collect();
            s.push_str(&format!("; skipped {total_skipped} ({})", parts.join(", ")));
        }
        s.push_str(&format!("; {}", self.history.summary()));
        s.push_str(&format!(
            " in {:.2}s (generation {})",
            self.seconds, self.generation
        ));
        if let Some(reason) = self.search.as_ref().and_then(|x| x.rebuilt.as_deref()) {
            s.push_str(&format!("; everything re-indexed because {reason}"));
        }
        s
    }
}

/// What this build reads from code, as a version: change it (to the day's date) in any
/// commit after which parsing, extraction or resolution give other rows for the same files.
/// An index written with another value reads every file again on its next run, its history
/// kept, instead of answering from rows an older llmc made (the store's format version
/// covers its tables, not what is in them).
pub const EXTRACTION_VERSION: &str = "2026-11-29.7";

/// Why every file is read again when [`read_otherwise`] says so.
pub(crate) const READ_OTHERWISE: &str =
    "this llmc reads code differently from the one that built the index";

/// Whether the files of `store`'s `generation` were read with another
/// [`EXTRACTION_VERSION`] (an empty store was read by no one).
pub(crate) fn read_otherwise(store: &Store, generation: u64) -> Result<bool> {
    Ok(generation > 0 && store.meta(meta::EXTRACTION)?.as_deref() != Some(EXTRACTION_VERSION))
}

/// The wall-clock seconds of an index run's stages, in the order they run.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct StageSeconds {
    /// Opening the store and the search indexes, walking and comparing with the store.
    pub plan: f64,
    /// Reading, parsing, chunking and embedding the files (in the workers) while the
    /// write loop stores them and feeds the search indexes.
    pub files: f64,
    pub history: f64,
    pub graph: f64,
    /// Committing the vector and lexical indexes (tantivy finishes indexing and merging).
    pub search_commit: f64,
    /// Committing the store (and building its secondary indexes on a fresh store).
    pub store_commit: f64,
}

/// What differs between the files on disk and the store.
#[derive(Debug, Default)]
pub struct Plan {
    /// Files whose size or modification time differ from the store, or that are new.
    pub to_check: Vec<WalkedFile>,
    /// Files whose stat data match the store.
    pub unchanged: u64,
    /// Paths in the store that are gone from disk (or now skipped), with their ids.
    pub deleted: Vec<(String, i64)>,
    pub skipped: SkipCounts,
}

/// Compares the walk with the store's file states.
pub fn plan(root: &Path, cfg: &IndexConfig, known: &HashMap<String, FileState>) -> Plan {
    let (files, skipped) = walk::walk(root, &walk_config(cfg));
    let mut plan = Plan {
        skipped,
        ..Plan::default()
    };
    let mut seen = std::collections::HashSet::with_capacity(files.len());
    for f in files {
        seen.insert(f.rel.clone());
        match known.get(&f.rel) {
            Some(s) if s.size == f.size && s.mtime_ns == f.mtime_ns => plan.unchanged += 1,
            _ => plan.to_check.push(f),
        }
    }
    plan.deleted = known
        .iter()
        .filter(|(p, _)| !seen.contains(*p))
        .map(|(p, s)| (p.clone(), s.id))
        .collect();
    plan.deleted.sort();
    plan
}

/// A cheap check for changes since the last index run, without walking the tree: a
/// stored file whose size or modification time differs or that is gone, a directory of
/// stored files modified since the run (a file added or removed there), or a git HEAD
/// moved since. A new directory shows as its parent's modification.
///
/// The stats are the cost (one per indexed file): they are shared between `threads`
/// threads and stop at the first change found.
pub fn looks_stale(root: &Path, store: &Store, config: &Config, threads: usize) -> Result<bool> {
    let check = FreshnessCheck::prepare(root, store, config)?;
    std::thread::scope(|s| {
        for _ in 1..threads {
            s.spawn(|| check.help());
        }
        check.help();
    });
    Ok(check.stale())
}

/// [`looks_stale`] in two steps, so that threads can join its stats as they come free:
/// [`FreshnessCheck::prepare`] reads the store and checks git and the directories, then
/// every thread that calls [`FreshnessCheck::help`] takes blocks of files to stat.
pub struct FreshnessCheck {
    known: std::sync::Arc<Known>,
    /// The next block of `known.files` to stat.
    next: AtomicUsize,
    changed: AtomicBool,
}

/// What a freshness check compares the tree with, as one index run left it: the stored
/// files with their size and modification time, and their directories. A long-running
/// reader keeps it while [`Known::current`] holds, so a check costs only the stats.
pub struct Known {
    generation: u64,
    /// When the run checked the tree (seconds since the epoch).
    checked: i64,
    /// Stored files: path (joined to the root once, here), size, modification time.
    files: Vec<(PathBuf, u64, i64)>,
    /// The directories of the stored files, joined to the root.
    dirs: Vec<PathBuf>,
    /// The files were read by an llmc that reads code differently
    /// ([`EXTRACTION_VERSION`]), or embedded by another embedder than the configuration
    /// names ([`SearchSync::embedded_by`]): the index is stale whatever the files
    /// say.
    read_otherwise: bool,
}

impl Known {
    /// Reads the stored files of the store's generation (`root`'s), and whether
    /// `config` would read or embed them otherwise.
    pub fn read(root: &Path, store: &Store, config: &Config) -> Result<Known> {
        let files: Vec<(String, u64, i64)> = store.read(|c| {
            let mut stmt = c.prepare("SELECT path, size, mtime_ns FROM files")?;
            let rows = stmt.query_map([], |r| {
                Ok((r.get(0)?, r.get::<_, i64>(1)? as u64, r.get(2)?))
            })?;
            rows.collect()
        })?;
        let mut dirs: HashSet<&str> = HashSet::new();
        for (rel, _, _) in &files {
            let mut d = rel.as_str();
            while let Some(cut) = d.rfind('/') {
                d = &d[..cut];
                if !dirs.insert(d) {
                    break;
                }
            }
        }
        let mut dirs: Vec<PathBuf> = dirs.into_iter().map(|d| root.join(d)).collect();
        dirs.sort_unstable();
        let generation = store.generation()?;
        Ok(Known {
            generation,
            read_otherwise: read_otherwise(store, generation)?
                || SearchSync::embedded_by(root, generation, config)?.is_some(),
            checked: store.meta_seconds(meta::CHECKED_AT)?.unwrap_or(0),
            files: files
                .into_iter()
                .map(|(rel, size, mtime)| (root.join(rel), size, mtime))
                .collect(),
            dirs,
        })
    }

    /// Whether this is what the last index run `store` shows left (its generation and
    /// the time it checked the tree are the same).
    pub fn current(&self, store: &Store) -> Result<bool> {
        Ok(store.generation()? == self.generation
            && store.meta_seconds(meta::CHECKED_AT)?.unwrap_or(0) == self.checked)
    }
}

/// Files statted per block of [`FreshnessCheck::help`].
const STAT_BLOCK: usize = 64;

impl FreshnessCheck {
    pub fn prepare(root: &Path, store: &Store, config: &Config) -> Result<FreshnessCheck> {
        Ok(FreshnessCheck::with_known(
            root,
            std::sync::Arc::new(Known::read(root, store, config)?),
        ))
    }

    /// A check against `known`: git's HEAD and the directories are looked at here, the
    /// files by [`FreshnessCheck::help`].
    pub fn with_known(root: &Path, known: std::sync::Arc<Known>) -> FreshnessCheck {
        let newer = |p: &Path| {
            std::fs::metadata(p)
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .is_some_and(|d| d.as_secs() as i64 >= known.checked)
        };
        let changed = known.read_otherwise
            || [".git/HEAD", ".git/logs/HEAD", ".git/packed-refs"]
                .iter()
                .any(|git| newer(&root.join(git)))
            || newer(root)
            || known.dirs.iter().any(|d| newer(d));
        FreshnessCheck {
            known,
            next: AtomicUsize::new(0),
            changed: AtomicBool::new(changed),
        }
    }

    /// Stats blocks of files until none is left or a change is found.
    pub fn help(&self) {
        loop {
            if self.changed.load(Relaxed) {
                return;
            }
            let files = &self.known.files;
            let from = self.next.fetch_add(STAT_BLOCK, Relaxed);
            if from >= files.len() {
                return;
            }
            let to = (from + STAT_BLOCK).min(files.len());
            for (path, size, mtime_ns) in &files[from..to] {
                let same = std::fs::metadata(path)
                    .is_ok_and(|m| m.len() == *size && walk::mtime_ns(&m) == *mtime_ns);
                if !same {
                    self.changed.store(true, Relaxed);
                    return;
                }
            }
        }
    }

    /// Whether a change was found; final once every [`FreshnessCheck::help`] returned.
    pub fn stale(&self) -> bool {
        self.changed.load(Relaxed)
    }
}

fn walk_config(cfg: &IndexConfig) -> WalkConfig {
    WalkConfig {
        max_file_size: cfg.max_file_size,
        include_secrets: cfg.include_secrets,
        include_hidden: cfg.include_hidden,
        include_generated: cfg.include_generated,
        threads: cfg.worker_threads(),
    }
}

/// A file read, hashed and (if its content changed) parsed.
enum Outcome {
    /// Not indexable after all; the id of its stale rows, if it had any.
    Skipped(SkipReason, Option<i64>),
    /// Same content as stored; only stat data changed.
    Touched {
        id: i64,
        size: u64,
        mtime_ns: i64,
    },
    Indexed(Box<IndexedFile>),
}

/// Everything derived from one file.
pub struct IndexedFile {
    pub rel: String,
    pub existing: Option<i64>,
    pub lang: &'static str,
    pub size: u64,
    pub mtime_ns: i64,
    pub hash: String,
    pub lines: u32,
    pub flags: i64,
    pub symbols: Vec<Symbol>,
    pub chunks: Vec<Chunk>,
    /// Call sites and imports, for the code graph.
    pub refs: FileRefs,
    /// The chunks' vectors, when the embedder runs in the parse workers.
    pub vectors: Option<Embedded>,
}

/// Runs an index of `root` into its store, with default settings beside `cfg`.
pub fn run(
    root: &Path,
    cfg: &IndexConfig,
    opts: &IndexOptions,
    progress: &dyn Progress,
) -> Result<IndexStats> {
    let config = Config {
        index: cfg.clone(),
        ..Config::default()
    };
    run_with(root, &config, opts, progress)
}

/// Runs an index of `root` into its store and its search indexes.
pub fn run_with(
    root: &Path,
    config: &Config,
    opts: &IndexOptions,
    progress: &dyn Progress,
) -> Result<IndexStats> {
    let cfg = &config.index;
    let started = Instant::now();
    // Ctrl-C or SIGTERM from here on stops the run at its next safe point, with the
    // last generation left whole (a second signal ends the process at once).
    let _signals = crate::interrupt::Guard::install();
    let lock = Store::lock(root, progress)?;
    // The SCIP indexers run beside the whole run, and are waited for before the graph.
    let precise = (config.index.graph && opts.precise).then(|| {
        progress.note(&format!(
            "precise: running the SCIP indexers on PATH in the background (at most {} s each)",
            config.graph.precise_timeout_secs
        ));
        let (root, config) = (root.to_path_buf(), config.clone());
        std::thread::spawn(move || precise::run_indexers(&root, &config))
    });
    // An index an older llmc wrote is rebuilt, and the run says so.
    let upgraded;
    let opts = match Store::older_format(root) {
        Some(v) if !opts.rebuild => {
            progress.note(&format!(
                "the index was written by an older llmc (format {v}; this one writes {}): rebuilding it",
                crate::store::SCHEMA_VERSION
            ));
            upgraded = IndexOptions {
                rebuild: true,
                ..opts.clone()
            };
            &upgraded
        }
        _ => opts,
    };
    let mut store = Store::open_for_write(root, opts.rebuild)?;
    let old_generation = store.generation()?;
    // The memories to build; a memory switched on or off since the last run means
    // everything is indexed again (a memory on needs every file read again).
    let memories = cfg.memories();
    let switched = if old_generation > 0 {
        memories.changes_from(store.memories()?)
    } else {
        Vec::new()
    };
    // search: the lexical and vector indexes follow the store; when they cannot
    // (missing, out of step, another embedder) everything is indexed again.
    let search = SearchSync::new(config)?;
    // Files read by an llmc that reads code differently (its parsing, extraction or
    // resolution since changed) are read again: the history is kept.
    let extraction_stale = read_otherwise(&store, old_generation)?;
    let search_stale = if !switched.is_empty() {
        Some(switched.join(", "))
    } else if extraction_stale {
        Some(READ_OTHERWISE.to_string())
    } else {
        search.stale_reason(root, old_generation)?
    };
    let rebuild = opts.rebuild || search_stale.is_some();
    let mut search_writer = search.writer(root, old_generation, rebuild || old_generation == 0)?;
    // end search
    let known = if rebuild {
        HashMap::new()
    } else {
        store.file_states()?
    };
    let plan = plan(root, cfg, &known);
    let file_opts = FileOptions {
        chunks: ChunkConfig {
            window_lines: cfg.window_lines,
            max_chunk_lines: cfg.max_chunk_lines,
            text: memories.lexical || memories.semantic,
        },
        refs: memories.graph,
    };

    let mut stats = IndexStats {
        generation: old_generation,
        files: 0,
        symbols: 0,
        chunks: 0,
        parsed: 0,
        added: 0,
        modified: 0,
        deleted: 0,
        unchanged: plan.unchanged,
        skipped: plan.skipped.clone(),
        seconds: 0.0,
        graph_seconds: 0.0,
        stages: StageSeconds::default(),
        history: crate::history::HistoryStats::default(),
        search: None,
        precise: None,
        warnings: Vec::new(),
        notes: Vec::new(),
    };

    prepare_languages(&plan.to_check);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.worker_threads())
        .build()
        .context("starting the parser threads")?;
    stats.stages.plan = started.elapsed().as_secs_f64();
    let stage = Instant::now();
    progress.start("indexing", plan.to_check.len() as u64);
    let writer = store.begin()?;
    if rebuild {
        writer.clear()?;
    }
    let mut changed = rebuild || old_generation == 0;
    // What the code graph must re-resolve (graph::resolve); everything on a fresh store.
    let mut affected = graph::Affected {
        all: changed,
        ..graph::Affected::default()
    };
    // On a store with no call rows the graph is resolved whole: this run's call sites
    // wait in memory, up to HELD_CALLS_BYTES, and are written once, resolved
    // (graph::HeldCalls), not written, read back and updated.
    let mut held_room =
        if memories.graph && affected.all && !opts.store_calls_first && !writer.has_calls()? {
            HELD_CALLS_BYTES
        } else {
            0
        };
    let mut held = Vec::new();
    // The names a selective graph pass re-resolves; none are needed when the graph is
    // resolved whole or not at all.
    let mut names = (memories.graph && !affected.all).then_some(&mut affected.names);
    for (_, id) in &plan.deleted {
        delete_file(&writer, &mut search_writer, names.as_deref_mut(), *id)?;
        stats.deleted += 1;
        changed = true;
    }

    // What this run parses, kept for the history to reuse for the same file versions.
    let mut seed = crate::history::Seed::default();
    let mut seed_defs = 0usize;
    // Largest files first, so no core is left parsing one big file alone at the end.
    let mut to_check: Vec<&WalkedFile> = plan.to_check.iter().collect();
    to_check.sort_by_key(|f| std::cmp::Reverse(f.size));
    // A short queue: a parsed file waiting for the writer holds its text, chunks and
    // vectors, and the largest files come first.
    let (tx, rx) = mpsc::sync_channel::<Outcome>(2 * pool.current_num_threads());
    let to_check = &to_check;
    let known = &known;
    let pool = &pool;
    let inline = search.inline_embedder();
    std::thread::scope(|scope| -> Result<()> {
        scope.spawn(move || {
            pool.install(|| {
                to_check
                    .par_iter()
                    .with_max_len(1)
                    .for_each_with(tx, |tx, f| {
                        if crate::interrupt::requested() {
                            return;
                        }
                        let existing = known.get(&f.rel);
                        let _ = tx.send(process(root, cfg, f, existing, file_opts, inline));
                    });
            });
        });
        for outcome in rx {
            // A safe point: nothing of this run is visible until the commit.
            crate::interrupt::check()?;
            progress.inc(1);
            match outcome {
                Outcome::Skipped(reason, stale) => {
                    *stats.skipped.entry(reason).or_insert(0) += 1;
                    if let Some(id) = stale {
                        delete_file(&writer, &mut search_writer, names.as_deref_mut(), id)?;
                        stats.deleted += 1;
                        changed = true;
                    }
                }
                Outcome::Touched { id, size, mtime_ns } => {
                    writer.touch_file(id, size, mtime_ns)?;
                    stats.unchanged += 1;
                }
                Outcome::Indexed(mut f) => {
                    if let Some(id) = f.existing {
                        delete_file(&writer, &mut search_writer, names.as_deref_mut(), id)?;
                        stats.modified += 1;
                    } else {
                        stats.added += 1;
                    }
                    stats.parsed += 1;
                    changed = true;
                    if let Some(names) = names.as_deref_mut() {
                        names.extend(f.symbols.iter().map(|s| s.name.clone()));
                    }
                    if memories.history && seed_defs < SEED_MAX_DEFS {
                        seed.add(&f.rel, &f.hash, &f.symbols);
                        seed_defs += f.symbols.len();
                    }
                    // Held, the calls are not written with the file.
                    let calls = (held_room > 0).then(|| std::mem::take(&mut f.refs.calls));
                    let inserted = writer.insert_file(
                        &FileRow {
                            path: &f.rel,
                            lang: f.lang,
                            size: f.size,
                            mtime_ns: f.mtime_ns,
                            hash: &f.hash,
                            lines: f.lines,
                            flags: f.flags,
                        },
                        &f.symbols,
                        &f.chunks,
                        &f.refs,
                    )?;
                    affected.files.insert(inserted.file_id);
                    search_writer.add_file(
                        &f.rel,
                        f.lang,
                        &inserted.chunk_ids,
                        &f.chunks,
                        &f.symbols,
                        f.vectors.as_ref(),
                    )?;
                    if let Some(calls) = calls {
                        let h =
                            graph::HeldCalls::new(inserted.file_id, inserted.symbol_ids, &calls);
                        held_room = held_room.saturating_sub(h.bytes());
                        held.push(h);
                    }
                }
            }
        }
        Ok(())
    })?;
    crate::interrupt::check()?;
    affected.held = held;
    stats.stages.files = stage.elapsed().as_secs_f64();
    // The SCIP indexes: those the indexers just wrote, and any other there is. Another
    // set than the last run read lays the graph again even when no file changed.
    if let Some(job) = precise {
        match job.join() {
            Ok(run) => {
                for n in &run.notes {
                    progress.note(n);
                }
                stats.notes = run.notes;
            }
            Err(_) => stats
                .warnings
                .push("precise: the SCIP indexer thread failed".into()),
        }
        crate::interrupt::check()?;
    }
    let (scip_sources, scip_warnings) = if memories.graph {
        precise::sources(root, config)
    } else {
        (Vec::new(), Vec::new())
    };
    stats.warnings.extend(scip_warnings);
    let scip_fingerprint = precise::fingerprint(&scip_sources);
    if memories.graph && writer.meta(meta::SCIP_SOURCES)?.unwrap_or_default() != scip_fingerprint {
        changed = true;
    }
    // History is read after the code is committed (below), in transactions of its own. A
    // HEAD that moved makes a new generation all the same, so what was cached of the
    // last one is not taken for an answer about the new commits.
    if memories.history && history_head_moved(root, &writer)? {
        changed = true;
    }
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    if changed {
        stats.generation = old_generation + 1;
        let generation = stats.generation;
        // The search indexes commit on a thread of their own while the code graph resolves
        // (reading the symbol table back is one core's work): both are done before the
        // store commits, so the store never runs ahead of the search indexes.
        let (search, graph) = std::thread::scope(|scope| {
            let search = scope.spawn(move || {
                let t = Instant::now();
                search_writer
                    .commit(generation)
                    .map(|s| (s, t.elapsed().as_secs_f64()))
            });
            // The code graph: resolve every call and import against what is now stored.
            let graph = memories.graph.then(|| -> Result<(_, f64)> {
                let t = Instant::now();
                graph::resolve(writer.conn(), root, affected, pool)
                    .context("resolving the code graph")?;
                crate::interrupt::check()?;
                let summary = crate::graph::scip::apply(
                    writer.conn(),
                    root,
                    &scip_sources,
                    cfg.max_file_size,
                )
                .context("reading the SCIP indexes")?;
                Ok((summary, t.elapsed().as_secs_f64()))
            });
            let search = search
                .join()
                .unwrap_or_else(|_| Err(anyhow::anyhow!("the search index commit failed")));
            (search, graph)
        });
        let (mut s, search_seconds) = search?;
        stats.stages.search_commit = search_seconds;
        s.rebuilt = search_stale;
        stats.search = Some(s);
        if let Some(graph) = graph {
            let (summary, seconds) = graph?;
            crate::interrupt::check()?;
            stats.warnings.extend(summary.warnings.iter().cloned());
            writer.set_meta(meta::SCIP, &serde_json::to_string(&summary)?)?;
            writer.set_meta(meta::SCIP_SOURCES, &scip_fingerprint)?;
            if !summary.sources.is_empty() || !summary.warnings.is_empty() {
                stats.precise = Some(summary);
            }
            stats.graph_seconds = seconds;
            stats.stages.graph = seconds;
        }
        writer.set_meta(meta::MEMORIES, &memories.to_meta())?;
        writer.set_meta(meta::GENERATION, &stats.generation.to_string())?;
        writer.set_meta(meta::INDEXED_AT, &now.to_string())?;
    }
    writer.set_meta(meta::CHECKED_AT, &now.to_string())?;
    writer.set_meta(meta::SKIPPED, &serde_json::to_string(&stats.skipped)?)?;
    writer.set_meta(meta::LLMC_VERSION, env!("CARGO_PKG_VERSION"))?;
    writer.set_meta(meta::EXTRACTION, EXTRACTION_VERSION)?;
    // The last safe point: past it the run completes.
    crate::interrupt::check()?;
    let t = Instant::now();
    writer.commit()?;
    let store = store.publish()?;
    store.make_files_private();
    crate::search::sync::collect_garbage(root, stats.generation);
    stats.stages.store_commit = t.elapsed().as_secs_f64();
    progress.finish();

    // History: the commits HEAD reaches that the store has not read, newest first, in
    // slices that are each committed; the code memories above already answer.
    let stage = Instant::now();
    let mut store = store;
    stats.history = crate::history::ingest(
        root,
        &mut store,
        crate::history::IngestOptions {
            rebuild: opts.rebuild,
            max_file_size: cfg.max_file_size,
            off: !memories.history,
            budget: opts.history_budget,
        },
        &seed,
        progress,
        &|| lock.contended(),
    )
    .context("reading the git history")?;
    crate::interrupt::check()?;
    stats.stages.history = stage.elapsed().as_secs_f64();

    let (files, symbols, chunks) = store.read(|c| {
        c.query_row(
            "SELECT (SELECT count(*) FROM files), (SELECT count(*) FROM symbols), (SELECT count(*) FROM chunks)",
            [],
            |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, i64>(2)?)),
        )
    })?;
    stats.files = files as u64;
    stats.symbols = symbols as u64;
    stats.chunks = chunks as u64;
    // Files of a language this build cannot parse were read as text: said once per new
    // generation, and by `llmc status` and every structural answer.
    if changed && let Some(note) = crate::syntax::lang::left_out_note(&store.files_by_language()?) {
        stats.warnings.push(note);
    }
    stats.seconds = started.elapsed().as_secs_f64();
    Ok(stats)
}

/// Reads the rest of the history of `root`'s index (what an index run with a budget left),
/// newest first, slice by slice, to its end: `llmc index --history-only`, which
/// `llmc index` and `llmc ask` start in the background when history is left. One runs at
/// a time (`None`: another one is running, or there is no index). It holds the write
/// lock slice by slice and lets it go to a writer that waits, then goes on.
pub fn continue_history(
    root: &Path,
    config: &Config,
    progress: &dyn Progress,
) -> Result<Option<crate::history::HistoryStats>> {
    if !Store::exists(root) {
        return Ok(None);
    }
    let Some(_runner) = crate::store::history_runner_lock(root) else {
        return Ok(None);
    };
    let _signals = crate::interrupt::Guard::install();
    let mut total: Option<crate::history::HistoryStats> = None;
    loop {
        let lock = Store::lock(root, progress)?;
        let mut store = Store::open_for_write(root, false)?;
        if !store.memories()?.history {
            return Ok(total);
        }
        let stats = crate::history::ingest(
            root,
            &mut store,
            crate::history::IngestOptions {
                rebuild: false,
                max_file_size: config.index.max_file_size,
                off: false,
                budget: None,
            },
            &crate::history::Seed::default(),
            progress,
            &|| lock.contended(),
        )
        .context("reading the git history")?;
        crate::interrupt::check()?;
        let new = stats.new_commits;
        let (remaining, failed) = (stats.remaining, stats.error.is_some());
        let mut sum = stats.clone();
        if let Some(t) = &total {
            sum.new_commits += t.new_commits;
            sum.dropped_commits += t.dropped_commits;
            sum.seconds += t.seconds;
        }
        total = Some(sum);
        if remaining == 0 || failed || (new == 0 && !lock.contended()) {
            return Ok(total);
        }
        // A writer waits: let it have the lock, then go on after it.
        drop(store);
        drop(lock);
        crate::store::WriteLock::wait_for_waiter(root);
    }
}

/// Whether HEAD is not the commit the history was last brought up to (so the history
/// will change).
fn history_head_moved(root: &Path, writer: &Writer) -> Result<bool> {
    let stored: Option<String> = rusqlite::OptionalExtension::optional(writer.conn().query_row(
        "SELECT value FROM meta WHERE key = ?1",
        [meta::HISTORY_HEAD],
        |r| r.get(0),
    ))?;
    Ok(stored != crate::history::git::head_from_files(root))
}

/// Deletes a file's rows and its chunks from the search indexes, adding the names its
/// calls may have resolved to (when `names` is given) to those to resolve again.
fn delete_file(
    writer: &Writer,
    search: &mut SearchWriter,
    names: Option<&mut HashSet<String>>,
    id: i64,
) -> Result<()> {
    if let Some(names) = names {
        names.extend(writer.graph_names(id)?);
    }
    if let Some((lo, hi)) = writer.chunk_range(id)? {
        search.delete_chunks(lo, hi);
    }
    writer.delete_file(id)
}

/// Reads, hashes and, when the content changed, parses and chunks one file (and embeds
/// its chunks with `inline`, when given).
/// Compiles the definition query of each language among `files` before the parser threads
/// start. Compiling a query writes to freshly allocated pages; done by one parser thread
/// while another runs, each such page fault sends the other core a TLB-flush interrupt and
/// waits for it (80 ms for Scala's query in `perf`, 20 ms alone).
fn prepare_languages(files: &[WalkedFile]) {
    let mut seen = [false; syntax::lang::Lang::ALL.len()];
    for f in files {
        if let syntax::lang::FileLang::Code(lang) = syntax::lang::detect(Path::new(&f.rel), &[])
            && !std::mem::replace(&mut seen[lang as usize], true)
        {
            lang.query();
            lang.kind_tables();
        }
    }
}

/// Whether a file read whole is indexed, by its content: `Err` with the reason when it is
/// binary, marked as generated or holds a secret (each as `cfg` says); `Ok(true)` when it
/// holds a secret and is indexed because secrets are included. The index run and `llmc
/// status` ask the same, so status never calls a file new that a run would skip.
pub(crate) fn kept_by_content(
    rel: &str,
    bytes: &[u8],
    cfg: &IndexConfig,
) -> std::result::Result<bool, SkipReason> {
    if walk::looks_binary(bytes) {
        return Err(SkipReason::Binary);
    }
    if !cfg.include_generated && crate::source::marked_generated(bytes) {
        return Err(SkipReason::Generated);
    }
    // A secret by its content (a private key in `notes.txt`); by its name, the walk
    // already set it aside unless secrets are included.
    let secret = crate::source::holds_secret(bytes) || walk::is_secret_path(rel);
    if secret && !cfg.include_secrets {
        return Err(SkipReason::Secret);
    }
    Ok(secret)
}

fn process(
    root: &Path,
    cfg: &IndexConfig,
    f: &WalkedFile,
    existing: Option<&FileState>,
    opts: FileOptions,
    inline: Option<&dyn Embedder>,
) -> Outcome {
    let bytes = match crate::source::read(root, &f.rel, cfg.max_file_size) {
        Ok(b) => b,
        Err(refused) => {
            let reason = match refused {
                Refused::Unreadable => SkipReason::Unreadable,
                Refused::TooLarge => SkipReason::TooLarge,
                Refused::NotAFile | Refused::Outside => SkipReason::Changed,
            };
            return Outcome::Skipped(reason, existing.map(|e| e.id));
        }
    };
    let secret = match kept_by_content(&f.rel, &bytes, cfg) {
        Ok(secret) => secret,
        Err(reason) => return Outcome::Skipped(reason, existing.map(|e| e.id)),
    };
    let hash = crate::source::content_hash(&bytes);
    if let Some(e) = existing
        && e.hash == hash
    {
        return Outcome::Touched {
            id: e.id,
            size: f.size,
            mtime_ns: f.mtime_ns,
        };
    }
    let mut file = index_bytes(
        &f.rel,
        bytes,
        hash,
        f.size,
        f.mtime_ns,
        existing.map(|e| e.id),
        opts,
    );
    if secret {
        // Indexed because the user asked for secrets; flagged so that no answer is cached
        // with its lines.
        file.flags |= flags::SECRET;
    }
    // A failure here is not the file's: the write loop embeds the chunks again and
    // reports it.
    file.vectors =
        inline.and_then(|e| sync::embed_chunks(e, &f.rel, &file.chunks, &file.symbols).ok());
    Outcome::Indexed(Box::new(file))
}

/// At most this many definitions of a run's parse are kept for the history to reuse
/// (about 25 MB; the Python standard library has 70,000, a big cargo registry 465,000).
const SEED_MAX_DEFS: usize = 200_000;

/// How much memory a cold run's call sites may hold while they wait to be resolved
/// (the stdlib's 354,000 take about 20 MB); past it, the files' calls are stored
/// unresolved and read back, as in an incremental run.
const HELD_CALLS_BYTES: usize = 64 << 20;

/// Wraps [`syntax::parse_file`]'s rows with what the run knows about the file (path, hash,
/// stat data, its row in the store).
pub fn index_bytes(
    rel: &str,
    bytes: Vec<u8>,
    hash: String,
    size: u64,
    mtime_ns: i64,
    existing: Option<i64>,
    opts: FileOptions,
) -> IndexedFile {
    let rows = syntax::parse_file(rel, bytes, opts);
    IndexedFile {
        rel: rel.to_string(),
        existing,
        lang: rows.lang,
        size,
        mtime_ns,
        hash,
        lines: rows.lines,
        flags: rows.flags,
        symbols: rows.symbols,
        chunks: rows.chunks,
        refs: rows.refs,
        vectors: None,
    }
}

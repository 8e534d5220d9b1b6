//! The history memory: the commits reachable from HEAD, the files each one changed and
//! the definitions each one touched, ingested incrementally into the index's write
//! transaction; and the queries `llmc log` runs on them.
//!
//! Ingestion runs git as a subprocess (see ARCHITECTURE.md for why): one `git log` stream
//! over the new commits (raw changes and `-U0` hunks), one `git cat-file --batch` for the
//! blobs whose definitions the hunks are laid over. It never talks to the terminal.

pub mod dates;
pub mod git;
pub mod query;
pub mod touch;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use crate::progress::Progress;
use crate::syntax::defs;
use crate::syntax::lang::{self, FileLang};
use git::{Blobs, GitCommit, LogStream};
use touch::Def;

/// Meta keys the history keeps in the store.
pub mod meta {
    pub use crate::store::meta::{
        HISTORY_HEAD as HEAD, HISTORY_NOTE as NOTE, HISTORY_PARTIAL as PARTIAL,
        HISTORY_SHALLOW as SHALLOW,
    };
}

/// What a partial clone's history lacks, and how to get it.
pub const PARTIAL_NOTE: &str = "partial clone or objects missing: the definitions each \
     commit touched are not read, since old file versions are not on this machine and llmc \
     never fetches (a full clone, or `git fetch --refetch` without a filter, brings them)";

/// What one ingestion did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct HistoryStats {
    /// Commits in the history after the run.
    pub commits: u64,
    /// Commits ingested by this run.
    pub new_commits: u64,
    /// Commits dropped because HEAD no longer reaches them (a rebase, amend, reset…).
    pub dropped_commits: u64,
    /// The history stops at a shallow clone's boundary.
    pub shallow: bool,
    /// A partial clone: which definitions commits touched is not known.
    pub partial: bool,
    /// Why there is no history, when there is none.
    pub note: Option<String>,
    /// Why this run could not update the history (which stays as it was).
    pub error: Option<String>,
    /// File versions whose definitions were taken from this index run's parse of the same
    /// content instead of being parsed again.
    pub reused_parses: u64,
    pub seconds: f64,
}

impl HistoryStats {
    /// One clause for the index summary line.
    pub fn summary(&self) -> String {
        if let Some(n) = &self.note {
            return format!("no history ({n})");
        }
        if let Some(e) = &self.error {
            return format!(
                "history not updated, {} commits kept (warning: {e})",
                self.commits
            );
        }
        let mut s = format!("history {} commits ({} new", self.commits, self.new_commits);
        if self.dropped_commits > 0 {
            s.push_str(&format!(", {} dropped", self.dropped_commits));
        }
        s.push(')');
        if self.shallow {
            s.push_str(", shallow clone: history stops at its boundary");
        }
        if self.partial {
            s.push_str(&format!(", {PARTIAL_NOTE}"));
        }
        s
    }
}

/// What the store holds of the history, for `llmc status`.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryStatus {
    pub commits: u64,
    /// The HEAD it was ingested at.
    pub head: Option<String>,
    pub shallow: bool,
    /// A partial clone: commits and files only ([`PARTIAL_NOTE`]).
    pub partial: bool,
    /// Why there is no history, when there is none.
    pub note: Option<String>,
}

/// Reads the history's status from a store.
pub fn status(store: &crate::store::Store) -> Result<HistoryStatus> {
    let commits =
        store.read(|c| c.query_row("SELECT count(*) FROM commits", [], |r| r.get::<_, i64>(0)))?;
    Ok(HistoryStatus {
        commits: commits as u64,
        head: store.meta(meta::HEAD)?,
        shallow: store.meta(meta::SHALLOW)?.is_some_and(|s| !s.is_empty()),
        partial: store.meta(meta::PARTIAL)?.is_some(),
        note: store.meta(meta::NOTE)?,
    })
}

/// The note of an index whose history is switched off.
pub const OFF_NOTE: &str = "switched off in the configuration (index.history = false)";

/// Options of one ingestion.
#[derive(Debug, Clone, Copy, Default)]
pub struct IngestOptions {
    /// Forget the stored history and ingest it all again.
    pub rebuild: bool,
    /// File versions larger than this many bytes are not parsed (as in the index); their
    /// commits still list the file. 0: no limit.
    pub max_file_size: u64,
    /// History is switched off (`index.history = false`): no history, and a note.
    pub off: bool,
}

/// Brings the history in `conn` (the index's open write transaction) up to HEAD of the
/// repository at `root`. Not a repository, an empty one or no git at all: no history and
/// a note, not an error.
///
/// A failure half-way (a corrupt repository, git killed) is not an index failure: what
/// this run wrote of the history is rolled back, the history stays as it was, and the
/// stats carry the error.
pub fn ingest(
    root: &Path,
    conn: &Connection,
    opts: IngestOptions,
    seed: &Seed,
    progress: &dyn Progress,
) -> Result<HistoryStats> {
    let started = Instant::now();
    conn.execute_batch("SAVEPOINT history")?;
    let mut result = ingest_in(root, conn, opts, seed, progress, false);
    if let Err(e) = &result
        && objects_missing(e)
    {
        // A repository that lacks some old file versions (copied from a partial clone,
        // pruned by hand) cannot be read with patches: read it as a partial clone is.
        conn.execute_batch("ROLLBACK TO history")?;
        result = ingest_in(root, conn, opts, seed, progress, true);
    }
    match result {
        Ok(stats) => {
            conn.execute_batch("RELEASE history")?;
            Ok(stats)
        }
        Err(e) => {
            progress.finish();
            conn.execute_batch("ROLLBACK TO history; RELEASE history")?;
            let stats = HistoryStats {
                error: Some(format!("{e:#}")),
                ..HistoryStats::default()
            };
            Ok(finish(stats_with_count(conn, stats)?, started))
        }
    }
}

/// Whether git failed because an object is not in the repository.
fn objects_missing(e: &anyhow::Error) -> bool {
    let text = format!("{e:#}");
    text.contains("unable to read") || text.contains("missing blob") || text.contains("bad object")
}

fn ingest_in(
    root: &Path,
    conn: &Connection,
    opts: IngestOptions,
    seed: &Seed,
    progress: &dyn Progress,
    objects_missing: bool,
) -> Result<HistoryStats> {
    let started = Instant::now();
    let mut stats = HistoryStats::default();
    if opts.rebuild {
        clear(conn)?;
    }
    let set_note = |stats: &mut HistoryStats, note: &str| -> Result<()> {
        clear(conn)?;
        set_meta(conn, meta::NOTE, note)?;
        stats.note = Some(note.to_string());
        Ok(())
    };
    if opts.off {
        set_note(&mut stats, OFF_NOTE)?;
        return Ok(finish(stats, started));
    }
    let git_dir = crate::root::git_dir(root);
    if git_dir.is_none() {
        set_note(&mut stats, "not a git repository")?;
        return Ok(finish(stats, started));
    }
    let head = match git::try_output(root, &["rev-parse", "--verify", "-q", "HEAD^{commit}"]) {
        Ok(Some(out)) => String::from_utf8_lossy(&out).trim().to_string(),
        Ok(None) => {
            set_note(&mut stats, "the repository has no commits yet")?;
            return Ok(finish(stats, started));
        }
        Err(e) => {
            set_note(&mut stats, &format!("git is not available: {e:#}"))?;
            return Ok(finish(stats, started));
        }
    };
    conn.execute("DELETE FROM meta WHERE key = ?1", [meta::NOTE])?;
    let boundary = git::shallow_boundary(git_dir.clone());
    let boundary_text = boundary.join(" ");
    stats.shallow = !boundary.is_empty();
    // A partial clone keeps old file versions on its remote: commits and the files they
    // changed are read, the definitions they touched are not (that would fetch). `1`
    // marks a partial clone, `missing` a repository that lacked an object.
    let config_partial = git_dir.as_deref().is_some_and(git::is_partial_clone);
    let partial = objects_missing || config_partial;
    if !partial && get_meta(conn, meta::PARTIAL)?.as_deref() == Some("1") {
        // Read as a partial clone before and not now (its objects fetched, or an older
        // llmc that took a `.promisor` pack for one): the definitions every commit
        // touched are read again.
        stats.dropped_commits += known_commits(conn)?.len() as u64;
        clear(conn)?;
    }
    let old_head = get_meta(conn, meta::HEAD)?;
    let old_boundary = get_meta(conn, meta::SHALLOW)?.unwrap_or_default();

    let revs: Vec<String> =
        if old_head.as_deref() == Some(head.as_str()) && old_boundary == boundary_text {
            Vec::new()
        } else if old_head.is_some() && old_boundary != boundary_text {
            // The shallow boundary moved (`git fetch --deepen`, `--unshallow`, a new
            // `--depth`): the commits now reachable behind the old boundary are
            // ancestors of commits already read, so excluding those would exclude them
            // too. Everything is read again.
            let known = known_commits(conn)?;
            stats.dropped_commits += known.len() as u64;
            clear(conn)?;
            vec![head.clone()]
        } else if let Some(old) = old_head.as_deref().filter(|old| {
            old_boundary == boundary_text
                && matches!(
                    git::try_output(root, &["merge-base", "--is-ancestor", old, &head]),
                    Ok(Some(_))
                )
        }) {
            // The usual case: HEAD moved forward.
            vec![head.clone(), format!("^{old}")]
        } else {
            // HEAD moved elsewhere (rebase, amend, reset, another branch) or the shallow
            // boundary moved: keep what is still reachable, drop the rest, ingest the new.
            let reachable = output_lines(root, &["rev-list", &head])?;
            let reachable: HashSet<&str> = reachable.iter().map(String::as_str).collect();
            let stale: HashSet<String> = boundary.iter().cloned().collect();
            let known = known_commits(conn)?;
            let mut keep = Vec::new();
            for (hash, id, was_boundary) in &known {
                let reached = reachable.contains(hash.as_str());
                // A former boundary commit that now has its parents is ingested again.
                let stale_boundary = *was_boundary && !stale.contains(hash);
                if reached && !stale_boundary {
                    keep.push(hash.clone());
                } else {
                    delete_commit(conn, *id)?;
                    stats.dropped_commits += 1;
                }
            }
            let mut revs = vec![head.clone()];
            revs.extend(keep.into_iter().map(|h| format!("^{h}")));
            revs
        };

    stats.partial = partial;
    if partial {
        set_meta(
            conn,
            meta::PARTIAL,
            if config_partial { "1" } else { "missing" },
        )?;
    } else {
        conn.execute("DELETE FROM meta WHERE key = ?1", [meta::PARTIAL])?;
    }
    if !revs.is_empty() {
        let is_boundary: HashSet<&str> = boundary.iter().map(String::as_str).collect();
        let mut stream = LogStream::start(root, &revs, !partial)?;
        let mut blobs = Blobs::start(root)?;
        let mut cache = DefCache {
            max_size: opts.max_file_size,
            seed: Some(seed),
            ..DefCache::default()
        };
        // A bar needs a total; HEAD moving forward by a few commits does not need a bar.
        let total = if old_head.is_some() && revs.len() == 2 {
            0
        } else {
            count_commits(root, &revs)
        };
        if total >= LONG_HISTORY {
            progress.note(&format!(
                "reading {total} commits of history (about {} s or less); \
                 `index.history = false` in llmc.toml (or `--config index.history=false`) \
                 indexes the code only",
                total / COMMITS_PER_SECOND + 1
            ));
        }
        progress.start("history", total);
        let mut merges: HashMap<String, i64> = HashMap::new();
        let mut batch: Vec<GitCommit> = Vec::with_capacity(BATCH);
        loop {
            let next = stream.next_commit()?;
            let end = next.is_none();
            batch.extend(next);
            if batch.len() < BATCH && !end {
                continue;
            }
            // A safe point of the index run (nothing is committed before its end).
            crate::interrupt::check()?;
            let wanted: Vec<(&str, &str)> = batch
                .iter()
                .filter(|c| !is_boundary.contains(c.hash.as_str()))
                .flat_map(|c| c.patches.iter().filter_map(move |p| patch_sides(c, p)))
                .flat_map(|(old, new)| old.into_iter().chain(new))
                .collect();
            cache.prefetch(&mut blobs, &wanted)?;
            for c in batch.drain(..) {
                let boundary = is_boundary.contains(c.hash.as_str());
                insert_commit(conn, &c, boundary, &mut blobs, &mut cache)?;
                if c.parents.len() > 1 && !boundary {
                    merges.insert(c.hash.clone(), conn.last_insert_rowid());
                }
                stats.new_commits += 1;
                progress.inc(1);
            }
            if end {
                break;
            }
        }
        // Merges: only what they changed beyond taking one parent's version (conflict
        // resolutions, evil merges), from git's dense combined diff.
        let hashes: Vec<String> = merges.keys().cloned().collect();
        for m in git::merge_changes(root, &hashes)? {
            if let Some(&id) = merges.get(&m.hash) {
                insert_merge(conn, id, &m, &mut blobs, &mut cache)?;
            }
        }
        progress.finish();
        stats.reused_parses = cache.seeded;
    }
    set_meta(conn, meta::HEAD, &head)?;
    set_meta(conn, meta::SHALLOW, &boundary_text)?;
    Ok(finish(stats_with_count(conn, stats)?, started))
}

fn finish(mut stats: HistoryStats, started: Instant) -> HistoryStats {
    stats.seconds = started.elapsed().as_secs_f64();
    stats
}

fn stats_with_count(conn: &Connection, mut stats: HistoryStats) -> Result<HistoryStats> {
    stats.commits =
        conn.query_row("SELECT count(*) FROM commits", [], |r| r.get::<_, i64>(0))? as u64;
    Ok(stats)
}

/// How many commits `revs` select, for the progress bar (0 when git cannot say).
/// From this many new commits on, the run says what the history costs and how to skip it.
const LONG_HISTORY: u64 = 1000;

/// A low estimate of ingestion speed on a laptop core (the history bench reads 450 to
/// 1,200 commits a second), for that note.
const COMMITS_PER_SECOND: u64 = 400;

fn count_commits(root: &Path, revs: &[String]) -> u64 {
    let Ok(mut child) = git::git(root)
        .args(["rev-list", "--count", "--stdin"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
    else {
        return 0;
    };
    if let Some(mut stdin) = child.stdin.take() {
        let input = revs.join("\n") + "\n";
        std::thread::spawn(move || {
            use std::io::Write as _;
            let _ = stdin.write_all(input.as_bytes());
        });
    }
    child
        .wait_with_output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(0)
}

fn output_lines(root: &Path, args: &[&str]) -> Result<Vec<String>> {
    let out = git::output(root, args)?;
    Ok(String::from_utf8_lossy(&out)
        .lines()
        .map(str::to_string)
        .collect())
}

fn known_commits(conn: &Connection) -> Result<Vec<(String, i64, bool)>> {
    let mut stmt = conn.prepare("SELECT hash, id, boundary FROM commits")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get::<_, i64>(2)? != 0)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

fn delete_commit(conn: &Connection, id: i64) -> Result<()> {
    conn.prepare_cached("DELETE FROM commit_symbols WHERE commit_id = ?1")?
        .execute([id])?;
    conn.prepare_cached("DELETE FROM commit_files WHERE commit_id = ?1")?
        .execute([id])?;
    conn.prepare_cached("DELETE FROM commits WHERE id = ?1")?
        .execute([id])?;
    Ok(())
}

fn clear(conn: &Connection) -> Result<()> {
    conn.execute_batch(
        "DELETE FROM commit_symbols; DELETE FROM commit_files; DELETE FROM commits;
         DELETE FROM meta WHERE key IN ('history_head', 'history_shallow');",
    )
    .context("clearing the history")?;
    Ok(())
}

fn get_meta(conn: &Connection, key: &str) -> Result<Option<String>> {
    Ok(conn
        .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
        .optional()?)
}

fn set_meta(conn: &Connection, key: &str, value: &str) -> Result<()> {
    conn.prepare_cached("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)")?
        .execute([key, value])?;
    Ok(())
}

/// Definitions of the files this index run just parsed, by path and content hash (the
/// index's xxh3-128, as `files.hash` holds it): a blob of the history with the same path
/// and content is never parsed a second time.
#[derive(Debug, Default)]
pub struct Seed {
    map: HashMap<(String, String), std::rc::Rc<Vec<Def>>>,
}

impl Seed {
    /// Remembers what the index parsed of one file.
    pub fn add(&mut self, path: &str, hash: &str, symbols: &[crate::model::Symbol]) {
        if !symbols.is_empty() {
            self.map.insert(
                (path.to_string(), hash.to_string()),
                std::rc::Rc::new(defs_of(symbols)),
            );
        }
    }

    /// The definitions of a blob, when the index parsed the same content at this path and
    /// would have read it as history does: no carriage return, which the index takes as a
    /// line break on its own and history does not.
    fn get(&self, path: &str, bytes: &[u8]) -> Option<std::rc::Rc<Vec<Def>>> {
        if self.map.is_empty() || bytes.contains(&b'\r') {
            return None;
        }
        let hash = crate::source::content_hash(bytes);
        self.map.get(&(path.to_string(), hash)).cloned()
    }
}

/// Definitions by blob id: a file's version after one commit is its version before the
/// next, so each blob is parsed once. Bounded so a huge history cannot hold every blob.
#[derive(Default)]
struct DefCache<'s> {
    map: HashMap<String, std::rc::Rc<Vec<Def>>>,
    parser: tree_sitter::Parser,
    max_size: u64,
    seed: Option<&'s Seed>,
    /// Blobs whose definitions came from the seed rather than a parse.
    seeded: u64,
}

const DEF_CACHE_MAX: usize = 4096;

thread_local! {
    static PARSER: std::cell::RefCell<tree_sitter::Parser> =
        std::cell::RefCell::new(tree_sitter::Parser::new());
}

impl DefCache<'_> {
    /// Reads the blobs of `wanted` that are not cached and parses them in parallel.
    fn prefetch(&mut self, blobs: &mut Blobs, wanted: &[(&str, &str)]) -> Result<()> {
        let mut seen = HashSet::new();
        let mut todo: Vec<(String, &str, Vec<u8>)> = Vec::new();
        for &(blob, path) in wanted {
            if self.map.contains_key(blob) || !seen.insert(blob) {
                continue;
            }
            let bytes = blobs.get(blob)?.unwrap_or_default();
            if let Some(defs) = self.seed.and_then(|s| s.get(path, &bytes)) {
                self.map.insert(blob.to_string(), defs);
                self.seeded += 1;
                continue;
            }
            todo.push((blob.to_string(), path, bytes));
        }
        if self.map.len() + todo.len() > DEF_CACHE_MAX {
            self.map.clear();
        }
        let max = self.max_size;
        use rayon::prelude::*;
        let parsed: Vec<(String, Vec<Def>)> = todo
            .into_par_iter()
            .with_max_len(1)
            .map(|(blob, path, bytes)| {
                let defs = if too_big(&bytes, max) {
                    Vec::new()
                } else {
                    PARSER.with(|p| definitions(&mut p.borrow_mut(), path, &bytes))
                };
                (blob, defs)
            })
            .collect();
        for (blob, defs) in parsed {
            self.map.insert(blob, std::rc::Rc::new(defs));
        }
        Ok(())
    }

    fn defs(&mut self, blobs: &mut Blobs, blob: &str, path: &str) -> Result<std::rc::Rc<Vec<Def>>> {
        if let Some(d) = self.map.get(blob) {
            return Ok(d.clone());
        }
        let bytes = blobs.get(blob)?;
        let seeded = bytes
            .as_deref()
            .and_then(|b| self.seed.and_then(|s| s.get(path, b)));
        let defs = match (seeded, bytes) {
            (Some(defs), _) => {
                self.seeded += 1;
                defs
            }
            (None, Some(bytes)) if !too_big(&bytes, self.max_size) => {
                std::rc::Rc::new(definitions(&mut self.parser, path, &bytes))
            }
            (None, _) => std::rc::Rc::new(Vec::new()),
        };
        if self.map.len() >= DEF_CACHE_MAX {
            self.map.clear();
        }
        self.map.insert(blob.to_string(), defs.clone());
        Ok(defs)
    }
}

fn too_big(bytes: &[u8], max: u64) -> bool {
    max > 0 && bytes.len() as u64 > max
}

/// The definitions of one version of a file (none for a language llmc does not parse).
pub fn definitions(parser: &mut tree_sitter::Parser, path: &str, bytes: &[u8]) -> Vec<Def> {
    let FileLang::Code(l) = lang::detect(Path::new(path), bytes) else {
        return Vec::new();
    };
    if crate::source::looks_binary(bytes) {
        return Vec::new();
    }
    let text = String::from_utf8_lossy(bytes);
    let Some(parsed) = defs::parse(parser, l, &text, false) else {
        return Vec::new();
    };
    defs_of(&parsed.symbols)
}

/// A file's definitions as history compares them: from the first line of a definition's
/// doc comment or attributes to its end.
fn defs_of(symbols: &[crate::model::Symbol]) -> Vec<Def> {
    symbols
        .iter()
        .map(|s| Def {
            name: s.name.clone(),
            qualname: s.qualname.clone(),
            kind: s.kind.as_str(),
            start_line: s.lead_line.min(s.start_line),
            end_line: s.end_line,
        })
        .collect()
}

fn is_code_path(path: &str) -> bool {
    matches!(lang::detect(Path::new(path), b""), FileLang::Code(_))
}

/// Rows for a merge's own changes: files as `M` (or `D`), definitions whose lines in the
/// merged result the combined hunks overlap, as modified.
fn insert_merge(
    conn: &Connection,
    id: i64,
    m: &git::MergeChange,
    blobs: &mut Blobs,
    cache: &mut DefCache,
) -> Result<()> {
    for f in &m.files {
        let deleted = f.blob.chars().all(|c| c == '0');
        conn.prepare_cached(
            "INSERT INTO commit_files (commit_id, path, old_path, status, added, removed)
             VALUES (?1, ?2, NULL, ?3, ?4, ?5)",
        )?
        .execute(params![
            id,
            f.path,
            if deleted { "D" } else { "M" },
            f.added,
            f.removed
        ])?;
        if deleted || !is_code_path(&f.path) {
            continue;
        }
        let defs = cache.defs(blobs, &f.blob, &f.path)?;
        for t in touch::touched(&defs, &defs, &f.hunks) {
            conn.prepare_cached(
                "INSERT INTO commit_symbols (commit_id, path, name, qualname, kind, change, added,
                                             removed, start_line, end_line, hunks)
                 VALUES (?1, ?2, ?3, ?4, ?5, 'modified', ?6, 0, ?7, ?8, ?9)",
            )?
            .execute(params![
                id,
                f.path,
                t.name,
                t.qualname,
                t.kind,
                t.added,
                t.start_line,
                t.end_line,
                f.hunks
                    .iter()
                    .filter(|h| h.new_start <= t.end_line && h.new_start + h.new_len > t.start_line)
                    .map(|h| format!("@@@ +{},{} @@@", h.new_start, h.new_len))
                    .collect::<Vec<_>>()
                    .join("\n")
            ])?;
        }
    }
    Ok(())
}

/// A blob id and the path it is parsed as.
type Side<'a> = Option<(&'a str, &'a str)>;

/// For one file's patch in a commit: the versions before and after whose definitions the
/// hunks are laid over (`None` for a side that does not exist or is no parsed language);
/// `None` when neither side has definitions to find.
fn patch_sides<'a>(c: &'a GitCommit, p: &'a git::Patch) -> Option<(Side<'a>, Side<'a>)> {
    let old_code = p.old_path.as_deref().filter(|x| is_code_path(x));
    let new_code = p.new_path.as_deref().filter(|x| is_code_path(x));
    if old_code.is_none() && new_code.is_none() {
        return None;
    }
    // The blob ids come from the raw entry of the same file.
    let fc = c.files.iter().find(|f| match (&p.new_path, &p.old_path) {
        (Some(n), _) => &f.path == n,
        (None, Some(o)) => &f.path == o && matches!(f.status, 'D' | 'T'),
        (None, None) => false,
    })?;
    if fc.old_mode == "160000" || fc.new_mode == "160000" {
        return None;
    }
    let old = old_code
        .filter(|_| fc.old_blob != NULL_BLOB)
        .map(|path| (fc.old_blob.as_str(), path));
    let new = new_code
        .filter(|_| fc.new_blob != NULL_BLOB)
        .map(|path| (fc.new_blob.as_str(), path));
    Some((old, new))
}

/// Commits read ahead of insertion, so their blobs are parsed in parallel.
const BATCH: usize = 64;

const NULL_BLOB: &str = "0000000000000000000000000000000000000000";

fn insert_commit(
    conn: &Connection,
    c: &GitCommit,
    boundary: bool,
    blobs: &mut Blobs,
    cache: &mut DefCache,
) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO commits (hash, parents, author, email, author_date, author_time, commit_time,
                              subject, body, boundary)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?
    .execute(params![
        c.hash,
        c.parents.join(" "),
        c.author,
        c.email,
        c.author_iso,
        c.author_time,
        c.commit_time,
        c.subject,
        c.body,
        boundary
    ])?;
    if boundary {
        return Ok(());
    }
    let id = conn.last_insert_rowid();
    let mut file_stmt = conn.prepare_cached(
        "INSERT INTO commit_files (commit_id, path, old_path, status, added, removed)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for f in &c.files {
        file_stmt.execute(params![
            id,
            f.path,
            f.old_path,
            f.status.to_string(),
            f.added,
            f.removed
        ])?;
    }
    let mut sym_stmt = conn.prepare_cached(
        "INSERT INTO commit_symbols (commit_id, path, name, qualname, kind, change, added, removed,
                                     start_line, end_line, hunks)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?;
    for p in &c.patches {
        let Some((old_side, new_side)) = patch_sides(c, p) else {
            continue;
        };
        let empty = std::rc::Rc::new(Vec::new());
        let old_defs = match old_side {
            Some((blob, path)) => cache.defs(blobs, blob, path)?,
            None => empty.clone(),
        };
        let new_defs = match new_side {
            Some((blob, path)) => cache.defs(blobs, blob, path)?,
            None => empty,
        };
        let path = p
            .new_path
            .as_deref()
            .or(p.old_path.as_deref())
            .unwrap_or("");
        for t in touch::touched(&old_defs, &new_defs, &p.hunks) {
            sym_stmt.execute(params![
                id,
                path,
                t.name,
                t.qualname,
                t.kind,
                t.change.as_str(),
                t.added,
                t.removed,
                t.start_line,
                t.end_line,
                t.hunks.join("\n")
            ])?;
        }
    }
    Ok(())
}

//! The history memory: the commits reachable from HEAD, the files each one changed and
//! the definitions each one touched, ingested incrementally into the index's write
//! transaction; and the queries `llmc log` runs on them.
//!
//! Ingestion runs git as a subprocess (see ARCHITECTURE.md for why): one `git log` stream
//! over the new commits (raw changes, and `-U0` hunks of the files in no parsed
//! language), one `git cat-file --batch` for the versions of code files, which are parsed
//! for their definitions and diffed here for the hunks laid over them. It never talks to
//! the terminal.

pub mod dates;
pub mod git;
pub mod query;
mod regions;
pub mod touch;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use crate::progress::Progress;
use crate::store::Store;
use crate::syntax::defs;
use crate::syntax::lang::{self, FileLang};
use git::Hunk;
use git::{Blobs, GitCommit, LogStream};
use touch::Def;

/// Meta keys the history keeps in the store.
pub mod meta {
    pub use crate::store::meta::{
        HISTORY_HEAD as HEAD, HISTORY_NOTE as NOTE, HISTORY_PARTIAL as PARTIAL,
        HISTORY_REMAINING as REMAINING, HISTORY_SHALLOW as SHALLOW,
        HISTORY_TEXT_MISSING as TEXT_MISSING,
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
    /// Commits HEAD reaches that are not read yet (a later run reads them).
    pub remaining: u64,
    /// The date of the oldest commit held, while some are not read yet.
    pub read_back_to: Option<String>,
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
                "history stopped at {} commits, kept (warning: {e})",
                self.commits
            );
        }
        let mut s = if self.remaining > 0 {
            format!(
                "history {} of {} commits so far, newest first ({} new",
                self.commits,
                self.commits + self.remaining,
                self.new_commits
            )
        } else {
            format!("history {} commits ({} new", self.commits, self.new_commits)
        };
        if self.dropped_commits > 0 {
            s.push_str(&format!(", {} dropped", self.dropped_commits));
        }
        if self.remaining > 0 {
            let total = self.commits + self.remaining;
            s.push_str(&format!(
                "; read back to {}, {} %; the older ones are read next",
                self.read_back_to.as_deref().unwrap_or("nothing yet"),
                self.commits * 100 / total.max(1)
            ));
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
    /// Commits HEAD reaches that are not read yet (0: the history is complete).
    pub remaining: u64,
    /// The date of the oldest commit held, while some are not read yet.
    pub read_back_to: Option<String>,
}

impl HistoryStatus {
    /// "history read back to …, N % of commits; ask again later for older", while the
    /// history is read in part.
    pub fn partial_note(&self) -> Option<String> {
        partial_note(self.commits, self.remaining, self.read_back_to.as_deref())
    }
}

/// Reads the history's status from a store.
pub fn status(store: &crate::store::Store) -> Result<HistoryStatus> {
    let (commits, remaining, read_back_to) = store.read(|c| Ok(counts(c)))??;
    Ok(HistoryStatus {
        commits,
        remaining,
        read_back_to,
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
    /// Stop after the slice that ends past this much time (None: read to the end). What
    /// is left is read by a later run ([`HistoryStats::remaining`]).
    pub budget: Option<Duration>,
}

/// The test-only knobs (environment variables, read once per ingestion): commits per
/// slice, and a pause after each committed slice, so a test can kill an ingestion
/// between slices. Not configuration: nothing but the crash tests sets them.
pub const TEST_SLICE_VAR: &str = "LLMCTEST_HISTORY_SLICE";
/// See [`TEST_SLICE_VAR`].
pub const TEST_PAUSE_VAR: &str = "LLMCTEST_HISTORY_PAUSE_MS";
/// Test-only too: the budget (milliseconds) of a run that has one, in place of its own
/// (`0`: one batch, then stop).
pub const TEST_BUDGET_VAR: &str = "LLMCTEST_HISTORY_BUDGET_MS";

/// A slice (one committed transaction) ends after this long or this many commits.
const SLICE_TIME: Duration = Duration::from_millis(500);
const SLICE_COMMITS: usize = 5000;

/// Brings the history of `store` up to HEAD of the repository at `root`, after the code
/// memories are committed: which commits to read is decided and committed first (commits
/// HEAD no longer reaches dropped), then the commits newer than everything held (HEAD
/// moved forward) in one transaction, then the older ones newest first, in slices that
/// are each their own transaction. A reader sees a newest-first prefix of the history
/// that grows slice by slice; a run killed between slices loses nothing committed, and
/// the next one goes on from there.
///
/// Not a repository, an empty one or no git at all: no history and a note, not an error.
/// A failure half-way (a corrupt repository, git killed) is not an index failure either:
/// the slice being written is rolled back, what earlier slices wrote stays, and the stats
/// carry the error. `yield_now` is asked after every slice: true stops the ingestion
/// there (a writer waits for the lock).
pub fn ingest(
    root: &Path,
    store: &mut Store,
    opts: IngestOptions,
    seed: &Seed,
    progress: &dyn Progress,
    yield_now: &dyn Fn() -> bool,
) -> Result<HistoryStats> {
    let started = Instant::now();
    let mut result = ingest_in(
        root,
        store,
        opts,
        seed,
        progress,
        yield_now,
        Missing::None,
        started,
    );
    // A repository that lacks some old file versions (copied from a partial clone, pruned
    // by hand) cannot be read as it is: what is held stays. When git log lacked one (the
    // version of a file in no parsed language), the rest is read with no diff from git;
    // when a code file's version is missing, as a partial clone is.
    for missing in [Missing::Text, Missing::Code] {
        let Err(e) = &result else {
            break;
        };
        if !objects_missing(e) || (missing == Missing::Text && code_version_missing(e)) {
            continue;
        }
        let w = store.begin()?;
        match missing {
            Missing::Text => set_meta(w.conn(), meta::TEXT_MISSING, "1")?,
            _ => set_meta(w.conn(), meta::PARTIAL, "missing")?,
        }
        w.commit()?;
        let again = IngestOptions {
            rebuild: false,
            ..opts
        };
        result = ingest_in(
            root, store, again, seed, progress, yield_now, missing, started,
        );
    }
    match result {
        Ok(stats) => Ok(stats),
        Err(e) => {
            progress.finish();
            let stats = HistoryStats {
                error: Some(format!("{e:#}")),
                ..HistoryStats::default()
            };
            let stats = store.read(|c| Ok(with_counts(c, stats)))??;
            Ok(finish(stats, started))
        }
    }
}

/// Whether git failed because an object is not in the repository.
fn objects_missing(e: &anyhow::Error) -> bool {
    let text = format!("{e:#}");
    text.contains("unable to read") || text.contains("missing blob") || text.contains("bad object")
}

/// Whether the object missing is a code file's version, which the history reads itself
/// ([`diff_code_files`]).
fn code_version_missing(e: &anyhow::Error) -> bool {
    format!("{e:#}").contains(CODE_VERSION_MISSING)
}

const CODE_VERSION_MISSING: &str = "missing blob of a code file";

/// Which file versions a repository was found to lack while its history is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Missing {
    None,
    /// One that git log reads (a file in no parsed language): git log diffs no file.
    Text,
    /// A code file's: definitions are not read (as in a partial clone).
    Code,
}

/// Which commits to read, newest first.
#[derive(Debug, Default)]
struct Todo {
    /// Commits newer than every commit held (HEAD moved forward): stored above them.
    above: Vec<String>,
    /// Commits older than every commit held (the rest of a history read in part, or all
    /// of it on the first run): stored below them, slice by slice.
    below: Vec<String>,
    partial: bool,
    /// A version git log would read is missing ([`Missing::Text`]).
    text_missing: bool,
    boundary: HashSet<String>,
}

impl Todo {
    /// The hunks git log reads: a partial clone's are not on this machine; code files'
    /// are made from the versions the read parses ([`diff_code_files`]).
    fn hunks(&self) -> git::Hunks {
        if self.partial {
            git::Hunks::None
        } else if self.text_missing {
            git::Hunks::NoneFromGit
        } else {
            git::Hunks::ButCode
        }
    }

    /// A `git log` of `revs` with [`Todo::hunks`]; the attributes file code files' need
    /// is kept in the index's directory.
    fn stream(&self, root: &Path, revs: &[String]) -> Result<LogStream> {
        let hunks = self.hunks();
        let attributes = (hunks == git::Hunks::ButCode)
            .then(|| git::code_attributes(&crate::store::store_dir(root)))
            .transpose()?;
        LogStream::start(root, revs, hunks, attributes.as_deref())
    }
}

#[allow(clippy::too_many_arguments)]
fn ingest_in(
    root: &Path,
    store: &mut Store,
    opts: IngestOptions,
    seed: &Seed,
    progress: &dyn Progress,
    yield_now: &dyn Fn() -> bool,
    missing: Missing,
    started: Instant,
) -> Result<HistoryStats> {
    let mut stats = HistoryStats::default();
    let knobs = Knobs::from_env();
    let opts = IngestOptions {
        budget: opts.budget.map(|b| knobs.budget.unwrap_or(b)),
        ..opts
    };
    let w = store.begin()?;
    let todo = plan(root, w.conn(), opts, missing, &mut stats)?;
    w.commit()?;
    let Some(todo) = todo else {
        return Ok(finish(store.read(|c| Ok(with_counts(c, stats)))??, started));
    };
    let total = (todo.above.len() + todo.below.len()) as u64;
    if total > 0 {
        if total >= LONG_HISTORY {
            progress.note(&format!(
                "reading {total} commits of history, newest first (about {} s); the code is \
                 already indexed and answers at once, older history is read in slices and \
                 continues in the background; `index.history = false` in llmc.toml (or \
                 `--config index.history=false`) indexes the code only",
                total / COMMITS_PER_SECOND + 1
            ));
        }
        progress.start("history", total);
        let mut cache = DefCache {
            max_size: opts.max_file_size,
            seed: Some(seed),
            ..DefCache::default()
        };
        let mut blobs = Blobs::start(root)?;
        let slice = SliceCtx {
            root,
            todo: &todo,
            progress,
            // A run with a budget answers first (a slice of its own for the first
            // answer); one without (the background reader) takes the largest at once.
            batch: std::cell::Cell::new(if opts.budget.is_some() {
                FIRST_BATCH
            } else {
                BATCH_MAX
            }),
            parsing: std::cell::RefCell::new(None),
        };
        let until = opts.budget.map(|b| started + b);
        if !todo.above.is_empty() {
            // Newer than everything held: one transaction, ids above the held ones,
            // oldest first so a parent's id stays below its child's.
            let oldest_first: Vec<String> = todo.above.iter().rev().cloned().collect();
            let mut stream = todo.stream(root, &oldest_first)?;
            let w = store.begin()?;
            let next = max_id(w.conn())? + 1;
            let n = slice.read(
                w.conn(),
                &mut stream,
                &mut blobs,
                &mut cache,
                Ids::Up(next),
                usize::MAX,
                None,
                None,
            )?;
            add_remaining(w.conn(), -(n as i64))?;
            w.commit()?;
            stats.new_commits += n as u64;
        }
        if !todo.below.is_empty() {
            let mut stream = todo.stream(root, &todo.below)?;
            loop {
                let w = store.begin()?;
                let next = min_id(w.conn())? - 1;
                let deadline = match opts.budget {
                    Some(b) => SLICE_TIME.min(b.saturating_sub(started.elapsed())),
                    None => SLICE_TIME,
                };
                let n = slice.read(
                    w.conn(),
                    &mut stream,
                    &mut blobs,
                    &mut cache,
                    Ids::Down(next),
                    knobs.slice,
                    Some(Instant::now() + deadline),
                    until,
                )?;
                add_remaining(w.conn(), -(n as i64))?;
                w.commit()?;
                stats.new_commits += n as u64;
                // A batch still parsed is written by the next slice.
                if n == 0 || (stream.finished() && slice.parsing.borrow().is_none()) {
                    break;
                }
                if let Some(ms) = knobs.pause_ms {
                    std::thread::sleep(Duration::from_millis(ms));
                }
                // Out of time, a batch already being parsed is still written: it was
                // started only when it should be parsed within the budget.
                let out_of_time = opts.budget.is_some_and(|b| started.elapsed() >= b)
                    && slice.parsing.borrow().is_none();
                if out_of_time || yield_now() {
                    break;
                }
            }
        }
        progress.finish();
        stats.reused_parses = cache.seeded;
    }
    Ok(finish(store.read(|c| Ok(with_counts(c, stats)))??, started))
}

/// The test-only knobs ([`TEST_SLICE_VAR`], [`TEST_PAUSE_VAR`]).
struct Knobs {
    slice: usize,
    pause_ms: Option<u64>,
    budget: Option<Duration>,
}

impl Knobs {
    fn from_env() -> Knobs {
        let num = |var: &str| {
            std::env::var(var)
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
        };
        Knobs {
            slice: num(TEST_SLICE_VAR)
                .filter(|&n| n > 0)
                .map_or(SLICE_COMMITS, |n| n as usize),
            pause_ms: num(TEST_PAUSE_VAR),
            budget: num(TEST_BUDGET_VAR).map(Duration::from_millis),
        }
    }
}

/// How the commits of a slice get their ids: counting up from a first id, or down.
#[derive(Debug, Clone, Copy)]
enum Ids {
    Up(i64),
    Down(i64),
}

/// What every slice of one ingestion shares.
struct SliceCtx<'a> {
    root: &'a Path,
    todo: &'a Todo,
    progress: &'a dyn Progress,
    /// Commits in the next batch: [`FIRST_BATCH`] in a run with a budget, doubled after
    /// each batch up to [`BATCH_MAX`] (across the slices of one ingestion); else
    /// [`BATCH_MAX`].
    batch: std::cell::Cell<usize>,
    /// The batch being parsed while the one before it is written: it carries over from
    /// one slice to the next, so a slice's commit and the next slice's parse overlap.
    parsing: std::cell::RefCell<Option<Parsing>>,
}

/// A batch of commits whose file versions are being parsed ([`DefCache::start`]), with
/// the reader of its merges' own changes.
struct Parsing {
    batch: Vec<GitCommit>,
    merges: Option<std::thread::JoinHandle<Result<Vec<git::MergeChange>>>>,
    /// The blobs it parses: the next batch does not read them again.
    blobs: HashSet<String>,
    /// When its parse started.
    launched: Instant,
}

/// A batch read and its versions fetched, to parse once the batch before is parsed (a
/// version may be reparsed from a tree that batch keeps).
struct Prepared {
    batch: Vec<GitCommit>,
    chains: Vec<Vec<Task>>,
    merges: Option<std::thread::JoinHandle<Result<Vec<git::MergeChange>>>>,
}

impl SliceCtx<'_> {
    /// Reads commits from `stream` into `conn` until it ends, `max` commits are read or
    /// `deadline` passed (checked between batches); returns how many.
    ///
    /// Batches overlap: while one batch is parsed, the next is read from git (its commits
    /// and its file versions) and the one before is written. The next batch may be
    /// started before this call returns (then the next call writes it), unless `until`
    /// (the end of the run's budget) comes before it would be parsed.
    #[allow(clippy::too_many_arguments)]
    fn read(
        &self,
        conn: &Connection,
        stream: &mut LogStream,
        blobs: &mut Blobs,
        cache: &mut DefCache,
        ids: Ids,
        max: usize,
        deadline: Option<Instant>,
        until: Option<Instant>,
    ) -> Result<usize> {
        let is_boundary = &self.todo.boundary;
        let mut merges: HashMap<String, i64> = HashMap::new();
        // Merges: only what they changed beyond taking one parent's version (conflict
        // resolutions, evil merges), from git's dense combined diff, read on a thread
        // while their batch is parsed.
        let mut merge_runs = Vec::new();
        let passed = |t: Option<Instant>| t.is_some_and(|t| Instant::now() >= t);
        let mut n = 0usize;
        loop {
            let taken = self.parsing.borrow_mut().take();
            let current = match taken {
                Some(p) => p,
                None => match self.prepare(stream, blobs, cache, max - n, &HashSet::new())? {
                    Some(p) => self.launch(cache, p)?,
                    None => break,
                },
            };
            // A safe point: the slice being written is rolled back.
            crate::interrupt::check()?;
            // The next batch: in this slice while it has room, else the next slice's first.
            let after = n + current.batch.len();
            let cap = if after < max && !passed(deadline) {
                max - after
            } else {
                max
            };
            // Without a budget, it is read while this one is parsed.
            let early = match until {
                None => self.prepare(stream, blobs, cache, cap, &current.blobs)?,
                Some(_) => None,
            };
            let Parsing {
                batch,
                merges: merge_run,
                launched,
                ..
            } = current;
            cache.settle()?;
            merge_runs.extend(merge_run);
            // With a budget, it is read only if it should be parsed within the budget (it
            // is twice this one at most), so that a short budget (the first answer's) is
            // not exceeded by a batch.
            let next = match until {
                None => early,
                Some(u) if Instant::now() + 2 * launched.elapsed() < u => {
                    self.prepare(stream, blobs, cache, cap, &HashSet::new())?
                }
                Some(_) => None,
            };
            // It is parsed while this one is written.
            let next = next.map(|p| self.launch(cache, p)).transpose()?;
            for c in batch {
                let id = match ids {
                    Ids::Up(first) => first + n as i64,
                    Ids::Down(first) => first - n as i64,
                };
                let boundary = is_boundary.contains(c.hash.as_str());
                insert_commit(conn, id, &c, boundary, blobs, cache)?;
                if self.own_merge(&c) {
                    merges.insert(c.hash.clone(), id);
                }
                n += 1;
                self.progress.inc(1);
            }
            let going_on = next.is_some();
            *self.parsing.borrow_mut() = next;
            if going_on && until.is_none() {
                // The commits of the batch after it are read from git log while it is
                // parsed (given back to the stream, so a slice that ends here loses none).
                let ahead = stream.next_commits(self.batch.get())?;
                stream.unread(ahead);
            }
            if !going_on || n >= max || passed(deadline) {
                break;
            }
        }
        for run in merge_runs {
            let changes = match run.join() {
                Ok(Ok(c)) => c,
                // A merge whose versions are missing (a partial clone, a lost object) keeps
                // its commit without its own changes, as a commit with a lost blob keeps its
                // files; the history reads on.
                Ok(Err(e)) if objects_missing(&e) => Vec::new(),
                Ok(Err(e)) => return Err(e),
                Err(_) => anyhow::bail!("reading the merges' changes stopped"),
            };
            for m in changes {
                if let Some(&id) = merges.get(&m.hash) {
                    insert_merge(conn, id, &m, blobs, cache)?;
                }
            }
        }
        Ok(n)
    }

    /// A merge whose changes are read: one inside the range read, not its boundary.
    fn own_merge(&self, c: &GitCommit) -> bool {
        c.parents.len() > 1 && !self.todo.boundary.contains(c.hash.as_str())
    }

    /// Takes the next batch from `stream` (at most `cap` commits), starts reading its
    /// merges and reads the file versions to parse, but `parsing` (those of the batch
    /// being parsed); `None` at the end of the stream.
    fn prepare(
        &self,
        stream: &mut LogStream,
        blobs: &mut Blobs,
        cache: &mut DefCache,
        cap: usize,
        parsing: &HashSet<String>,
    ) -> Result<Option<Prepared>> {
        let mut batch = stream.next_commits(self.batch.get().min(cap))?;
        if batch.is_empty() {
            return Ok(None);
        }
        // The versions read for the diffs that this batch's parse needs too.
        let mut texts = if self.todo.partial {
            Texts::new()
        } else {
            diff_code_files(&mut batch, &self.todo.boundary, blobs, |blob| {
                !parsing.contains(blob) && !cache.has(blob)
            })?
        };
        self.batch.set((self.batch.get() * 2).min(BATCH_MAX));
        let batch_merges: Vec<String> = batch
            .iter()
            .filter(|c| self.own_merge(c))
            .map(|c| c.hash.clone())
            .collect();
        let merges = (!batch_merges.is_empty()).then(|| {
            let root = self.root.to_path_buf();
            std::thread::spawn(move || git::merge_changes(&root, &batch_merges))
        });
        let is_boundary = &self.todo.boundary;
        let wanted: Vec<Wanted> = batch
            .iter()
            .filter(|c| !is_boundary.contains(c.hash.as_str()))
            .flat_map(|c| {
                c.patches.iter().filter_map(move |p| {
                    patch_sides(c, p).map(|(old, new)| (old, new, p.hunks.as_slice()))
                })
            })
            .collect();
        let chains = cache.prefetch(blobs, &wanted, parsing, &mut texts)?;
        drop(wanted);
        Ok(Some(Prepared {
            batch,
            chains,
            merges,
        }))
    }

    /// Starts parsing a prepared batch.
    fn launch(&self, cache: &mut DefCache, p: Prepared) -> Result<Parsing> {
        let blobs = p.chains.iter().flatten().map(|t| t.blob.clone()).collect();
        cache.start(p.chains)?;
        Ok(Parsing {
            batch: p.batch,
            merges: p.merges,
            blobs,
            launched: Instant::now(),
        })
    }
}

/// Decides which commits to read (in the plan transaction `conn`): drops what HEAD no
/// longer reaches and records HEAD, the boundary and how many commits remain. `None`:
/// there is no history to read (the note says why).
fn plan(
    root: &Path,
    conn: &Connection,
    opts: IngestOptions,
    missing: Missing,
    stats: &mut HistoryStats,
) -> Result<Option<Todo>> {
    if opts.rebuild {
        clear(conn)?;
    }
    let set_note = |stats: &mut HistoryStats, note: &str| -> Result<Option<Todo>> {
        clear(conn)?;
        set_meta(conn, meta::NOTE, note)?;
        stats.note = Some(note.to_string());
        Ok(None)
    };
    if opts.off {
        return set_note(stats, OFF_NOTE);
    }
    let git_dir = crate::root::git_dir(root);
    if git_dir.is_none() {
        return set_note(stats, "not a git repository");
    }
    let head = match git::try_output(root, &["rev-parse", "--verify", "-q", "HEAD^{commit}"]) {
        Ok(Some(out)) => String::from_utf8_lossy(&out).trim().to_string(),
        Ok(None) => return set_note(stats, "the repository has no commits yet"),
        Err(e) => return set_note(stats, &format!("git is not available: {e:#}")),
    };
    conn.execute("DELETE FROM meta WHERE key = ?1", [meta::NOTE])?;
    let boundary = git::shallow_boundary(git_dir.clone());
    let boundary_text = boundary.join(" ");
    stats.shallow = !boundary.is_empty();
    let remaining: u64 = get_meta(conn, meta::REMAINING)?
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    // A partial clone keeps old file versions on its remote: commits and the files they
    // changed are read, the definitions they touched are not (that would fetch). `1`
    // marks a partial clone, `missing` a repository that lacked an object (kept while
    // the rest of its history is read).
    let config_partial = git_dir.as_deref().is_some_and(git::is_partial_clone);
    let stored_partial = get_meta(conn, meta::PARTIAL)?;
    let partial = missing == Missing::Code
        || config_partial
        || (remaining > 0 && stored_partial.as_deref() == Some("missing"));
    // A version git log reads was missing (kept while the rest of the history is read).
    let text_missing = !partial
        && (missing == Missing::Text
            || (remaining > 0 && get_meta(conn, meta::TEXT_MISSING)?.is_some()));
    if !partial && stored_partial.as_deref() == Some("1") {
        // Read as a partial clone before and not now (its objects fetched, or an older
        // llmc that took a `.promisor` pack for one): the definitions every commit
        // touched are read again.
        stats.dropped_commits += known_commits(conn)?.len() as u64;
        clear(conn)?;
    }
    let old_head = get_meta(conn, meta::HEAD)?;
    let old_boundary = get_meta(conn, meta::SHALLOW)?.unwrap_or_default();

    let mut todo = Todo {
        partial,
        text_missing,
        boundary: boundary.iter().cloned().collect(),
        ..Todo::default()
    };
    if old_head.as_deref() == Some(head.as_str()) && old_boundary == boundary_text && remaining == 0
    {
        // Up to date.
    } else if let Some(old) = old_head.as_deref().filter(|old| {
        remaining == 0
            && old_boundary == boundary_text
            && matches!(
                git::try_output(root, &["merge-base", "--is-ancestor", old, &head]),
                Ok(Some(_))
            )
    }) {
        // The usual case: a complete history, HEAD moved forward.
        todo.above = output_lines(
            root,
            &["rev-list", "--topo-order", &head, &format!("^{old}")],
        )?;
    } else {
        if old_head.is_some() && old_boundary != boundary_text {
            // The shallow boundary moved (`git fetch --deepen`, `--unshallow`, a new
            // `--depth`): the commits now reachable behind the old boundary are
            // ancestors of commits already read. Everything is read again.
            stats.dropped_commits += known_commits(conn)?.len() as u64;
            clear(conn)?;
        }
        // HEAD moved elsewhere (rebase, amend, reset, another branch), or the history
        // is read in part: keep what is still reachable, drop the rest, read the others.
        let listed = output_lines(root, &["rev-list", "--topo-order", "--parents", &head])?;
        let mut order: Vec<(&str, Vec<&str>)> = Vec::with_capacity(listed.len());
        for line in &listed {
            let mut parts = line.split(' ');
            let hash = parts.next().unwrap_or_default();
            order.push((hash, parts.collect()));
        }
        let reachable: HashSet<&str> = order.iter().map(|(h, _)| *h).collect();
        let mut stored: HashSet<String> = HashSet::new();
        for (hash, id, was_boundary) in known_commits(conn)? {
            // A former boundary commit that now has its parents is read again.
            let stale_boundary = was_boundary && !todo.boundary.contains(&hash);
            if reachable.contains(hash.as_str()) && !stale_boundary {
                stored.insert(hash);
            } else {
                delete_commit(conn, id)?;
                stats.dropped_commits += 1;
            }
        }
        // A commit with a held ancestor is newer than what is held and goes above it;
        // the others are older history and go below (parents come after children in
        // `--topo-order`, so walking the list backwards sees a parent first).
        let mut above_held: HashMap<&str, bool> = HashMap::with_capacity(order.len());
        for (hash, parents) in order.iter().rev() {
            let v = parents
                .iter()
                .any(|p| stored.contains(*p) || above_held.get(p).copied().unwrap_or(false));
            above_held.insert(hash, v);
        }
        for (hash, _) in &order {
            if stored.contains(*hash) {
                continue;
            }
            if above_held.get(hash).copied().unwrap_or(false) {
                todo.above.push(hash.to_string());
            } else {
                todo.below.push(hash.to_string());
            }
        }
    }
    stats.partial = partial;
    if partial {
        let value = if config_partial { "1" } else { "missing" };
        set_meta(conn, meta::PARTIAL, value)?;
    } else {
        conn.execute("DELETE FROM meta WHERE key = ?1", [meta::PARTIAL])?;
    }
    if text_missing {
        set_meta(conn, meta::TEXT_MISSING, "1")?;
    } else {
        conn.execute("DELETE FROM meta WHERE key = ?1", [meta::TEXT_MISSING])?;
    }
    set_meta(conn, meta::HEAD, &head)?;
    set_meta(conn, meta::SHALLOW, &boundary_text)?;
    set_meta(
        conn,
        meta::REMAINING,
        &(todo.above.len() + todo.below.len()).to_string(),
    )?;
    Ok(Some(todo))
}

fn max_id(conn: &Connection) -> Result<i64> {
    Ok(conn.query_row("SELECT coalesce(max(id), 0) FROM commits", [], |r| r.get(0))?)
}

fn min_id(conn: &Connection) -> Result<i64> {
    Ok(conn.query_row("SELECT coalesce(min(id), 0) FROM commits", [], |r| r.get(0))?)
}

fn add_remaining(conn: &Connection, delta: i64) -> Result<()> {
    let now: i64 = get_meta(conn, meta::REMAINING)?
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    set_meta(conn, meta::REMAINING, &(now + delta).max(0).to_string())
}

fn finish(mut stats: HistoryStats, started: Instant) -> HistoryStats {
    stats.seconds = started.elapsed().as_secs_f64();
    stats
}

/// The stats with what the store now holds: commits, those left to read, how far back.
fn with_counts(conn: &Connection, mut stats: HistoryStats) -> Result<HistoryStats> {
    let (commits, remaining, back_to) = counts(conn)?;
    stats.commits = commits;
    stats.remaining = remaining;
    stats.read_back_to = back_to;
    Ok(stats)
}

/// Commits held, commits left to read, and the date of the oldest held when some are
/// left (the history is read newest first, so the held part reaches back to it).
fn counts(conn: &Connection) -> Result<(u64, u64, Option<String>)> {
    let commits =
        conn.query_row("SELECT count(*) FROM commits", [], |r| r.get::<_, i64>(0))? as u64;
    let remaining: u64 = get_meta(conn, meta::REMAINING)?
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let back_to = if remaining > 0 {
        conn.query_row(
            "SELECT author_date FROM commits ORDER BY id LIMIT 1",
            [],
            |r| r.get::<_, String>(0),
        )
        .optional()?
        .map(|iso| iso.chars().take(10).collect())
    } else {
        None
    };
    Ok((commits, remaining, back_to))
}

/// The note a history answer carries while the history is read in part: "history read
/// back to 2019-03-02, 41 % of commits; ask again later for older".
pub fn partial_note(commits: u64, remaining: u64, back_to: Option<&str>) -> Option<String> {
    if remaining == 0 {
        return None;
    }
    let pct = commits * 100 / (commits + remaining).max(1);
    Some(match back_to {
        Some(d) => {
            format!("history read back to {d}, {pct} % of commits; ask again later for older")
        }
        None => "history not read yet; ask again later".to_string(),
    })
}

/// From this many new commits on, the run says what the history costs and how to skip it.
const LONG_HISTORY: u64 = 1000;

/// A low estimate of ingestion speed on two laptop cores, for that note: rails reads at
/// 625 commits a second, werkzeug and click near 1,000, the history bench 1,177
/// (BENCHMARKS.md, "History off the critical path"). At 400 it said "about 15 s" for
/// werkzeug's 5,926 commits, read in 5 to 7.
const COMMITS_PER_SECOND: u64 = 600;

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
         DELETE FROM meta WHERE key IN ('history_head', 'history_shallow', 'history_remaining');",
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
    /// The map before the last batch made room in it: the batch written while the next is
    /// parsed still reads it. Dropped when the next batch makes room again (the batch
    /// that read it is written by then).
    old: HashMap<String, std::rc::Rc<Vec<Def>>>,
    /// Syntax trees of the oldest versions parsed lately, by blob: the version before
    /// is reparsed from its successor's tree, and tree-sitter reuses what a commit did not
    /// change (most of a file, usually).
    trees: Trees,
    parser: tree_sitter::Parser,
    /// The parse of a batch under way on a thread of its own ([`DefCache::start`]); the
    /// trees kept are with it.
    in_flight: Option<std::thread::JoinHandle<Parsed>>,
    max_size: u64,
    seed: Option<&'s Seed>,
    /// Blobs whose definitions came from the seed rather than a parse.
    seeded: u64,
}

const DEF_CACHE_MAX: usize = 4096;

/// Blob bytes read ahead of parsing at most (then they are parsed and let go).
const PREFETCH_BYTES: usize = 32 << 20;

/// Syntax trees kept for reparsing at most, and the most source they may cover together
/// (a tree takes tens of times its text: rails peaked 220 MB higher with 64 trees and no
/// byte bound).
const TREES_MAX: usize = 64;
const TREES_MAX_BYTES: usize = 2 << 20;

/// Versions kept without their trees at most, and the most text they may hold together:
/// a file changed once in a batch is read in the next from the regions of its version
/// there, not parsed from scratch (on pallets/werkzeug, 90 versions of 5,926 commits).
const LIGHT_MAX: usize = 4096;
const LIGHT_MAX_BYTES: usize = 16 << 20;

thread_local! {
    static PARSER: std::cell::RefCell<tree_sitter::Parser> =
        std::cell::RefCell::new(tree_sitter::Parser::new());
}

/// A parsed version of a file kept to reparse the version before it.
struct Held {
    lang: lang::Lang,
    /// `None` once let go to bound the memory the kept versions take (a tree takes tens
    /// of times its text): a Python version is still kept for its regions, and the
    /// version before it read through them, else parsed from scratch.
    tree: Option<tree_sitter::Tree>,
    bytes: Vec<u8>,
    /// What the walk for definitions found in the tree's larger nodes.
    memo: defs::Memo,
    /// A Python version's definitions and top-level statements, when it parsed cleanly:
    /// the version before it is read from them, parsing only what its commit changed
    /// (see [`regions`]). The tree then is this one's, only edited to the older text.
    regions: Option<(Vec<Def>, regions::Tops)>,
}

impl Held {
    /// This version without its tree, if the version before it can still be read from
    /// it (through its regions).
    fn light(self) -> Option<Held> {
        self.regions.is_some().then_some(Held {
            tree: None,
            memo: defs::Memo::default(),
            ..self
        })
    }
}

/// A tree kept, by blob.
type Kept = (String, Held);

/// The versions kept, oldest first out: with their trees within [`TREES_MAX`] and
/// [`TREES_MAX_BYTES`]; past those, Python versions without their trees
/// ([`Held::light`]) within [`LIGHT_MAX`] and [`LIGHT_MAX_BYTES`].
#[derive(Default)]
struct Trees {
    map: HashMap<String, Held>,
    /// Those with a tree, and those without.
    full: Queue,
    light: Queue,
}

/// Blobs of [`Trees`] in the order they were kept, and the bytes of their texts.
#[derive(Default)]
struct Queue {
    order: std::collections::VecDeque<String>,
    bytes: usize,
}

impl Queue {
    fn push(&mut self, blob: String, len: usize) {
        self.bytes += len;
        self.order.push_back(blob);
    }

    fn remove(&mut self, blob: &str, len: usize) {
        self.order.retain(|b| b != blob);
        self.bytes -= len;
    }

    fn over(&self, most: usize, most_bytes: usize) -> bool {
        self.order.len() > most || self.bytes > most_bytes
    }

    /// The oldest, no longer kept.
    fn evict(&mut self, map: &mut HashMap<String, Held>) -> Option<(String, Held)> {
        let blob = self.order.pop_front()?;
        let held = map.remove(&blob)?;
        self.bytes -= held.bytes.len();
        Some((blob, held))
    }
}

impl Trees {
    fn queue(&mut self, held: &Held) -> &mut Queue {
        if held.tree.is_some() {
            &mut self.full
        } else {
            &mut self.light
        }
    }

    /// The version of `blob`, no longer kept.
    fn take(&mut self, blob: &str) -> Option<Held> {
        let held = self.map.remove(blob)?;
        self.queue(&held).remove(blob, held.bytes.len());
        Some(held)
    }

    fn insert(&mut self, blob: String, held: Held) {
        if held.bytes.len() > TREES_MAX_BYTES {
            return;
        }
        self.take(&blob);
        self.queue(&held).push(blob.clone(), held.bytes.len());
        self.map.insert(blob, held);
        while self.full.over(TREES_MAX, TREES_MAX_BYTES) {
            let Some((old, held)) = self.full.evict(&mut self.map) else {
                break;
            };
            if let Some(light) = held.light() {
                self.light.push(old.clone(), light.bytes.len());
                self.map.insert(old, light);
            }
        }
        while self.light.over(LIGHT_MAX, LIGHT_MAX_BYTES) {
            if self.light.evict(&mut self.map).is_none() {
                break;
            }
        }
    }
}

/// One blob to parse: its bytes, and the newer version of the same file it may be
/// reparsed from. It owns what it holds: a batch's versions are parsed on a thread of
/// their own while the batch before is written.
struct Task {
    blob: String,
    path: String,
    bytes: Vec<u8>,
    base: Option<String>,
    /// The `-U0` hunks from this version to `base`.
    hunks: Vec<Hunk>,
    /// Its place in the batch, newest first: how near in history two versions are.
    order: usize,
}

/// The line starts of `bytes`, and its length last: line `k` (from 0) is
/// `starts[k]..starts[k + 1]`.
fn line_starts(bytes: &[u8]) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(
        memchr::memchr_iter(b'\n', bytes)
            .map(|i| i + 1)
            .filter(|&i| i < bytes.len()),
    );
    if !bytes.is_empty() {
        starts.push(bytes.len());
    }
    starts
}

/// The edits that turn `new` back into `old`, one per hunk of the `-U0` diff from `old`
/// to `new` (whose [`line_starts`] are `ol` and `nl`), last first (so each is in the
/// coordinates the ones before it left), and the same changes in order, from `new`'s
/// bytes to `old`'s; `None` when the hunks do not describe these two texts (then one
/// edit spans them all).
///
/// One edit from the first change to the last would have every reparse read all the
/// lines between a commit's hunks again: on werkzeug those spans are six times the
/// lines changed.
fn edits_from_hunks(
    (old, ol): (&[u8], &[usize]),
    (new, nl): (&[u8], &[usize]),
    hunks: &[Hunk],
) -> Option<(Vec<tree_sitter::InputEdit>, Vec<defs::Changed>)> {
    // A hunk's lines as a range of line indexes (a zero length is an insertion after its
    // start line).
    let lines = |start: u32, len: u32| {
        let first = if len == 0 {
            start
        } else {
            start.checked_sub(1)?
        } as usize;
        Some((first, first + len as usize))
    };
    let byte = |starts: &[usize], line: usize| {
        // An empty text has no line, and any line of it starts at 0.
        starts
            .get(line)
            .copied()
            .or((starts.len() == 1).then_some(0))
    };
    let mut spans = Vec::with_capacity(hunks.len());
    let (mut old_at, mut new_at) = (0usize, 0usize);
    for h in hunks {
        let (o0, o1) = lines(h.old_start, h.old_len)?;
        let (n0, n1) = lines(h.new_start, h.new_len)?;
        let (os, oe) = (byte(ol, o0)?, byte(ol, o1)?);
        let (ns, ne) = (byte(nl, n0)?, byte(nl, n1)?);
        // The unchanged text before the hunk is the same on both sides, and in order.
        if os < old_at || ns < new_at || old[old_at..os] != new[new_at..ns] {
            return None;
        }
        spans.push(((os, oe), (n0, ns, ne)));
        (old_at, new_at) = (oe, ne);
    }
    if old[old_at..] != new[new_at..] {
        return None;
    }
    // Rows and column of `to` in `bytes`, counted from `from` (a line start).
    let span = |bytes: &[u8], from: usize, to: usize| point(&bytes[from..to], to - from);
    let changed = spans
        .iter()
        .map(|&((os, oe), (_, ns, ne))| defs::Changed {
            old: (ns, ne),
            new: (os, oe),
        })
        .collect();
    let edits = spans
        .into_iter()
        .rev()
        .map(|((os, oe), (row, ns, ne))| {
            let new_end = span(new, ns, ne);
            let old_end = span(old, os, oe);
            tree_sitter::InputEdit {
                start_byte: ns,
                old_end_byte: ne,
                new_end_byte: ns + (oe - os),
                start_position: tree_sitter::Point { row, column: 0 },
                old_end_position: tree_sitter::Point {
                    row: row + new_end.row,
                    column: new_end.column,
                },
                new_end_position: tree_sitter::Point {
                    row: row + old_end.row,
                    column: old_end.column,
                },
            }
        })
        .collect();
    Some((edits, changed))
}

/// The row and column (bytes) of offset `at` in `bytes`.
fn point(bytes: &[u8], at: usize) -> tree_sitter::Point {
    let before = &bytes[..at];
    let row = before.iter().filter(|&&b| b == b'\n').count();
    let column = at
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
    tree_sitter::Point { row, column }
}

/// The edit that turns `old` into `new`: the bytes between their common prefix and
/// common suffix replaced.
fn edit_between(old: &[u8], new: &[u8]) -> tree_sitter::InputEdit {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let room = old.len().min(new.len()) - prefix;
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    tree_sitter::InputEdit {
        start_byte: prefix,
        old_end_byte: old.len() - suffix,
        new_end_byte: new.len() - suffix,
        start_position: point(old, prefix),
        old_end_position: point(old, old.len() - suffix),
        new_end_position: point(new, new.len() - suffix),
    }
}

/// The definitions of one version of a file, reparsed from `base` (a newer version of
/// the same file) when it is in the same language; with its tree, to reparse the next.
fn parse_version(
    parser: &mut tree_sitter::Parser,
    path: &str,
    bytes: Vec<u8>,
    base: Option<Held>,
    hunks: &[Hunk],
    max: u64,
) -> (Vec<Def>, Option<Held>) {
    if too_big(&bytes, max) {
        return (Vec::new(), None);
    }
    let FileLang::Code(l) = lang::detect(Path::new(path), &bytes) else {
        return (Vec::new(), None);
    };
    // A build's output copies definitions of sources the history reads on their own
    // (`dist/axios.js` of `lib/`): its versions hold none (as `index.include_generated`
    // is off by default).
    if crate::source::looks_binary(&bytes)
        || crate::source::is_generated_name(path)
        || crate::source::marked_generated(&bytes)
    {
        return (Vec::new(), None);
    }
    // A Vue or Svelte component: its code alone, at its offsets (as the working tree's
    // parse).
    let component = crate::syntax::embedded::is_component(path)
        .then(|| std::str::from_utf8(&bytes).ok())
        .flatten()
        .and_then(|t| crate::syntax::embedded::embedded_code(path, t));
    // A layout the grammar misreads, rewritten as the working tree's parse does.
    let component = component.or_else(|| {
        std::str::from_utf8(&bytes)
            .ok()
            .and_then(|t| crate::syntax::lang::text_for_grammar(l, t))
    });
    let bytes = component.map_or(bytes, String::into_bytes);
    // Reparsing maps bytes to bytes: text that is not UTF-8 is read lossily and parsed
    // whole, and keeps no tree.
    let Ok(text) = std::str::from_utf8(&bytes) else {
        let text = String::from_utf8_lossy(&bytes);
        return match defs::parse(parser, l, &text, false) {
            Some(parsed) => (defs_of(&parsed.symbols), None),
            None => (Vec::new(), None),
        };
    };
    let mut old = None;
    if let Some(mut b) = base.filter(|b| b.lang == l) {
        // Both texts' line starts, for the edits and the regions alike.
        let (ol, nl) = (line_starts(&bytes), line_starts(&b.bytes));
        let changed = match edits_from_hunks((&bytes, &ol), (&b.bytes, &nl), hunks) {
            Some((edits, changed)) => {
                if let Some(tree) = &mut b.tree {
                    edits.iter().for_each(|e| tree.edit(e));
                }
                // A Python version is read from its successor's definitions, parsing
                // only the regions its commit changed; its tree is the successor's,
                // edited to its text, for a later version that needs a reparse.
                let most = bytes.len() * regions_most_percent() / 100;
                if let Some((new_defs, new_tops)) = &b.regions
                    && let Some((defs, tops)) = regions::older(
                        (&b.bytes, &nl),
                        new_defs,
                        new_tops,
                        (&bytes, &ol),
                        hunks,
                        most,
                        |text| {
                            let (parsed, tree, _) = defs::reparse(parser, l, text, None)?;
                            (!parsed.has_errors)
                                .then(|| (defs_of(&parsed.symbols), regions::tops(&tree)))
                        },
                    )
                {
                    return (
                        defs.clone(),
                        Some(Held {
                            lang: l,
                            tree: b.tree,
                            bytes,
                            memo: defs::Memo::default(),
                            regions: Some((defs, tops)),
                        }),
                    );
                }
                changed
            }
            None => {
                let e = edit_between(&b.bytes, &bytes);
                if let Some(tree) = &mut b.tree {
                    tree.edit(&e);
                }
                vec![defs::Changed {
                    old: (e.start_byte, e.old_end_byte),
                    new: (e.start_byte, e.new_end_byte),
                }]
            }
        };
        // Without a tree, parsed from scratch.
        old = b.tree.map(|tree| (tree, b.memo, changed));
    }
    let old = old.as_ref().map(|(t, m, c)| (t, m, c.as_slice()));
    let Some((parsed, tree, memo)) = defs::reparse(parser, l, text, old) else {
        return (Vec::new(), None);
    };
    let defs = defs_of(&parsed.symbols);
    let regions = (l == lang::Lang::Python && !parsed.has_errors)
        .then(|| (defs.clone(), regions::tops(&tree)));
    (
        defs,
        Some(Held {
            lang: l,
            tree: Some(tree),
            bytes,
            memo,
            regions,
        }),
    )
}

/// A Python version is read through [`regions`] when the regions its commit changed
/// are at most this share of its bytes; otherwise it is reparsed whole. A reparse costs
/// about as much as parsing 80 % of the file's bytes alone: on pallets/werkzeug's 5,926
/// commits the history's parses took 9.5–10.3 CPU-s with 30 %, 7.8–9.4 with 50 %, 7.9
/// with 80 % and 8.5 with every version read through its regions (2026-11-29).
const REGIONS_MOST_PERCENT: usize = 80;

/// [`REGIONS_MOST_PERCENT`], but in a test of the reparse itself (which then reads its
/// Python texts through no regions).
fn regions_most_percent() -> usize {
    #[cfg(test)]
    if let Some(p) = tests::REGIONS_PERCENT.with(std::cell::Cell::get) {
        return p;
    }
    REGIONS_MOST_PERCENT
}

impl DefCache<'_> {
    /// Whether the definitions of `blob` are held, in the map or the one before it.
    fn has(&self, blob: &str) -> bool {
        self.map.contains_key(blob) || self.old.contains_key(blob)
    }

    /// Whether the definitions of `blob` are held (from the map before the last room
    /// made, they are taken into the map).
    fn holds(&mut self, blob: &str) -> bool {
        if self.map.contains_key(blob) {
            return true;
        }
        match self.old.get(blob) {
            Some(d) => {
                self.map.insert(blob.to_string(), d.clone());
                true
            }
            None => false,
        }
    }

    /// Reads the blobs of `wanted` (each patch's old and new side) that are not cached,
    /// in chains to parse (with [`DefCache::parse_chains`] or [`DefCache::start`]): the
    /// versions of one file in order, newest first, each reparsed from the one after it.
    /// (A batch too large to hold at once is parsed in parts as it is read; the last part
    /// is returned.)
    fn prefetch(
        &mut self,
        blobs: &mut Blobs,
        wanted: &[Wanted],
        parsing: &HashSet<String>,
        texts: &mut Texts,
    ) -> Result<Vec<Vec<Task>>> {
        // Made room for first, so nothing this batch needs is dropped after it is read.
        // The batch before it may still be written: what it needs stays in `old`.
        if self.map.len() + 2 * wanted.len() > DEF_CACHE_MAX {
            self.old = std::mem::take(&mut self.map);
        }
        let mut chains: Vec<Vec<Task>> = Vec::new();
        // The chain each blob of this batch is parsed in.
        let mut chain_of: HashMap<String, usize> = HashMap::new();
        let mut held = 0usize;
        // Each version once, the newer of a patch first: the older is reparsed from it.
        let mut seen: HashSet<&str> = HashSet::new();
        let mut todo = Vec::new();
        for &(old, new, hunks) in wanted {
            let no_hunks: &[Hunk] = &[];
            for (side, base, hunks) in [(new, None, no_hunks), (old, new.map(|(b, _)| b), hunks)] {
                if let Some((blob, path)) = side
                    && !parsing.contains(blob)
                    && !self.holds(blob)
                    && seen.insert(blob)
                {
                    todo.push((blob, path, base, hunks));
                }
            }
        }
        // Read from git a group at a time, so a huge batch is not all held at once.
        for (k, part) in todo.chunks(256).enumerate() {
            // Those the diffs read already are not read again.
            let ids: Vec<&str> = part
                .iter()
                .map(|t| t.0)
                .filter(|b| !texts.contains_key(*b))
                .collect();
            let mut fetched = blobs.get_many(&ids)?.into_iter();
            for (i, &(blob, path, base, hunks)) in part.iter().enumerate() {
                let bytes = match texts.remove(blob) {
                    Some(b) => b,
                    None => fetched.next().flatten().unwrap_or_default(),
                };
                if let Some(defs) = self.seed.and_then(|s| s.get(path, &bytes)) {
                    self.map.insert(blob.to_string(), defs);
                    self.seeded += 1;
                    continue;
                }
                held += bytes.len();
                let task = Task {
                    blob: blob.to_string(),
                    path: path.to_string(),
                    bytes,
                    base: base.map(str::to_string),
                    hunks: hunks.to_vec(),
                    order: k * 256 + i,
                };
                let k = match base.and_then(|b| chain_of.get(b)) {
                    Some(&k) => k,
                    None => {
                        chains.push(Vec::new());
                        chains.len() - 1
                    }
                };
                chain_of.insert(blob.to_string(), k);
                chains[k].push(task);
                // A batch with a huge commit (a vendored tree, a mass rename) is parsed
                // in parts, so the blobs held at once stay bounded. The batch before
                // is parsed first: a part's versions are reparsed from the trees it
                // keeps (on pallets/werkzeug, 355 versions of 5,926 commits were parsed
                // from scratch while they were with its parse).
                if held >= PREFETCH_BYTES {
                    self.settle()?;
                    self.parse_chains(std::mem::take(&mut chains));
                    chain_of.clear();
                    held = 0;
                }
            }
        }
        Ok(chains)
    }

    /// Parses chains of versions on rayon's pool into the cache, the chains of one file
    /// on one thread (see [`parse_file`]).
    fn parse_chains(&mut self, chains: Vec<Vec<Task>>) {
        let files = self.by_file(chains);
        let parsed = parse_files(files, std::mem::take(&mut self.trees), self.max_size);
        self.keep(parsed);
    }

    /// Starts parsing `chains` as [`DefCache::parse_chains`] does, on a thread of its own
    /// (which hands the work to rayon's pool), once the parse under way has ended: the
    /// caller writes the batch before while they are parsed, then takes them in with
    /// [`DefCache::settle`]. The kept trees go with the thread and come back with its
    /// result.
    fn start(&mut self, chains: Vec<Vec<Task>>) -> Result<()> {
        self.settle()?;
        let files = self.by_file(chains);
        let (trees, max) = (std::mem::take(&mut self.trees), self.max_size);
        self.in_flight = Some(std::thread::spawn(move || parse_files(files, trees, max)));
        Ok(())
    }

    /// Waits for the parse under way, if one is, and takes in what it parsed.
    fn settle(&mut self) -> Result<()> {
        let Some(parse) = self.in_flight.take() else {
            return Ok(());
        };
        let parsed = parse
            .join()
            .map_err(|_| anyhow::anyhow!("parsing the history's file versions stopped"))?;
        self.keep(parsed);
        Ok(())
    }

    /// The chains of each file, in the order they were made (the first holds the file's
    /// newest version of the batch), the file with the most to parse first. A chain's
    /// first version may be reparsed from a tree an earlier batch kept: it is taken out
    /// of the kept trees and handed with the chain.
    fn by_file(&mut self, chains: Vec<Vec<Task>>) -> Files {
        let mut files: Files = Vec::new();
        let mut file_of: HashMap<String, usize> = HashMap::new();
        for chain in chains {
            let Some(first) = chain.first() else {
                continue;
            };
            let start = first
                .base
                .as_ref()
                .and_then(|b| self.trees.take(b).map(|h| (b.clone(), h)));
            let k = *file_of.entry(first.path.clone()).or_insert_with(|| {
                files.push(Vec::new());
                files.len() - 1
            });
            files[k].push((chain, start));
        }
        // The longest first: one file's long run of versions is parsed in order on one
        // thread, and started last it would leave the other threads idle at the end.
        files.sort_by_cached_key(|chains| {
            std::cmp::Reverse(
                chains
                    .iter()
                    .flat_map(|(c, _)| c)
                    .map(|t| t.bytes.len())
                    .sum::<usize>(),
            )
        });
        files
    }

    /// Keeps what was parsed: the definitions by blob, and the trees for the next batch.
    fn keep(&mut self, (parsed, trees): Parsed) {
        self.trees = trees;
        for defs in parsed {
            for (blob, d) in defs {
                self.map.insert(blob, std::rc::Rc::new(d));
            }
        }
    }

    fn defs(&mut self, blobs: &mut Blobs, blob: &str, path: &str) -> Result<std::rc::Rc<Vec<Def>>> {
        if let Some(d) = self.map.get(blob).or_else(|| self.old.get(blob)) {
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
            (None, Some(bytes)) => std::rc::Rc::new(
                parse_version(&mut self.parser, path, bytes, None, &[], self.max_size).0,
            ),
            (None, None) => std::rc::Rc::new(Vec::new()),
        };
        // No room is made here: the next batch's definitions may be in the map already.
        // The next batch's prefetch makes room.
        self.map.insert(blob.to_string(), defs.clone());
        Ok(defs)
    }
}

/// The chains of a batch by file, each with the tree its first version may be reparsed
/// from ([`DefCache::by_file`]).
type Files = Vec<Vec<(Vec<Task>, Option<Kept>)>>;

/// What a batch's parse gives: each file's definitions by blob, and the trees kept.
type Parsed = (Vec<Vec<(String, Vec<Def>)>>, Trees);

/// Parses `files` on rayon's pool, one file's chains on one thread (see [`parse_file`]),
/// handing the trees worth keeping to `kept` as each file ends (so no more than its bound
/// is held at any time: a batch of thousands of files must not hold all their trees).
fn parse_files(files: Files, kept: Trees, max: u64) -> Parsed {
    use rayon::prelude::*;
    let kept = std::sync::Mutex::new(kept);
    let parsed: Vec<Vec<(String, Vec<Def>)>> = files
        .into_par_iter()
        .with_max_len(1)
        .map(|chains| {
            let file = PARSER.with(|p| parse_file(&mut p.borrow_mut(), chains, max));
            if let Ok(mut k) = kept.lock() {
                for (blob, h) in file.left {
                    // A file changed once is kept without its tree.
                    let h = if file.hot { Some(h) } else { h.light() };
                    if let Some(h) = h {
                        k.insert(blob, h);
                    }
                }
            }
            file.defs
        })
        .collect();
    (parsed, kept.into_inner().unwrap_or_default())
}

/// What [`parse_file`] returns.
struct FileParsed {
    /// The definitions of each version, by blob.
    defs: Vec<(String, Vec<Def>)>,
    /// The trees left at the chains' ends, by blob.
    left: HashMap<String, Held>,
    /// Whether they are worth keeping for the next batch with their trees (else only
    /// without, [`Held::light`]).
    hot: bool,
}

/// Parses the chains of versions of one file, each in order (an older version reparsed
/// from the tree of the newer one its patch joins it to); returns the definitions of each
/// version, the trees left at the chains' ends and whether they are worth keeping.
///
/// The first chain is the file's trunk. Another chain whose first version has no tree to
/// start from (the last version of a merged branch: no patch of the batch leads from it,
/// since git shows no diff for a merge) is reparsed from the trunk's version nearest to
/// it in history, through a line diff of the two texts, instead of from scratch.
fn parse_file(
    parser: &mut tree_sitter::Parser,
    chains: Vec<(Vec<Task>, Option<Kept>)>,
    max: u64,
) -> FileParsed {
    // Only a file changed often is worth a tree held for the next batch: one changed
    // by two commits of this batch, or reparsed from a kept tree. (A commit that touches
    // thousands of files once keeps none; of a Python file, the version without its tree.)
    let hot = chains.iter().any(|(chain, start)| {
        start.is_some() || chain.iter().filter(|t| t.base.is_some()).count() > 1
    });
    let mut trees: HashMap<String, Held> = HashMap::new();
    let mut out = Vec::new();
    let mut chains = chains.into_iter();
    let Some((trunk, start)) = chains.next() else {
        return FileParsed {
            defs: out,
            left: trees,
            hot,
        };
    };
    trees.extend(start);
    // The other chains: those with a tree to start from on their own, and those to fork
    // from the trunk version nearest in history.
    let mut forks: Vec<Vec<Vec<Task>>> = (0..trunk.len()).map(|_| Vec::new()).collect();
    for (chain, start) in chains {
        match (start, chain.first()) {
            (None, Some(first)) if !trunk.is_empty() => {
                let near = trunk
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, t)| t.order.abs_diff(first.order))
                    .map_or(0, |(j, _)| j);
                forks[near].push(chain);
            }
            (start, _) => {
                trees.extend(start);
                parse_chain(parser, chain, None, &mut trees, &mut out, max);
            }
        }
    }
    for (t, forks) in trunk.into_iter().zip(forks) {
        let blob = t.blob.clone();
        parse_chain(parser, vec![t], None, &mut trees, &mut out, max);
        for chain in forks {
            // A copy of the trunk version's tree: the trunk's next version is reparsed
            // from the tree itself.
            let donor = trees.get(&blob).map(|h| Held {
                lang: h.lang,
                tree: h.tree.clone(),
                bytes: h.bytes.clone(),
                memo: h.memo.clone(),
                regions: h.regions.clone(),
            });
            parse_chain(parser, chain, donor, &mut trees, &mut out, max);
        }
    }
    FileParsed {
        defs: out,
        left: trees,
        hot,
    }
}

/// Parses one chain in order, each version reparsed from the tree of the version after
/// it (taken from `trees`: only the oldest of a chain is left there); the first from
/// `donor` if given, through a line diff of their texts.
fn parse_chain(
    parser: &mut tree_sitter::Parser,
    chain: Vec<Task>,
    mut donor: Option<Held>,
    trees: &mut HashMap<String, Held>,
    out: &mut Vec<(String, Vec<Def>)>,
    max: u64,
) {
    for t in chain {
        let (base, hunks) = match donor.take() {
            Some(d) => {
                let hunks = line_hunks(&t.bytes, &d.bytes);
                (Some(d), hunks)
            }
            None => (t.base.as_ref().and_then(|b| trees.remove(b)), t.hunks),
        };
        let (defs, tree) = parse_version(parser, &t.path, t.bytes, base, &hunks, max);
        if let Some(h) = tree {
            trees.insert(t.blob.clone(), h);
        }
        out.push((t.blob, defs));
    }
}

/// The `-U0` hunks of a line diff from `old` to `new`, numbered as git numbers them.
fn line_hunks(old: &[u8], new: &[u8]) -> Vec<Hunk> {
    use imara_diff::{Algorithm, Diff, InternedInput, sources::byte_lines};
    let input = InternedInput::new(byte_lines(old), byte_lines(new));
    let diff = Diff::compute(Algorithm::Histogram, &input);
    diff.hunks().map(|h| numbered(&h, 0)).collect()
}

/// An imara-diff hunk as git numbers it, `skipped` lines down: a hunk starts at its
/// first line (from 1), or for no lines at the line after which the other side's lines
/// go.
fn numbered(h: &imara_diff::Hunk, skipped: u32) -> Hunk {
    let start =
        |r: &std::ops::Range<u32>| skipped + if r.is_empty() { r.start } else { r.start + 1 };
    Hunk {
        old_start: start(&h.before),
        old_len: h.before.len() as u32,
        new_start: start(&h.after),
        new_len: h.after.len() as u32,
    }
}

/// The `-U0` hunks between two versions of a file, numbered as git numbers them: Myers'
/// diff placed with the indent heuristic, as git's defaults, and each hunk that both
/// removes and adds diffed again on its own. Lines common to the start and the end are
/// set aside first, by their bytes. Where two diffs are equally good the hunks may differ
/// from git's by a line (1.4 % of the line counts of pallets/werkzeug's code files,
/// fewer or more lines as often; the definitions touched differ in 15 of 37,839).
pub(crate) fn code_hunks(old: &[u8], new: &[u8]) -> Vec<Hunk> {
    use imara_diff::sources::byte_lines;
    // Whole lines in common at the start, and at the end (kept apart from those at the
    // start), with a margin so that a hunk may still slide as git slides it.
    const MARGIN: usize = 8;
    let common = common_prefix(old, new);
    let mut head_lines: Vec<usize> = memchr::memchr_iter(b'\n', &old[..common])
        .map(|i| i + 1)
        .collect();
    head_lines.truncate(head_lines.len().saturating_sub(MARGIN));
    let head = head_lines.last().copied().unwrap_or(0);
    let (old_rest, new_rest) = (&old[head..], &new[head..]);
    let common_tail = common_suffix(old_rest, new_rest);
    // The lines of the common tail (the same bytes on both sides, so the same distance
    // from the end), the earliest first; its first byte starts one only if it starts a
    // line on both sides. The first `MARGIN` stay in the diff.
    let starts_line = |text: &[u8]| {
        let i = text.len() - common_tail;
        i == 0 || text[i - 1] == b'\n'
    };
    let tail_from = old_rest.len() - common_tail;
    let tail = (starts_line(old_rest) && starts_line(new_rest))
        .then_some(common_tail)
        .into_iter()
        .chain(
            memchr::memchr_iter(b'\n', &old_rest[tail_from..])
                .map(|i| common_tail - i - 1)
                .filter(|&d| d > 0),
        )
        .nth(MARGIN)
        .unwrap_or(0);
    let old_mid = &old_rest[..old_rest.len() - tail];
    let new_mid = &new_rest[..new_rest.len() - tail];
    let skipped = head_lines.len() as u32;
    // Each line's offset, and the text's end last.
    let offsets = |text: &[u8]| {
        let mut at: Vec<usize> = byte_lines(text)
            .map(|l| l.as_ptr() as usize - text.as_ptr() as usize)
            .collect();
        at.push(text.len());
        at
    };
    let (old_at, new_at) = (offsets(old_mid), offsets(new_mid));
    let span = |at: &[usize], r: &std::ops::Range<u32>| at[r.start as usize]..at[r.end as usize];
    let mut out = Vec::new();
    for h in lines_diff(old_mid, new_mid) {
        // A hunk that both removes and adds is diffed again on its own: Myers' diff
        // sets aside lines frequent in the whole file (blank ones) next to changed
        // ones, where git keeps some of them as unchanged.
        let parts = if h.before.is_empty() || h.after.is_empty() {
            vec![h]
        } else {
            let (b, a) = (h.before.clone(), h.after.clone());
            lines_diff(&old_mid[span(&old_at, &b)], &new_mid[span(&new_at, &a)])
                .into_iter()
                .map(|p| imara_diff::Hunk {
                    before: p.before.start + b.start..p.before.end + b.start,
                    after: p.after.start + a.start..p.after.end + a.start,
                })
                .collect()
        };
        out.extend(parts.iter().map(|h| numbered(h, skipped)));
    }
    out
}

/// How many bytes `a` and `b` have in common at their start.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    const CHUNK: usize = 64;
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + CHUNK <= n && a[i..i + CHUNK] == b[i..i + CHUNK] {
        i += CHUNK;
    }
    i + a[i..n]
        .iter()
        .zip(&b[i..n])
        .take_while(|(x, y)| x == y)
        .count()
}

/// How many bytes `a` and `b` have in common at their end.
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    const CHUNK: usize = 64;
    let n = a.len().min(b.len());
    let (a, b) = (&a[a.len() - n..], &b[b.len() - n..]);
    let mut i = 0;
    while i + CHUNK <= n && a[n - i - CHUNK..n - i] == b[n - i - CHUNK..n - i] {
        i += CHUNK;
    }
    i + a[..n - i]
        .iter()
        .rev()
        .zip(b[..n - i].iter().rev())
        .take_while(|(x, y)| x == y)
        .count()
}

/// The hunks of Myers' diff of two lists of lines, placed with git's indent heuristic.
fn lines_diff(old: &[u8], new: &[u8]) -> Vec<imara_diff::Hunk> {
    use imara_diff::{Algorithm, Diff, InternedInput, sources::byte_lines};
    let input = InternedInput::new(byte_lines(old), byte_lines(new));
    let mut diff = Diff::compute(Algorithm::Myers, &input);
    diff.postprocess_lines(&input);
    diff.hunks().collect()
}

fn too_big(bytes: &[u8], max: u64) -> bool {
    max > 0 && bytes.len() as u64 > max
}

/// The definitions of one version of a file (none for a language llmc does not parse).
pub fn definitions(parser: &mut tree_sitter::Parser, path: &str, bytes: &[u8]) -> Vec<Def> {
    parse_version(parser, path, bytes.to_vec(), None, &[], 0).0
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

/// File versions by blob id.
type Texts = HashMap<String, Vec<u8>>;

/// The versions [`diff_code_files`] hands on to the batch's parse, at most.
const TEXTS_HANDED_MAX: usize = 32 << 20;

/// Makes the hunks and line counts of the code files that the commits of `batch` changed
/// (git log shows them as binary, see [`git::Hunks::ButCode`]) from their two
/// versions, as git would print them ([`code_hunks`]); a file that is binary in either
/// version keeps no counts, as in git. Returns the versions read whose definitions the
/// batch's parse needs (`wanted`), up to a bound, so they are not read twice.
fn diff_code_files(
    batch: &mut [GitCommit],
    boundary: &HashSet<String>,
    blobs: &mut Blobs,
    wanted: impl Fn(&str) -> bool,
) -> Result<Texts> {
    // Each file git left without counts: its commit, its place, its two versions.
    let mut pairs: Vec<(usize, usize, Option<String>, Option<String>)> = Vec::new();
    for (ci, c) in batch.iter().enumerate() {
        if boundary.contains(c.hash.as_str()) {
            continue;
        }
        for (fi, f) in c.files.iter().enumerate() {
            let code = is_code_path(&f.path) || f.old_path.as_deref().is_some_and(is_code_path);
            if f.added.is_some() || !code || f.old_mode == "160000" || f.new_mode == "160000" {
                continue;
            }
            let side = |b: &str| (b != NULL_BLOB).then(|| b.to_string());
            pairs.push((ci, fi, side(&f.old_blob), side(&f.new_blob)));
        }
    }
    // The last pair that reads each version: it is let go after it.
    let mut last_use: HashMap<&str, usize> = HashMap::new();
    for (k, (_, _, old, new)) in pairs.iter().enumerate() {
        for b in [old, new].into_iter().flatten() {
            last_use.insert(b.as_str(), k);
        }
    }
    let mut live: Texts = HashMap::new();
    let mut handed: Texts = HashMap::new();
    let mut handed_bytes = 0usize;
    // Each file's patches (a type change has two, as git shows it: the old version
    // deleted and the new one added), or `None` for a binary file.
    let mut made: Vec<(usize, usize, Option<Vec<git::Patch>>)> = Vec::with_capacity(pairs.len());
    let mut at = 0;
    while at < pairs.len() {
        // A group of pairs with at most 256 versions to read.
        let mut ids: Vec<&str> = Vec::new();
        let mut end = at;
        while end < pairs.len() && ids.len() < 256 {
            let (_, _, old, new) = &pairs[end];
            for b in [new, old].into_iter().flatten() {
                if !live.contains_key(b.as_str()) && !ids.contains(&b.as_str()) {
                    ids.push(b);
                }
            }
            end += 1;
        }
        for (id, bytes) in ids.iter().zip(blobs.get_many(&ids)?) {
            // A lost version: the history is read as a partial clone's, as when git log
            // cannot diff a file.
            let Some(bytes) = bytes else {
                anyhow::bail!("{CODE_VERSION_MISSING} {id}");
            };
            live.insert(id.to_string(), bytes);
        }
        for (ci, fi, old, new) in &pairs[at..end] {
            let text = |b: &Option<String>| {
                b.as_ref()
                    .and_then(|b| live.get(b.as_str()))
                    .map_or(&[][..], Vec::as_slice)
            };
            let (old, new) = (text(old), text(new));
            let f = &batch[*ci].files[*fi];
            let patches = (!git_binary(old) && !git_binary(new)).then(|| {
                let old_path = Some(f.old_path.clone().unwrap_or_else(|| f.path.clone()));
                let new_path = Some(f.path.clone());
                let patch = |old_path, new_path, hunks| git::Patch {
                    old_path,
                    new_path,
                    hunks,
                };
                match f.status {
                    'A' => vec![patch(None, new_path, code_hunks(old, new))],
                    'D' => vec![patch(old_path, None, code_hunks(old, new))],
                    'T' => vec![
                        patch(old_path, None, code_hunks(old, b"")),
                        patch(None, new_path, code_hunks(b"", new)),
                    ],
                    _ => vec![patch(old_path, new_path, code_hunks(old, new))],
                }
            });
            made.push((*ci, *fi, patches));
        }
        for (k, (_, _, old, new)) in pairs.iter().enumerate().take(end).skip(at) {
            for b in [old, new].into_iter().flatten() {
                if last_use.get(b.as_str()) != Some(&k) {
                    continue;
                }
                let Some(bytes) = live.remove(b.as_str()) else {
                    continue;
                };
                if handed_bytes + bytes.len() <= TEXTS_HANDED_MAX && wanted(b) {
                    handed_bytes += bytes.len();
                    handed.insert(b.clone(), bytes);
                }
            }
        }
        at = end;
    }
    let mut touched: HashSet<usize> = HashSet::new();
    for (ci, fi, patches) in made {
        let Some(patches) = patches else {
            continue;
        };
        let c = &mut batch[ci];
        let hunks = || patches.iter().flat_map(|p| &p.hunks);
        c.files[fi].added = Some(hunks().map(|h| h.new_len).sum());
        c.files[fi].removed = Some(hunks().map(|h| h.old_len).sum());
        c.patches
            .extend(patches.into_iter().filter(|p| !p.hunks.is_empty()));
        touched.insert(ci);
    }
    // In the order git shows the files.
    for ci in touched {
        let c = &mut batch[ci];
        let place: HashMap<&str, usize> = c
            .files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.path.as_str(), i))
            .collect();
        c.patches.sort_by_key(|p| {
            p.new_path
                .as_deref()
                .or(p.old_path.as_deref())
                .and_then(|path| place.get(path).copied())
                .unwrap_or(usize::MAX)
        });
    }
    Ok(handed)
}

/// Whether git takes a text for binary: a zero byte in its first 8,000 bytes.
fn git_binary(bytes: &[u8]) -> bool {
    memchr::memchr(0, &bytes[..bytes.len().min(8000)]).is_some()
}

/// A blob id and the path it is parsed as.
type Side<'a> = Option<(&'a str, &'a str)>;

/// A patch's two sides and its hunks.
type Wanted<'a> = (Side<'a>, Side<'a>, &'a [Hunk]);

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

/// Commits read ahead of insertion, so their blobs are parsed in parallel and the
/// versions of a file within one batch are each reparsed from the next (across batches
/// only the trees of often-changed files are kept). In a run with a budget the first
/// batch is small, so a slice with a short budget (the first answer's) stays short; then
/// each is twice the last, up to the most. pallets/werkzeug's whole history (5,926
/// commits) took 6.95 s in batches of 1,024, 7.57 s in batches of 64: fewer versions
/// parsed from scratch.
const FIRST_BATCH: usize = 64;
const BATCH_MAX: usize = 1024;

const NULL_BLOB: &str = "0000000000000000000000000000000000000000";

fn insert_commit(
    conn: &Connection,
    id: i64,
    c: &GitCommit,
    boundary: bool,
    blobs: &mut Blobs,
    cache: &mut DefCache,
) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO commits (hash, parents, author, email, author_date, author_time, commit_time,
                              subject, body, boundary, id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
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
        boundary,
        id
    ])?;
    if boundary {
        return Ok(());
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        /// The share of [`regions_most_percent`] in this test, if not the product's.
        pub(super) static REGIONS_PERCENT: std::cell::Cell<Option<usize>> =
            const { std::cell::Cell::new(None) };
    }

    /// This test's Python versions are reparsed whole, never read through regions.
    fn reparse_only() {
        REGIONS_PERCENT.with(|p| p.set(Some(0)));
    }

    #[test]
    fn the_edit_between_two_versions_spans_what_differs() {
        let old = b"a\nbc\nd\n";
        let new = b"a\nbXYc\nd\n";
        let e = edit_between(old, new);
        assert_eq!((e.start_byte, e.old_end_byte, e.new_end_byte), (3, 3, 5));
        assert_eq!((e.start_position.row, e.start_position.column), (1, 1));
        assert_eq!((e.new_end_position.row, e.new_end_position.column), (1, 3));
        // Equal texts: an empty edit at the end.
        let e = edit_between(old, old);
        assert_eq!((e.start_byte, e.old_end_byte, e.new_end_byte), (7, 7, 7));
        // A shared byte is never counted in both the prefix and the suffix.
        let e = edit_between(b"aa", b"aaa");
        assert_eq!((e.start_byte, e.old_end_byte, e.new_end_byte), (2, 2, 3));
    }

    fn hunk(old_start: u32, old_len: u32, new_start: u32, new_len: u32) -> Hunk {
        Hunk {
            old_start,
            old_len,
            new_start,
            new_len,
        }
    }

    /// [`edits_from_hunks`] of two texts, with their line starts.
    fn edits_of(
        old: &[u8],
        new: &[u8],
        hunks: &[Hunk],
    ) -> Option<(Vec<tree_sitter::InputEdit>, Vec<defs::Changed>)> {
        edits_from_hunks((old, &line_starts(old)), (new, &line_starts(new)), hunks)
    }

    /// The edits made from a patch's hunks, applied in order to the newer text, give the
    /// older one back, with every position right in the text as it stands at that edit.
    #[test]
    fn edits_from_hunks_turn_the_newer_text_back_into_the_older() {
        let cases: &[(&str, &str, &[Hunk])] = &[
            // Two changes far apart, one of them growing.
            (
                "a\nb\nc\nd\ne\n",
                "a\nB\nc\nd\nE\nf\n",
                &[hunk(2, 1, 2, 1), hunk(5, 1, 5, 2)],
            ),
            // Lines inserted at the start, removed at the end.
            ("x\ny\n", "z\nx\ny\n", &[hunk(0, 0, 1, 1)]),
            ("x\ny\nz\n", "x\n", &[hunk(2, 2, 1, 0)]),
            // A last line without a newline, changed.
            ("x\ny", "x\nYy\n", &[hunk(2, 1, 2, 1)]),
            ("x\ny\n", "x\ny", &[hunk(2, 1, 2, 1)]),
            // From and to nothing.
            ("", "a\nb\n", &[hunk(0, 0, 1, 2)]),
            ("a\n", "", &[hunk(1, 1, 0, 0)]),
            // Equal texts (a change of mode).
            ("a\n", "a\n", &[]),
        ];
        for &(old, new, hunks) in cases {
            let (old, new) = (old.as_bytes(), new.as_bytes());
            let (edits, changed) = edits_of(old, new, hunks).expect("hunks fit");
            // The same changes in order, as byte ranges: between them the texts agree, and
            // the newer text with each range replaced by the older's is the older text.
            assert_eq!(changed.len(), hunks.len());
            let (mut rebuilt, mut at) = (Vec::new(), (0, 0));
            for c in &changed {
                assert_eq!(new[at.0..c.old.0], old[at.1..c.new.0], "{old:?}");
                rebuilt.extend_from_slice(&old[at.1..c.new.1]);
                at = (c.old.1, c.new.1);
            }
            rebuilt.extend_from_slice(&new[at.0..]);
            assert_eq!(rebuilt, old);
            let mut doc = new.to_vec();
            for e in &edits {
                assert_eq!(point(&doc, e.start_byte), e.start_position, "{old:?}");
                assert_eq!(point(&doc, e.old_end_byte), e.old_end_position, "{old:?}");
                // What follows the edit is the older text's end already.
                let tail = doc.len() - e.old_end_byte;
                let from = old.len() - tail - (e.new_end_byte - e.start_byte);
                let with = old[from..old.len() - tail].to_vec();
                doc.splice(e.start_byte..e.old_end_byte, with);
                assert_eq!(point(&doc, e.new_end_byte), e.new_end_position, "{old:?}");
            }
            assert_eq!(doc, old);
        }
        // Hunks of some other pair of texts are refused, not trusted.
        assert!(edits_of(b"a\nb\n", b"a\nc\n", &[]).is_none());
        assert!(edits_of(b"a\nb\nc\n", b"a\nb\nX\n", &[hunk(2, 1, 2, 1)]).is_none());
        assert!(edits_of(b"a\n", b"a\nb\n", &[hunk(7, 1, 7, 2)]).is_none());
    }

    /// A Python version kept without its tree still gives the version before it: through
    /// its regions, or else parsed from scratch; either way with a fresh parse's
    /// definitions.
    #[test]
    fn a_version_kept_without_its_tree_still_reads_the_one_before() {
        let new = "import os\n\n\ndef load(p):\n    return open(p).read()\n\n\nclass Box:\n    def size(self):\n        return 3\n\n    def name(self):\n        return 'b'\n";
        let mut parser = tree_sitter::Parser::new();
        let fresh =
            |text: &str| definitions(&mut tree_sitter::Parser::new(), "m.py", text.as_bytes());
        let (_, held) = parse_version(&mut parser, "m.py", new.as_bytes().to_vec(), None, &[], 0);
        let light = || {
            held.as_ref().map(|h| Held {
                lang: h.lang,
                tree: None,
                bytes: h.bytes.clone(),
                memo: defs::Memo::default(),
                regions: h.regions.clone(),
            })
        };
        // One method changed: its region is read, and the older version has no tree
        // either. A string opened over the functions cannot be read in regions: parsed
        // from scratch, with a tree again.
        let cases = [
            (new.replace("return 3", "x = 3\n        return x"), false),
            (format!("X = \"\"\"\n{new}\"\"\"\n"), true),
        ];
        for (old, with_tree) in cases {
            let hunks = line_hunks(old.as_bytes(), new.as_bytes());
            let bytes = old.clone().into_bytes();
            let (defs, older) = parse_version(&mut parser, "m.py", bytes, light(), &hunks, 0);
            assert_eq!(defs, fresh(&old));
            let older = older.expect("a version kept");
            assert_eq!(older.tree.is_some(), with_tree, "{old}");
            assert!(older.regions.is_some());
        }
    }

    /// Past their bound, the trees kept go oldest first; a Python version that can be
    /// read through its regions stays without its tree.
    #[test]
    fn versions_past_the_bound_are_kept_without_their_trees() {
        let held = |path: &str, text: &str| {
            let mut parser = tree_sitter::Parser::new();
            parse_version(&mut parser, path, text.as_bytes().to_vec(), None, &[], 0)
                .1
                .expect("parsed")
        };
        let mut trees = Trees::default();
        trees.insert("py".into(), held("m.py", "def f():\n    return 1\n"));
        trees.insert("js".into(), held("m.js", "function f() { return 1; }\n"));
        for i in 0..TREES_MAX {
            trees.insert(
                format!("b{i}"),
                held("n.py", &format!("def g{i}():\n    pass\n")),
            );
        }
        assert_eq!(trees.full.order.len(), TREES_MAX);
        assert!(trees.take("js").is_none());
        let py = trees.take("py").expect("kept without its tree");
        assert!(py.tree.is_none() && py.regions.is_some());
        assert!(
            trees
                .take(&format!("b{}", TREES_MAX - 1))
                .is_some_and(|h| h.tree.is_some())
        );
        assert_eq!(trees.light.bytes, 0);
    }

    /// A reparse through the edits of a patch's hunks gives the tree a parse from scratch
    /// gives.
    #[test]
    fn a_reparse_through_hunk_edits_gives_the_fresh_tree() {
        reparse_only();
        let new = "import os\n\n\ndef load(p):\n    return open(p).read()\n\n\nclass Box:\n    def size(self):\n        return 3\n\n    def name(self):\n        return 'b'\n";
        let old = "import os\nimport re\n\n\ndef load(p):\n    return open(p).read()\n\n\nclass Box:\n    def size(self):\n        return 2\n";
        let hunks = [hunk(2, 1, 1, 0), hunk(11, 1, 10, 4)];
        let mut parser = tree_sitter::Parser::new();
        let (_, held) = parse_version(&mut parser, "m.py", new.as_bytes().to_vec(), None, &[], 0);
        let (defs, held) = parse_version(
            &mut parser,
            "m.py",
            old.as_bytes().to_vec(),
            held,
            &hunks,
            0,
        );
        let fresh = parse_version(&mut parser, "m.py", old.as_bytes().to_vec(), None, &[], 0);
        let tree = |h: Option<Held>| h.and_then(|h| h.tree).map(|t| t.root_node().to_sexp());
        assert_eq!(tree(held), tree(fresh.1));
        let names: Vec<&str> = defs.iter().map(|d| d.qualname.as_str()).collect();
        assert_eq!(names, ["load", "Box", "Box.size"]);
        assert_eq!(defs[2].start_line, 10);
    }

    /// Each older version reparsed from the tree of the one after it has the definitions
    /// a parse from scratch finds: a chain of edits that adds, renames, nests and removes.
    #[test]
    fn a_version_reparsed_from_its_successor_has_the_same_definitions() {
        let versions: [&str; 5] = [
            "class Shelf:\n    def weight(self):\n        return 1\n\n\ndef total(xs):\n    return sum(xs)\n",
            "class Shelf:\n    def weight(self):\n        return 2\n\n    def label(self):\n        return 'x'\n\n\ndef total(xs):\n    return sum(xs)\n",
            "class Shelf:\n    def mass(self):\n        return 2\n\n\ndef total(xs):\n    def inner(x):\n        return x\n    return sum(map(inner, xs))\n",
            "def total(xs):\n    return sum(xs)\n",
            "",
        ];
        let mut parser = tree_sitter::Parser::new();
        let mut base: Option<Held> = None;
        for (i, v) in versions.iter().enumerate() {
            let (defs, held) =
                parse_version(&mut parser, "m.py", v.as_bytes().to_vec(), base, &[], 0);
            let fresh = definitions(&mut tree_sitter::Parser::new(), "m.py", v.as_bytes());
            let key = |d: &Vec<Def>| {
                d.iter()
                    .map(|d| (d.qualname.clone(), d.kind, d.start_line, d.end_line))
                    .collect::<Vec<_>>()
            };
            assert_eq!(key(&defs), key(&fresh), "version {i}");
            base = held;
        }
    }

    /// A function long enough for the walk to remember what it found inside it.
    fn long_def(name: &str, indent: &str) -> String {
        let body: String = (0..12)
            .map(|i| format!("{indent}    value_{i} = compute_{name}({i}, 'padding text')\n"))
            .collect();
        format!(
            "{indent}def {name}(x):\n{indent}    def {name}_inner(y):\n{indent}        return y\n{body}{indent}    return x\n"
        )
    }

    /// Each older version reparsed from the newer one's tree, through a line diff, has
    /// the definitions of a fresh parse, though the walk takes unchanged functions from
    /// the newer version's memo: a comment and a decorator put above a function, a
    /// function moved into a class, a string opened over functions, lines moved.
    #[test]
    fn definitions_taken_from_the_newer_walk_are_those_of_a_fresh_parse() {
        reparse_only();
        let (a, b, c) = (
            long_def("alpha", ""),
            long_def("beta", ""),
            long_def("gamma", ""),
        );
        let m = long_def("method", "    ");
        let versions = [
            format!("{a}\n{b}\n{c}\nclass Box:\n{m}"),
            // A comment above `beta`: its doc lines start earlier.
            format!("{a}\n# beta's note\n{b}\n{c}\nclass Box:\n{m}"),
            // `gamma` decorated, and `alpha`'s body changed.
            format!(
                "{}\n# beta's note\n{b}\n@cached\n{c}\nclass Box:\n{m}",
                a.replace("return x", "return -x")
            ),
            // `gamma` moved into the class: the same lines, other ancestors.
            format!("{a}\n{b}\nclass Box:\n{m}\n{}", long_def("gamma", "    ")),
            // A string opened before `alpha` and closed after `beta`.
            format!("X = \"\"\"\n{a}\n{b}\"\"\"\n{c}\nclass Box:\n{m}"),
            // The functions in another order.
            format!("{c}\n{a}\n{b}\nclass Box:\n{m}"),
        ];
        let mut parser = tree_sitter::Parser::new();
        let key = |d: &Vec<Def>| {
            let mut k: Vec<_> = d
                .iter()
                .map(|d| (d.qualname.clone(), d.kind, d.start_line, d.end_line))
                .collect();
            k.sort();
            k
        };
        let mut taken = 0;
        let mut newer: Option<Held> = None;
        for (i, v) in versions.iter().enumerate() {
            let hunks = newer
                .as_ref()
                .map(|n| line_hunks(v.as_bytes(), &n.bytes))
                .unwrap_or_default();
            let (defs, held) =
                parse_version(&mut parser, "m.py", v.as_bytes().to_vec(), newer, &hunks, 0);
            let fresh = definitions(&mut tree_sitter::Parser::new(), "m.py", v.as_bytes());
            assert_eq!(key(&defs), key(&fresh), "version {i}");
            let held = held.expect("a tree");
            taken += held.memo.taken();
            newer = Some(held);
        }
        // The memo was used: the test compares something.
        assert!(taken >= 5, "{taken} nodes taken");
    }

    /// A line diff between two texts gives hunks whose edits turn one into the other.
    #[test]
    fn line_hunks_describe_the_two_texts() {
        let old = b"a\nb\nc\nd\ne\nf";
        let new = b"a\nB\nc\nd\nx\ny\ne\n";
        let hunks = line_hunks(old, new);
        assert_eq!(hunks.len(), 3);
        let (edits, _) = edits_of(old, new, &hunks).expect("hunks fit");
        assert_eq!(edits.len(), 3);
        assert!(line_hunks(old, old).is_empty());
        assert_eq!(line_hunks(b"", b"a\n").len(), 1);
    }

    /// Setting aside the lines two versions share at their start and end changes no
    /// hunk: each edit of a long file gives the hunks of a diff of the whole texts.
    #[test]
    fn code_hunks_set_aside_common_lines_without_moving_a_hunk() {
        let lines: Vec<String> = (0..60).map(|i| format!("line {i}\n")).collect();
        let text = |ls: &[String]| ls.concat().into_bytes();
        let whole = |old: &[u8], new: &[u8]| -> Vec<Hunk> {
            lines_diff(old, new)
                .iter()
                .map(|h| numbered(h, 0))
                .collect()
        };
        let old = text(&lines);
        let mut edits: Vec<Vec<u8>> = Vec::new();
        for at in [0, 1, 9, 30, 51, 59] {
            let mut changed = lines.clone();
            changed[at] = "changed\n".into();
            edits.push(text(&changed));
            let mut inserted = lines.clone();
            inserted.insert(at, "new\n".into());
            edits.push(text(&inserted));
            let mut removed = lines.clone();
            removed.remove(at);
            edits.push(text(&removed));
        }
        // The last line's newline dropped, a line added after it, everything removed.
        edits.push(old[..old.len() - 1].to_vec());
        edits.push([old.as_slice(), b"tail\n"].concat());
        edits.push(Vec::new());
        for new in &edits {
            let h = code_hunks(&old, new);
            assert_eq!(h, whole(&old, new), "{}", String::from_utf8_lossy(new));
            assert_eq!(code_hunks(new, &old), whole(new, &old));
            assert!(!h.is_empty());
        }
        assert!(code_hunks(&old, &old).is_empty());
    }

    fn task(blob: &str, text: &str, base: Option<&str>, hunks: &[Hunk], order: usize) -> Task {
        Task {
            blob: blob.to_string(),
            path: "m.py".to_string(),
            bytes: text.as_bytes().to_vec(),
            base: base.map(str::to_string),
            hunks: hunks.to_vec(),
            order,
        }
    }

    /// A chain of a file that no patch joins to the trunk (a merged branch's last
    /// version) is reparsed from the trunk's nearest version: each version's definitions
    /// are those of a fresh parse.
    #[test]
    fn a_branch_version_is_reparsed_from_the_trunk_version_nearest_it() {
        reparse_only();
        let (a, b) = (long_def("alpha", ""), long_def("beta", ""));
        let trunk_new = format!("{a}\n{b}");
        let trunk_old = a.clone();
        let branch = format!("{a}\n{}", long_def("beta_on_a_branch", ""));
        let branch_old = format!("{a}\n{}", long_def("beta_draft", ""));
        let trunk_hunks = line_hunks(trunk_old.as_bytes(), trunk_new.as_bytes());
        let branch_hunks = line_hunks(branch_old.as_bytes(), branch.as_bytes());
        let chains = vec![
            (
                vec![
                    task("t1", &trunk_new, None, &[], 0),
                    task("t0", &trunk_old, Some("t1"), &trunk_hunks, 3),
                ],
                None,
            ),
            (
                vec![
                    task("b1", &branch, None, &[], 1),
                    task("b0", &branch_old, Some("b1"), &branch_hunks, 2),
                ],
                None,
            ),
        ];
        let mut parser = tree_sitter::Parser::new();
        let FileParsed {
            defs: out,
            left: trees,
            hot,
        } = parse_file(&mut parser, chains, 0);
        assert_eq!(out.len(), 4);
        let names = |d: &Vec<Def>| {
            d.iter()
                .map(|d| (d.qualname.clone(), d.start_line, d.end_line))
                .collect::<Vec<_>>()
        };
        for (blob, text) in [
            ("t1", &trunk_new),
            ("t0", &trunk_old),
            ("b1", &branch),
            ("b0", &branch_old),
        ] {
            let defs = &out.iter().find(|(b, _)| b == blob).expect("parsed").1;
            let fresh = definitions(&mut tree_sitter::Parser::new(), "m.py", text.as_bytes());
            assert_eq!(names(defs), names(&fresh), "{blob}");
        }
        // The branch's last version was reparsed from the trunk's tree: the memo of the
        // trunk's walk gave it `alpha`.
        assert!(trees.get("b0").is_some_and(|h| h.memo.taken() > 0));
        // The oldest of each chain is left; no chain holds two patches, so they are not
        // worth keeping for the next batch.
        let mut left: Vec<&String> = trees.keys().collect();
        left.sort();
        assert_eq!(left, ["b0", "t0"]);
        assert!(!hot);
    }
}

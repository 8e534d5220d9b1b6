//! "Make the index fresh, then ask": what `llmc ask` and `llmc eval` do before they read.
//! No index: build one. Files changed since the index: re-index them (unless told not
//! to, or the index is not this user's to write) — and for a question, check freshness
//! on a thread of its own beside the first ask, asking again only when files changed.
//!
//! Nothing here prints: what the caller should tell the user comes through
//! [`Fresh::say`] at the moment it happens (so a note precedes the index run's progress),
//! and the progress display of an index run comes from [`Fresh::progress`].

use std::path::Path;
use std::sync::OnceLock;

use anyhow::Result;

use super::{AskRequest, Freshness, Outcome, ask};
use crate::config::Config;
use crate::error::LlmcError;
use crate::index::{self, IndexOptions};
use crate::progress::Progress;
use crate::store::Store;

/// Something to tell the user on the way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    Note(String),
    Warn(String),
}

/// How the index may be brought up to date, and how to report it.
pub struct Fresh<'a> {
    /// Re-index changed files (else only warn that the index is stale).
    pub refresh: bool,
    /// Makes the progress display of an index run, when one runs.
    pub progress: &'a dyn Fn() -> Box<dyn Progress + 'a>,
    /// Receives what to tell the user, as it happens.
    pub say: &'a dyn Fn(Notice),
}

/// Asks `req` of an index brought up to date first (built when there is none); the
/// outcome's freshness says what was done.
pub fn ask_fresh(root: &Path, config: &Config, req: &AskRequest, fresh: &Fresh) -> Result<Outcome> {
    // An index an older llmc wrote is built again, as a missing one is.
    let (mut outcome, freshness) = if Store::exists(root) && Store::older_format(root).is_none() {
        // The freshness check stats every indexed file. It runs beside the question and
        // the question is asked again in the rare case that files changed and were
        // re-indexed.
        let prepare = || {
            let store = Store::open_existing(root)?;
            Ok((
                index::FreshnessCheck::prepare(root, &store, config)?,
                indexed_at(&store),
            ))
        };
        let (first, check) = beside(&prepare, &|| ask(root, config, req));
        let (stale, at) = check?;
        let freshness = bring_up_to_date(root, config, fresh, Some(at), stale)?;
        let outcome = if freshness.refreshed_files > 0 {
            ask(root, config, req)?
        } else {
            first?
        };
        (outcome, freshness)
    } else {
        let freshness = bring_up_to_date(root, config, fresh, None, true)?;
        (ask(root, config, req)?, freshness)
    };
    outcome.freshness = Freshness {
        generation: outcome.freshness.generation,
        ..freshness
    };
    Ok(outcome)
}

/// A freshness check made by `prepare` (which also says when the index was written),
/// run on a thread of its own beside `read`: `read`'s thread joins the check's stats once
/// it has its result. Returns `read`'s result and the check's: whether files changed.
pub(crate) fn beside<T: Send>(
    prepare: &(dyn Fn() -> Result<(index::FreshnessCheck, Option<jiff::Timestamp>)> + Sync),
    read: &(dyn Fn() -> Result<T> + Sync),
) -> (Result<T>, Result<(bool, Option<jiff::Timestamp>)>) {
    let slot: OnceLock<index::FreshnessCheck> = OnceLock::new();
    let reader = std::thread::current();
    std::thread::scope(|s| {
        let check = s.spawn(|| -> Result<Option<jiff::Timestamp>> {
            let prepared = prepare().map(|(check, at)| (slot.get_or_init(|| check), at));
            // Prepared or failed: either way the reading thread need wait no more.
            reader.unpark();
            let (check, at) = prepared?;
            check.help();
            Ok(at)
        });
        let first = read();
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
    })
}

/// Builds the index when there is none; re-indexes changed files unless told not to.
/// `llmc eval` calls it once before its questions.
pub fn ensure_index(root: &Path, config: &Config, fresh: &Fresh) -> Result<Freshness> {
    let store = match Store::open_existing(root) {
        Ok(s) => Some(s),
        Err(e)
            if Store::older_format(root).is_some()
                || e.chain().any(|c| {
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
            index::looks_stale(root, s, config, cores())?,
            Some(indexed_at(s)),
        ),
    };
    bring_up_to_date(root, config, fresh, at, stale)
}

/// The cores to share a freshness check between when nothing else runs beside it.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
}

/// When the index was last written.
pub(crate) fn indexed_at(store: &Store) -> Option<jiff::Timestamp> {
    store.indexed_at().ok().flatten()
}

/// Indexes when there is no index (`existing` is `None`) or it is `stale` (and
/// `fresh.refresh`), saying so; `existing` holds when the index was written.
pub(crate) fn bring_up_to_date(
    root: &Path,
    config: &Config,
    fresh: &Fresh,
    existing: Option<Option<jiff::Timestamp>>,
    stale: bool,
) -> Result<Freshness> {
    let Some(at) = existing else {
        if Store::older_format(root).is_none() {
            (fresh.say)(Notice::Note(format!(
                "no index yet: indexing {} first",
                root.display()
            )));
        }
        return reindex(root, config, fresh, true);
    };
    if !stale {
        return Ok(Freshness::written_at(at));
    }
    if !fresh.refresh || !crate::store::writable(root) {
        (fresh.say)(Notice::Warn(if fresh.refresh {
            "files changed since the index, which this user cannot write".into()
        } else {
            "files changed since the index; answering from it as it is (--no-refresh)".into()
        }));
        return Ok(Freshness {
            stale: true,
            ..Freshness::written_at(at)
        });
    }
    reindex(root, config, fresh, false)
}

/// How long an index run made for a question may spend on history after the code is
/// committed; what is left is read later (`llmc index --history-only`, which the caller
/// starts in the background).
pub const ASK_HISTORY_BUDGET: std::time::Duration = std::time::Duration::from_millis(300);

/// Runs an index (the `first` one, or a refresh) and says what it did.
fn reindex(root: &Path, config: &Config, fresh: &Fresh, first: bool) -> Result<Freshness> {
    let progress = (fresh.progress)();
    let opts = IndexOptions {
        rebuild: false,
        history_budget: Some(ASK_HISTORY_BUDGET),
        ..IndexOptions::default()
    };
    let stats = index::run_with(root, config, &opts, &*progress)?;
    if let Err(e) = crate::root::exclude_store(root) {
        (fresh.say)(Notice::Warn(format!(
            "could not add .llmc/ to .git/info/exclude: {e:#}"
        )));
    }
    let refreshed = stats.parsed + stats.deleted;
    if first {
        (fresh.say)(Notice::Note(stats.summary()));
    } else if let Some(reason) = stats.search.as_ref().and_then(|s| s.rebuilt.as_deref()) {
        (fresh.say)(Notice::Note(format!(
            "re-indexed all {refreshed} file(s) first ({:.2} s): {reason}",
            stats.seconds
        )));
    } else if refreshed > 0 {
        (fresh.say)(Notice::Note(format!(
            "re-indexed {refreshed} changed file(s) first ({:.2} s)",
            stats.seconds
        )));
    }
    Ok(Freshness {
        refreshed_files: refreshed,
        built: first,
        ..Freshness::written_at(indexed_at(&Store::open_existing(root)?))
    })
}

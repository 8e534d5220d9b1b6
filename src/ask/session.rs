//! A long-running reader of one repository (`llmc mcp`): the store and the search
//! indexes stay open between reads ([`Kept`]), and every read is made on an index brought
//! up to date first, as `llmc ask` does ([`super::fresh`]): changed files are re-indexed
//! before the answer, which says so. Reads may run at once from several threads; an index
//! run by another process is seen by the next read (its generation is pinned afresh).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use anyhow::Result;

use super::fresh::{Fresh, beside, bring_up_to_date, indexed_at};
use super::{AskRequest, Freshness, Outcome, ask_with};
use crate::config::Config;
use crate::index::watch::Watch;
use crate::index::{FreshnessCheck, Known};
use crate::search::{Indexes, Kept};
use crate::store::{Reader, Store};

/// One repository, read again and again.
pub struct Session {
    root: PathBuf,
    config: Config,
    kept: Kept,
    /// The stored files of the last index run, for the freshness check, and the kernel's
    /// watch over their directories.
    known: Mutex<Watched>,
    /// Held while this process brings the index up to date; the freshness this process
    /// last gave a generation it re-indexed.
    refreshing: Mutex<Option<(u64, Freshness)>>,
}

/// The stored files a check compares with, and what the kernel saw change since the last
/// check.
struct Watched {
    known: Option<Arc<Known>>,
    watch: Watch,
    /// Counts the times the watch reported a change.
    seen: u64,
    /// The count when the last check that found nothing began: equal to `seen` while
    /// nothing changed since.
    clean: u64,
}

/// A lock that a panicking holder left poisoned is still the lock.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Session {
    pub fn new(root: &Path, config: Config) -> Session {
        Session {
            root: root.to_path_buf(),
            kept: Kept::new(root),
            config,
            known: Mutex::new(Watched {
                known: None,
                watch: Watch::new(root),
                seen: 0,
                clean: 0,
            }),
            refreshing: Mutex::new(None),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The store at the newest generation, with the search indexes kept open.
    pub fn indexes(&self) -> Result<Indexes> {
        self.kept.open()
    }

    /// The store at the newest generation.
    pub fn store(&self) -> Result<Reader> {
        self.kept.store()
    }

    /// What the kept handles are (for tests): stores waiting in the pool.
    pub fn idle_stores(&self) -> usize {
        self.kept.idle_stores()
    }

    /// The stored files to check, read again only after an index run (the watch then
    /// follows their directories).
    fn known(&self, store: &Store) -> Result<Arc<Known>> {
        let mut slot = lock(&self.known);
        Self::known_in(&mut slot, &self.root, &self.config, store)
    }

    fn known_in(
        slot: &mut Watched,
        root: &Path,
        config: &Config,
        store: &Store,
    ) -> Result<Arc<Known>> {
        if let Some(k) = slot.known.as_ref()
            && k.current(store)?
        {
            return Ok(Arc::clone(k));
        }
        let k = Arc::new(Known::read(root, store, config)?);
        slot.watch.follow(&k);
        slot.known = Some(Arc::clone(&k));
        Ok(k)
    }

    /// Whether the tree is as the last check left it, by the kernel's watch alone: the
    /// index is the one last checked, and nothing under a watched directory changed since
    /// a check that found nothing. False when unsure (no watch, a new index run, a change,
    /// a check still running): then the files are checked. Also returns the count a check
    /// starting now covers, for [`Session::checked`].
    fn unchanged(&self, store: &Store) -> Result<(bool, u64)> {
        let mut slot = lock(&self.known);
        let current = match slot.known.as_ref() {
            Some(k) => k.current(store)?,
            None => false,
        };
        if !current {
            Self::known_in(&mut slot, &self.root, &self.config, store)?;
        }
        if slot.watch.changed() {
            slot.seen += 1;
        }
        Ok((current && slot.clean == slot.seen, slot.seen))
    }

    /// A check that began at count `seen` found nothing changed.
    fn checked(&self, seen: u64) {
        let mut slot = lock(&self.known);
        slot.clean = slot.clean.max(seen);
    }

    /// Whether the kernel watches the tree for this session (false: every read stats the
    /// indexed files).
    pub fn watching(&self) -> bool {
        lock(&self.known).watch.active()
    }

    /// Runs `read` on an index brought up to date first: built when there is none; when
    /// files changed, re-indexed and read again. The freshness says what was done.
    pub fn fresh<T: Send>(
        &self,
        fresh: &Fresh,
        read: &(dyn Fn() -> Result<T> + Sync),
    ) -> Result<(T, Freshness)> {
        let root = self.root.as_path();
        // No index, or one an older llmc wrote: built (again) before the read.
        let missing = || !Store::exists(root) || Store::older_format(root).is_some();
        if missing() {
            let freshness = {
                let _one = lock(&self.refreshing);
                if !missing() {
                    Freshness::written_at(indexed_at(&*self.store()?))
                } else {
                    bring_up_to_date(root, &self.config, fresh, None, true)?
                }
            };
            return self.with_generation(read()?, freshness);
        }
        let seen = {
            let store = self.store()?;
            let (unchanged, seen) = self.unchanged(&store)?;
            if unchanged {
                let at = indexed_at(&store);
                drop(store);
                return self.with_generation(read()?, Freshness::written_at(at));
            }
            seen
        };
        let prepare = || {
            let store = self.store()?;
            let known = self.known(&store)?;
            Ok((FreshnessCheck::with_known(root, known), indexed_at(&store)))
        };
        let (first, check) = beside(&prepare, read);
        let (stale, at) = check?;
        if !stale {
            self.checked(seen);
            return self.with_generation(first?, Freshness::written_at(at));
        }
        let freshness = {
            let mut last = lock(&self.refreshing);
            // Another read may have re-indexed while this one waited.
            let store = self.store()?;
            let check = FreshnessCheck::with_known(root, self.known(&store)?);
            check.help();
            if check.stale() {
                let f =
                    bring_up_to_date(root, &self.config, fresh, Some(indexed_at(&store)), true)?;
                drop(store);
                *last = Some((self.store()?.generation()?, f.clone()));
                f
            } else {
                match last.as_ref() {
                    Some((g, f)) if *g == store.generation()? => f.clone(),
                    _ => Freshness::written_at(indexed_at(&store)),
                }
            }
        };
        self.with_generation(read()?, freshness)
    }

    fn with_generation<T>(&self, t: T, freshness: Freshness) -> Result<(T, Freshness)> {
        let generation = self.store()?.generation()?;
        Ok((
            t,
            Freshness {
                generation,
                ..freshness
            },
        ))
    }

    /// Asks `req` as `llmc ask` does, from the handles kept open.
    pub fn ask(&self, req: &AskRequest, fresh: &Fresh) -> Result<Outcome> {
        let (mut outcome, freshness) = self.fresh(fresh, &|| {
            ask_with(&self.root, &self.config, req, &|| self.kept.open())
        })?;
        outcome.freshness = Freshness {
            generation: outcome.freshness.generation,
            ..freshness
        };
        Ok(outcome)
    }
}

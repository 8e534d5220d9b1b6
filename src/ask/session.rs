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
use crate::index::{FreshnessCheck, Known};
use crate::search::{Indexes, Kept};
use crate::store::{Reader, Store};

/// One repository, read again and again.
pub struct Session {
    root: PathBuf,
    config: Config,
    kept: Kept,
    /// The stored files of the last index run, for the freshness check.
    known: Mutex<Option<Arc<Known>>>,
    /// Held while this process brings the index up to date; the freshness this process
    /// last gave a generation it re-indexed.
    refreshing: Mutex<Option<(u64, Freshness)>>,
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
            known: Mutex::new(None),
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

    /// The stored files to check, read again only after an index run.
    fn known(&self, store: &Store) -> Result<Arc<Known>> {
        let mut slot = lock(&self.known);
        if let Some(k) = slot.as_ref()
            && k.current(store)?
        {
            return Ok(Arc::clone(k));
        }
        let k = Arc::new(Known::read(&self.root, store)?);
        *slot = Some(Arc::clone(&k));
        Ok(k)
    }

    /// Runs `read` on an index brought up to date first: built when there is none; when
    /// files changed, re-indexed and read again. The freshness says what was done.
    pub fn fresh<T: Send>(
        &self,
        fresh: &Fresh,
        read: &(dyn Fn() -> Result<T> + Sync),
    ) -> Result<(T, Freshness)> {
        let root = self.root.as_path();
        if !Store::exists(root) {
            let freshness = {
                let _one = lock(&self.refreshing);
                if Store::exists(root) {
                    Freshness::written_at(indexed_at(&*self.store()?))
                } else {
                    bring_up_to_date(root, &self.config, fresh, None, true)?
                }
            };
            return self.with_generation(read()?, freshness);
        }
        let prepare = || {
            let store = self.store()?;
            let known = self.known(&store)?;
            Ok((FreshnessCheck::with_known(root, known), indexed_at(&store)))
        };
        let (first, check) = beside(&prepare, read);
        let (stale, at) = check?;
        if !stale {
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

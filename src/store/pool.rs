//! Stores kept open between reads by a long-running process (`llmc mcp`): a read takes an
//! open connection from the pool, pinned afresh to the newest generation, and gives it
//! back when it is done, holding no snapshot while it waits. A store rebuilt meanwhile
//! (`llmc index --rebuild` replaces the database file) is noticed and opened anew.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::Result;

use super::{DB_FILE, Store, store_dir};

/// Open stores of one repository, waiting between reads.
pub struct Pool {
    root: PathBuf,
    idle: Mutex<Vec<Store>>,
}

/// A store for one read: returned to its pool (if it came from one) when dropped.
pub struct Reader {
    store: Option<Store>,
    pool: Option<Arc<Pool>>,
}

impl Pool {
    pub fn new(root: &Path) -> Arc<Pool> {
        Arc::new(Pool {
            root: root.to_path_buf(),
            idle: Mutex::new(Vec::new()),
        })
    }

    /// A store pinned to the newest committed generation: one that waited in the pool
    /// when there is one for the same database file, else a new one.
    pub fn get(self: &Arc<Self>) -> Result<Reader> {
        let current = db_identity(&self.root);
        loop {
            let idle = self.idle.lock().map(|mut v| v.pop()).unwrap_or(None);
            let Some(store) = idle else { break };
            if store.identity != current || store.repin().is_err() {
                continue; // rebuilt, or broken: dropped
            }
            return Ok(Reader {
                store: Some(store),
                pool: Some(Arc::clone(self)),
            });
        }
        Ok(Reader {
            store: Some(Store::open_existing(&self.root)?),
            pool: Some(Arc::clone(self)),
        })
    }

    /// How many stores wait in the pool.
    pub fn idle(&self) -> usize {
        self.idle.lock().map_or(0, |v| v.len())
    }
}

impl Reader {
    /// A store of its own, closed when dropped.
    pub fn own(store: Store) -> Reader {
        Reader {
            store: Some(store),
            pool: None,
        }
    }
}

impl std::ops::Deref for Reader {
    type Target = Store;

    fn deref(&self) -> &Store {
        self.store
            .as_ref()
            .expect("a reader holds its store until it is dropped")
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        let (Some(store), Some(pool)) = (self.store.take(), self.pool.take()) else {
            return;
        };
        // A read-only store opened as immutable would never see a new generation; one
        // that cannot end its snapshot is not worth keeping.
        if store.read_only || store.release().is_err() {
            return;
        }
        if let Ok(mut idle) = pool.idle.lock() {
            idle.push(store);
        }
    }
}

/// The database file's identity (device and inode): a rebuilt store is another file.
#[cfg(unix)]
pub(super) fn db_identity(root: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt as _;
    let m = std::fs::metadata(store_dir(root).join(DB_FILE)).ok()?;
    Some((m.dev(), m.ino()))
}

/// Elsewhere an open database file cannot be replaced: every open store is current.
#[cfg(not(unix))]
pub(super) fn db_identity(_root: &Path) -> Option<(u64, u64)> {
    None
}

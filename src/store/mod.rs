//! The SQLite store under `.llmc/`: schema, format version, generations, and every query
//! the rest of llmc runs against it. One write transaction per index run, so a reader
//! always sees the last complete generation (WAL mode).

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};

use crate::error::LlmcError;
use crate::model::{ChunkLoc, ImportKind};

pub mod counts;
pub mod lookups;
pub mod meta;
mod pool;
mod schema;
mod values;
mod writer;

pub use pool::{Pool, Reader};
use schema::{SCHEMA_INDEXES, SCHEMA_TABLES};
pub use writer::{Inserted, Writer, insert_calls};

/// Bumped whenever the schema changes; a store with another version must be rebuilt.
pub const SCHEMA_VERSION: i32 = 7;

const DB_FILE: &str = "index.db";
const FRESH_FILE: &str = "index.db.new";
const LOCK_FILE: &str = "lock";
/// SQLite's page cache per connection, in KiB: enough to keep the B-tree pages a large
/// write touches most, small enough that an index run stays within its memory budget
/// (pages beyond it go to the file, which the OS caches).
const CACHE_KIB: i64 = 32 * 1024;

/// How much of the store's file a connection maps into memory.
const MMAP_BYTES: i64 = 256 * 1024 * 1024;

/// Flags on a file row: re-exported from [`crate::model::flags`], where the rows are made.
pub use crate::model::flags;

/// A path as a SQLite URI path (`?` and `#` would end it; `%` starts an escape).
fn uri_path(p: &Path) -> String {
    p.to_string_lossy()
        .replace('%', "%25")
        .replace('?', "%3f")
        .replace('#', "%23")
}

/// The directory holding the store for `root`.
pub fn store_dir(root: &Path) -> PathBuf {
    root.join(".llmc")
}

/// Creates `dir` (and its parents) readable by this user only: `.llmc/` holds the
/// repository's code in other forms, whatever the source files' own modes. An existing
/// directory is narrowed to 0700 too.
pub fn create_private_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(dir).map(|m| m.permissions().mode() & 0o777);
        if mode.is_ok_and(|m| m != 0o700) {
            // A directory owned by someone else (a read-only index) stays as it is.
            let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
        }
    }
    Ok(())
}

/// Narrows a file llmc wrote to 0600 (SQLite and tantivy create theirs with the umask's
/// mode; the directory above is 0700 either way).
pub fn make_private(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        if std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o077 != 0) {
            let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600));
        }
    }
}

/// Writes `bytes` to `path` atomically: a temporary file of a unique name (mode 0600)
/// beside it, renamed into place. Two processes writing the same path never share a
/// temporary file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write as _;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-")
        .tempfile_in(dir)
        .with_context(|| format!("writing {}", path.display()))?;
    tmp.write_all(bytes)
        .and_then(|()| tmp.as_file().sync_all())
        .with_context(|| format!("writing {}", path.display()))?;
    tmp.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// What the store remembers of a file, to decide whether to parse it again.
#[derive(Debug, Clone)]
pub struct FileState {
    pub id: i64,
    pub size: u64,
    pub mtime_ns: i64,
    pub hash: String,
}

/// A file row to insert.
#[derive(Debug, Clone)]
pub struct FileRow<'a> {
    pub path: &'a str,
    pub lang: &'a str,
    pub size: u64,
    pub mtime_ns: i64,
    pub hash: &'a str,
    pub lines: u32,
    pub flags: i64,
}

/// An open store.
pub struct Store {
    conn: Connection,
    dir: PathBuf,
    /// Built under a temporary name, not yet published.
    fresh: bool,
    /// Opened read-only: the index directory is not writable by this user.
    read_only: bool,
    /// The database file this handle opened ([`pool::db_identity`]).
    identity: Option<(u64, u64)>,
}

/// Set once a store was opened read-only in this process, so the command can say so
/// once (the one process-wide flag of this module, written here and read by `app`).
static OPENED_READ_ONLY: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a store was opened read-only in this process.
pub fn opened_read_only() -> bool {
    OPENED_READ_ONLY.load(std::sync::atomic::Ordering::Relaxed)
}

/// Whether this user can write the index of `root` (create files in `.llmc/` and write
/// its database): tried, not guessed from modes (root, ACLs and read-only mounts).
///
/// The database file is tried once per process (per file: a rebuilt store is another
/// one), before any connection to it can hold a lock: closing a descriptor of a file drops
/// every POSIX lock the process holds on it, SQLite's included, and a connection that has
/// lost its shared lock no longer stops another process from deleting the WAL under it
/// (the corruption SQLite's "How To Corrupt" page describes). A long-running reader with
/// stores in a pool would otherwise lose their locks at each new store.
pub fn writable(root: &Path) -> bool {
    static TRIED: std::sync::Mutex<Vec<Tried>> = std::sync::Mutex::new(Vec::new());
    let dir = store_dir(root);
    let db = dir.join(DB_FILE);
    if tempfile::tempfile_in(&dir).is_err() {
        return false;
    }
    if !db.exists() {
        return true;
    }
    let id = pool::db_identity(root);
    let mut tried = tried_lock(&TRIED);
    if let Some((_, _, ok)) = tried.iter().find(|(i, p, _)| *i == id && *p == db) {
        return *ok;
    }
    let ok = OpenOptions::new().append(true).open(&db).is_ok();
    tried.push((id, db, ok));
    ok
}

/// A database file tried by [`writable`]: its identity, its path, whether it could be
/// opened for writing.
type Tried = (Option<(u64, u64)>, PathBuf, bool);

fn tried_lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Held while an index run writes; a second writer waits for it.
///
/// A writer that has to wait says so first by holding `.llmc/lock.want` while it waits;
/// a long history ingestion asks [`WriteLock::contended`] between its slices and lets
/// the lock go, so a writer never waits for more than one slice.
pub struct WriteLock {
    _file: File,
    want: File,
}

impl WriteLock {
    /// Whether another writer waits for this lock.
    pub fn contended(&self) -> bool {
        match self.want.try_lock_shared() {
            Ok(()) => {
                let _ = self.want.unlock();
                false
            }
            Err(_) => true,
        }
    }

    /// Waits until the writer that made [`WriteLock::contended`] true has the lock (it
    /// lets `lock.want` go once it does), after this one was dropped.
    pub fn wait_for_waiter(root: &Path) {
        if let Ok(want) = open_lock_file(&store_dir(root).join(WANT_FILE)) {
            let _ = want.lock_shared();
            let _ = want.unlock();
        }
    }
}

/// The lock a history ingestion running on its own (`llmc index --history-only`) holds for
/// its life, so that one runs at a time; `None` when another holds it or there is no
/// `.llmc/` to write.
pub fn history_runner_lock(root: &Path) -> Option<File> {
    let dir = store_dir(root);
    if !dir.is_dir() || !writable(root) {
        return None;
    }
    let file = open_lock_file(&dir.join(HISTORY_LOCK_FILE)).ok()?;
    file.try_lock().ok()?;
    Some(file)
}

const HISTORY_LOCK_FILE: &str = "history.lock";

/// The file a writer holds while it waits for the write lock.
const WANT_FILE: &str = "lock.want";

fn open_lock_file(path: &Path) -> Result<File> {
    OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))
}

impl Store {
    /// Opens an existing store for reading. A missing store is [`LlmcError::IndexMissing`];
    /// a corrupt one or one of another version is [`LlmcError::IndexUnusable`].
    /// Whether `root` has an index (which may still be unusable: [`Store::open_existing`]
    /// tells).
    pub fn exists(root: &Path) -> bool {
        store_dir(root).join(DB_FILE).is_file()
    }

    /// The format version of the store at `root` when an older llmc wrote it (the next
    /// index run rebuilds it: an index is derived from the repository); `None` when there
    /// is no store, it is this llmc's format or a newer one, or it cannot be read (a
    /// damaged store is left to `llmc index --rebuild`, never replaced unasked).
    pub fn older_format(root: &Path) -> Option<i32> {
        let db = store_dir(root).join(DB_FILE);
        if !db.is_file() {
            return None;
        }
        // Through SQLite, never by reading the file's header: closing any other handle of
        // the database file in this process would drop SQLite's POSIX locks on it (a
        // session test sees the store corrupted when that is tried).
        let conn = Connection::open_with_flags(
            &db,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .ok()?;
        let v: i32 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .ok()?;
        (0 < v && v < SCHEMA_VERSION).then_some(v)
    }

    /// Opens the store for reading, pinned to its last committed generation: every
    /// query through this handle sees that generation, whatever an index run commits
    /// meanwhile (one read transaction for the handle's life). The search indexes of the
    /// same generation go with it (`crate::search::generations`).
    ///
    /// An index this user cannot write (another owner, a read-only mount) is opened
    /// read-only; [`opened_read_only`] then says so.
    pub fn open_existing(root: &Path) -> Result<Store> {
        let store = Store::open_conn(root)?;
        store
            .conn
            .execute_batch("BEGIN DEFERRED")
            .map_err(|e| store.db_error(e))?;
        // The first read starts the snapshot.
        store.generation()?;
        Ok(store)
    }

    /// Opens the database without pinning a snapshot (the writer's way in).
    fn open_conn(root: &Path) -> Result<Store> {
        let dir = store_dir(root);
        let db = dir.join(DB_FILE);
        if !db.is_file() {
            return Err(LlmcError::IndexMissing(root.to_path_buf()).into());
        }
        let read_only = !writable(root);
        let conn = if read_only {
            // A WAL left by a writer is read when it can be; without one the file is
            // read as it is, with no -shm file to create.
            let wal = dir.join("index.db-wal");
            let mode = if wal.is_file() {
                "mode=ro"
            } else {
                "immutable=1"
            };
            let uri = format!("file:{}?{mode}", uri_path(&db));
            Connection::open_with_flags(
                uri,
                OpenFlags::SQLITE_OPEN_READ_ONLY
                    | OpenFlags::SQLITE_OPEN_URI
                    | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )
        } else {
            Connection::open_with_flags(
                &db,
                OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )
        }
        .map_err(|e| unusable(&dir, &e.to_string()))?;
        let store = Store {
            conn,
            dir,
            fresh: false,
            read_only,
            identity: pool::db_identity(root),
        };
        store
            .configure()
            .map_err(|e| unusable(&store.dir, &format!("{e:#}")))?;
        store.check_version()?;
        if read_only {
            OPENED_READ_ONLY.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        Ok(store)
    }

    /// Ends the snapshot this handle reads (nothing stays pinned while it waits).
    fn release(&self) -> Result<()> {
        if !self.conn.is_autocommit() {
            self.conn
                .execute_batch("ROLLBACK")
                .map_err(|e| self.db_error(e))?;
        }
        Ok(())
    }

    /// Pins the handle to the newest committed generation, as [`Store::open_existing`]
    /// does, and returns it.
    fn repin(&self) -> Result<u64> {
        self.release()?;
        self.conn
            .execute_batch("BEGIN DEFERRED")
            .map_err(|e| self.db_error(e))?;
        self.generation()
    }

    /// Whether this store was opened read-only.
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// Opens the store for writing, creating it if needed; the caller holds the
    /// [`WriteLock`]. With `rebuild`, a corrupt store or one of another version is
    /// deleted and created anew; without, it is an error.
    ///
    /// A store that does not exist yet is built under a temporary name, without a
    /// journal and with its secondary indexes created after the bulk load, and moved
    /// into place by [`Store::publish`]: until then readers find no index, and a run
    /// killed half-way leaves nothing behind.
    pub fn open_for_write(root: &Path, rebuild: bool) -> Result<Store> {
        let dir = store_dir(root);
        let db = dir.join(DB_FILE);
        if db.is_file() {
            match Store::open_conn(root) {
                Ok(s) if s.read_only => {
                    return Err(LlmcError::Config(format!(
                        "the index at {} is read-only for this user: it can be asked, not \
                         written (index from an account that can write it)",
                        dir.display()
                    ))
                    .into());
                }
                Ok(s) => return Ok(s),
                Err(_) if rebuild => remove_db_files(&dir)?,
                Err(e) => return Err(e),
            }
        }
        let fresh = dir.join(FRESH_FILE);
        let _ = std::fs::remove_file(&fresh);
        let conn =
            Connection::open(&fresh).with_context(|| format!("creating {}", fresh.display()))?;
        conn.execute_batch(&format!(
            "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -{CACHE_KIB};
             BEGIN; {SCHEMA_TABLES} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
        ))
        .context("creating the index schema")?;
        Ok(Store {
            conn,
            dir,
            fresh: true,
            read_only: false,
            identity: None,
        })
    }

    /// Whether any of `paths` carries `flag` (see [`flags`]).
    pub fn any_flagged(&self, paths: &[&str], flag: i64) -> Result<bool> {
        let list = serde_json::to_string(paths)?;
        Ok(self.conn.query_row(
            "SELECT EXISTS(SELECT 1 FROM files WHERE path IN (SELECT value FROM json_each(?1))
                                              AND flags & ?2 != 0)",
            params![list, flag],
            |r| r.get(0),
        )?)
    }

    /// Narrows the store's files (the database, its WAL and shared memory) to 0600.
    pub fn make_files_private(&self) {
        for name in [DB_FILE, "index.db-wal", "index.db-shm"] {
            make_private(&self.dir.join(name));
        }
    }

    /// Makes a store built by [`Store::open_for_write`] under its temporary name the
    /// store at `.llmc/index.db` (a no-op for a store that already was).
    pub fn publish(self) -> Result<Store> {
        if !self.fresh {
            return Ok(self);
        }
        self.conn
            .execute_batch(SCHEMA_INDEXES)
            .context("indexing the new store")?;
        let dir = self.dir.clone();
        self.conn
            .close()
            .map_err(|(_, e)| e)
            .context("closing the new store")?;
        let (fresh, db) = (dir.join(FRESH_FILE), dir.join(DB_FILE));
        std::fs::rename(&fresh, &db).with_context(|| format!("creating {}", db.display()))?;
        let root = dir.parent().unwrap_or(&dir);
        Store::open_existing(root)
    }

    /// Takes the writer lock of `root`'s store, creating `.llmc/` if needed, and waits
    /// for another index run to finish.
    pub fn lock(root: &Path, progress: &dyn crate::progress::Progress) -> Result<WriteLock> {
        let dir = store_dir(root);
        if dir.is_dir() && !writable(root) {
            return Err(LlmcError::Config(format!(
                "the index at {} is read-only for this user: it can be asked, not written \
                 (index from an account that can write it)",
                dir.display()
            ))
            .into());
        }
        create_private_dir(&dir)?;
        let path = dir.join(LOCK_FILE);
        let file = open_lock_file(&path)?;
        let want = open_lock_file(&dir.join(WANT_FILE))?;
        if file.try_lock().is_err() {
            // Said while waiting: a history ingestion holding the lock lets it go after
            // its slice.
            want.lock()
                .with_context(|| format!("locking {}", dir.join(WANT_FILE).display()))?;
            if file.try_lock().is_err() {
                progress.note("waiting for another `llmc index` to finish");
                file.lock()
                    .with_context(|| format!("locking {}", path.display()))?;
            }
            want.unlock()
                .with_context(|| format!("unlocking {}", dir.join(WANT_FILE).display()))?;
        }
        Ok(WriteLock { _file: file, want })
    }

    fn configure(&self) -> Result<()> {
        self.conn.busy_timeout(std::time::Duration::from_secs(10))?;
        if !self.read_only {
            self.conn.pragma_update(None, "journal_mode", "WAL")?;
            self.conn.pragma_update(None, "synchronous", "NORMAL")?;
        }
        self.conn.pragma_update(None, "temp_store", "MEMORY")?;
        self.conn.pragma_update(None, "cache_size", -CACHE_KIB)?;
        // Pages read in place from the page cache, not copied into SQLite's own.
        self.conn.pragma_update(None, "mmap_size", MMAP_BYTES)?;
        Ok(())
    }

    fn check_version(&self) -> Result<()> {
        let v: i32 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| unusable(&self.dir, &e.to_string()))?;
        if v != SCHEMA_VERSION {
            return Err(unusable(
                &self.dir,
                &format!("format version {v}, this llmc reads {SCHEMA_VERSION}"),
            ));
        }
        // Touch every table once so a store missing one is caught here, not mid-command.
        self.conn
            .query_row(
                "SELECT (SELECT count(*) FROM meta) + (SELECT 0 FROM files LIMIT 1)
                 + (SELECT 0 FROM symbols LIMIT 1) + (SELECT 0 FROM chunks LIMIT 1)
                 + (SELECT 0 FROM calls LIMIT 1) + (SELECT 0 FROM imports LIMIT 1)
                 + (SELECT 0 FROM commits LIMIT 1) + (SELECT 0 FROM commit_files LIMIT 1)
                 + (SELECT 0 FROM commit_symbols LIMIT 1)",
                [],
                |r| r.get::<_, Option<i64>>(0),
            )
            .map_err(|e| unusable(&self.dir, &e.to_string()))?;
        Ok(())
    }

    /// The `.llmc/` directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// A value from the meta table.
    pub fn meta(&self, key: &str) -> Result<Option<String>> {
        self.conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()
            .map_err(|e| self.db_error(e))
    }

    /// The generation of the last complete index run (0 before the first).
    pub fn generation(&self) -> Result<u64> {
        Ok(self
            .meta(meta::GENERATION)?
            .and_then(|v| v.parse().ok())
            .unwrap_or(0))
    }

    /// The memories the last complete index run built (all four for a store made before
    /// the set was recorded).
    pub fn memories(&self) -> Result<crate::model::MemorySet> {
        Ok(crate::model::MemorySet::from_meta(
            self.meta(meta::MEMORIES)?.as_deref(),
        ))
    }

    /// Every file the store knows, by path.
    pub fn file_states(&self) -> Result<HashMap<String, FileState>> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, path, size, mtime_ns, hash FROM files")
            .map_err(|e| self.db_error(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(1)?,
                    FileState {
                        id: r.get(0)?,
                        size: r.get::<_, i64>(2)? as u64,
                        mtime_ns: r.get(3)?,
                        hash: r.get(4)?,
                    },
                ))
            })
            .map_err(|e| self.db_error(e))?;
        rows.collect::<rusqlite::Result<_>>()
            .map_err(|e| self.db_error(e))
    }

    /// Starts the one write transaction of an index run.
    pub fn begin(&mut self) -> Result<Writer<'_>> {
        // A handle pinned to a snapshot (a store just published) lets it go first.
        self.release()?;
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .context("starting the index transaction")?;
        Ok(Writer { tx })
    }

    /// Runs a read query with the store's error mapping. The closure sees the connection.
    pub fn read<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T> {
        f(&self.conn).map_err(|e| self.db_error(e))
    }

    /// Bytes on disk under `.llmc/`.
    pub fn size_on_disk(&self) -> u64 {
        fn walk(p: &Path) -> u64 {
            let Ok(rd) = std::fs::read_dir(p) else {
                return 0;
            };
            rd.flatten()
                .map(|e| match e.metadata() {
                    Ok(m) if m.is_dir() => walk(&e.path()),
                    Ok(m) => m.len(),
                    Err(_) => 0,
                })
                .sum()
        }
        walk(&self.dir)
    }

    /// A text dump of everything a fresh index would produce, without row ids, times or
    /// stat data: two stores with equal dumps hold the same index.
    pub fn dump(&self) -> Result<String> {
        use std::fmt::Write as _;
        let mut out = String::new();
        self.read(|c| {
            let mut files = c.prepare(
                "SELECT id, path, lang, size, hash, lines, flags, sym_lo, sym_hi, chunk_lo, chunk_hi,
                        calls_lo, calls_hi, imports_lo, imports_hi
                 FROM files ORDER BY path",
            )?;
            let mut syms = c.prepare(
                "SELECT s.kind, s.qualname, s.name, s.start_line, s.end_line, s.signature, s.doc,
                        (SELECT p.qualname || ' ' || p.start_line FROM symbols p WHERE p.id = s.parent_id)
                 FROM symbols s WHERE s.id BETWEEN ?1 AND ?2 ORDER BY s.start_line, s.end_line DESC, s.qualname",
            )?;
            let mut chunks = c.prepare(
                "SELECT c.kind, c.start_line, c.end_line, c.symbol,
                        (SELECT s.qualname || ' ' || s.start_line FROM symbols s WHERE s.id = c.symbol_id)
                 FROM chunks c WHERE c.id BETWEEN ?1 AND ?2 ORDER BY c.start_line, c.end_line DESC, c.kind",
            )?;
            let mut calls = c.prepare(
                "SELECT c.line, c.col, c.name, c.qualifier, c.kind, c.receiver_type, c.resolution,
                        c.candidates, c.external,
                        (SELECT s.qualname || ' ' || s.start_line FROM symbols s WHERE s.id = c.caller_id),
                        (SELECT f.path || ':' || s.qualname || ' ' || s.start_line
                           FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.id = c.callee_id)
                 FROM calls c WHERE c.id BETWEEN ?1 AND ?2 ORDER BY c.line, c.col, c.name",
            )?;
            let mut imports = c.prepare(
                "SELECT i.line, i.module, i.name, i.alias, i.wildcard, i.kind,
                        (SELECT f.path FROM files f WHERE f.id = i.target_file_id)
                 FROM imports i WHERE i.id BETWEEN ?1 AND ?2 ORDER BY i.id",
            )?;
            let mut rows = files.query([])?;
            while let Some(r) = rows.next()? {
                let _ = writeln!(
                    out,
                    "file {} {} {} {} {} {}",
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, i64>(5)?,
                    r.get::<_, i64>(6)?
                );
                let sym_range: (Option<i64>, Option<i64>) = (r.get(7)?, r.get(8)?);
                let chunk_range: (Option<i64>, Option<i64>) = (r.get(9)?, r.get(10)?);
                let mut srows = syms.query([sym_range.0, sym_range.1])?;
                while let Some(s) = srows.next()? {
                    let _ = writeln!(
                        out,
                        "  symbol {} {} {} {}-{} parent={:?} sig={:?} doc={:?}",
                        s.get::<_, String>(0)?,
                        s.get::<_, String>(1)?,
                        s.get::<_, String>(2)?,
                        s.get::<_, i64>(3)?,
                        s.get::<_, i64>(4)?,
                        s.get::<_, Option<String>>(7)?,
                        s.get::<_, String>(5)?,
                        s.get::<_, String>(6)?
                    );
                }
                let mut crows = chunks.query([chunk_range.0, chunk_range.1])?;
                while let Some(ch) = crows.next()? {
                    let _ = writeln!(
                        out,
                        "  chunk {} {}-{} symbol={:?} def={:?}",
                        ch.get::<_, String>(0)?,
                        ch.get::<_, i64>(1)?,
                        ch.get::<_, i64>(2)?,
                        ch.get::<_, Option<String>>(3)?,
                        ch.get::<_, Option<String>>(4)?
                    );
                }
                let call_range: (Option<i64>, Option<i64>) = (r.get(11)?, r.get(12)?);
                let mut crows = calls.query([call_range.0, call_range.1])?;
                while let Some(k) = crows.next()? {
                    let _ = writeln!(
                        out,
                        "  call {}:{} {} q={:?} {} recv={:?} caller={:?} -> {:?} {:?} n={} ext={:?}",
                        k.get::<_, i64>(0)?,
                        k.get::<_, i64>(1)?,
                        k.get::<_, String>(2)?,
                        k.get::<_, Option<String>>(3)?,
                        k.get::<_, String>(4)?,
                        k.get::<_, Option<String>>(5)?,
                        k.get::<_, Option<String>>(9)?,
                        k.get::<_, Option<String>>(10)?,
                        k.get::<_, Option<String>>(6)?,
                        k.get::<_, i64>(7)?,
                        k.get::<_, Option<String>>(8)?
                    );
                }
                let import_range: (Option<i64>, Option<i64>) = (r.get(13)?, r.get(14)?);
                // Ordered by line, then the module as answers show it (`ImportKind::written`).
                type ImportLine = (i64, String, Option<String>, Option<String>, bool, Option<String>);
                let mut lines: Vec<ImportLine> = imports
                    .query_map([import_range.0, import_range.1], |k| {
                        Ok((
                            k.get(0)?,
                            k.get::<_, ImportKind>(5)?.written(&k.get::<_, String>(1)?),
                            k.get(2)?,
                            k.get(3)?,
                            k.get(4)?,
                            k.get(6)?,
                        ))
                    })?
                    .collect::<rusqlite::Result<_>>()?;
                lines.sort_by(|a, b| (a.0, &a.1, &a.2).cmp(&(b.0, &b.1, &b.2)));
                for (line, module, name, alias, wildcard, target) in lines {
                    let _ = writeln!(
                        out,
                        "  import {line} {module} name={name:?} alias={alias:?} wildcard={wildcard} -> {target:?}"
                    );
                }
            }
            Ok(())
        })?;
        Ok(out)
    }

    fn db_error(&self, e: rusqlite::Error) -> anyhow::Error {
        use rusqlite::ErrorCode;
        match e.sqlite_error_code() {
            Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => {
                unusable(&self.dir, &e.to_string())
            }
            _ => anyhow::Error::new(e)
                .context(format!("reading the index in {}", self.dir.display())),
        }
    }
}

fn unusable(dir: &Path, reason: &str) -> anyhow::Error {
    LlmcError::IndexUnusable {
        path: dir.to_path_buf(),
        reason: reason.to_string(),
    }
    .into()
}

fn remove_db_files(dir: &Path) -> Result<()> {
    for name in [DB_FILE, "index.db-wal", "index.db-shm"] {
        let p = dir.join(name);
        match std::fs::remove_file(&p) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e).with_context(|| format!("removing {}", p.display())),
        }
    }
    Ok(())
}
/// Where chunk `id` is (path, lines, definition, kind, language); `None` when the store
/// no longer has it.
pub fn chunk_loc(c: &Connection, id: i64) -> rusqlite::Result<Option<ChunkLoc>> {
    c.prepare_cached(
        "SELECT f.path, c.start_line, c.end_line, c.symbol, c.symbol_id, coalesce(s.kind, c.kind), f.lang
         FROM chunks c JOIN files f ON f.id = c.file_id
         LEFT JOIN symbols s ON s.id = c.symbol_id WHERE c.id = ?1",
    )?
    .query_row([id], |r| {
        Ok(ChunkLoc {
            path: r.get(0)?,
            start_line: r.get(1)?,
            end_line: r.get(2)?,
            symbol: r.get(3)?,
            symbol_id: r.get(4)?,
            kind: r.get(5)?,
            lang: r.get(6)?,
            chunk_id: id,
        })
    })
    .optional()
}

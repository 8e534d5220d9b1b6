//! Writing one generation: the run's single write transaction, file rows in and out,
//! meta keys. Nothing written is visible to a reader before [`Writer::commit`].

use anyhow::{Context, Result};
use rusqlite::{Connection, OptionalExtension, Transaction, params};

use crate::model::{CallSite, CallTarget, Chunk, FileRefs, Receiver, Symbol};

use super::FileRow;

/// The ids [`Writer::insert_file`] gave a file and its rows.
pub struct Inserted {
    pub file_id: i64,
    /// Its symbols' ids, in the order of its symbol list.
    pub symbol_ids: Vec<i64>,
    /// Its chunks' ids, in order.
    pub chunk_ids: Vec<i64>,
}

/// The write transaction of one index run. Dropped without [`Writer::commit`], nothing
/// it wrote is visible to anyone.
pub struct Writer<'a> {
    pub(super) tx: Transaction<'a>,
}

impl Writer<'_> {
    /// Removes a file and everything derived from it.
    pub fn delete_file(&self, id: i64) -> Result<()> {
        self.tx
            .prepare_cached(
                "DELETE FROM calls WHERE id BETWEEN
                   (SELECT calls_lo FROM files WHERE id = ?1) AND (SELECT calls_hi FROM files WHERE id = ?1)",
            )?
            .execute([id])?;
        self.tx
            .prepare_cached("DELETE FROM scip_calls WHERE file_id = ?1")?
            .execute([id])?;
        self.tx
            .prepare_cached("DELETE FROM fields WHERE file_id = ?1")?
            .execute([id])?;
        self.tx
            .prepare_cached(
                "DELETE FROM imports WHERE id BETWEEN
                   (SELECT imports_lo FROM files WHERE id = ?1) AND (SELECT imports_hi FROM files WHERE id = ?1)",
            )?
            .execute([id])?;
        self.tx
            .prepare_cached(
                "DELETE FROM chunks WHERE id BETWEEN
                   (SELECT chunk_lo FROM files WHERE id = ?1) AND (SELECT chunk_hi FROM files WHERE id = ?1)",
            )?
            .execute([id])?;
        self.tx
            .prepare_cached(
                "DELETE FROM symbols WHERE id BETWEEN
                   (SELECT sym_lo FROM files WHERE id = ?1) AND (SELECT sym_hi FROM files WHERE id = ?1)",
            )?
            .execute([id])?;
        self.tx
            .prepare_cached("DELETE FROM files WHERE id = ?1")?
            .execute([id])?;
        Ok(())
    }

    /// Removes every file (for `--rebuild` on a healthy store).
    pub fn clear(&self) -> Result<()> {
        self.tx
            .execute_batch("DELETE FROM calls; DELETE FROM scip_calls; DELETE FROM fields; DELETE FROM imports; DELETE FROM chunks; DELETE FROM symbols; DELETE FROM files;")?;
        Ok(())
    }

    /// Records new stat data for a file whose content did not change.
    pub fn touch_file(&self, id: i64, size: u64, mtime_ns: i64) -> Result<()> {
        self.tx
            .prepare_cached("UPDATE files SET size = ?2, mtime_ns = ?3 WHERE id = ?1")?
            .execute(params![id, size as i64, mtime_ns])?;
        Ok(())
    }

    /// The ids of a file's chunks, `lo..=hi`, or `None` when it has none.
    pub fn chunk_range(&self, id: i64) -> Result<Option<(i64, i64)>> {
        let range = self
            .tx
            .prepare_cached("SELECT chunk_lo, chunk_hi FROM files WHERE id = ?1")?
            .query_row([id], |r| {
                Ok((r.get::<_, Option<i64>>(0)?, r.get::<_, Option<i64>>(1)?))
            })
            .optional()?;
        Ok(match range {
            Some((Some(lo), Some(hi))) => Some((lo, hi)),
            _ => None,
        })
    }

    /// Inserts a file with its symbols, chunks, call sites and imports (unresolved);
    /// returns the ids it gave them.
    pub fn insert_file(
        &self,
        file: &FileRow,
        symbols: &[Symbol],
        chunks: &[Chunk],
        refs: &FileRefs,
    ) -> Result<Inserted> {
        self.tx
            .prepare_cached(
                "INSERT INTO files (path, lang, size, mtime_ns, hash, lines, flags)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?
            .execute(params![
                file.path,
                file.lang,
                file.size as i64,
                file.mtime_ns,
                file.hash,
                file.lines,
                file.flags
            ])?;
        let file_id = self.tx.last_insert_rowid();
        let mut ids: Vec<i64> = Vec::with_capacity(symbols.len());
        let mut stmt = self.tx.prepare_cached(
            "INSERT INTO symbols (file_id, parent_id, name, qualname, kind, start_line, end_line, signature, doc)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )?;
        for s in symbols {
            // Parents come before their children.
            let parent = s.parent.and_then(|p| ids.get(p).copied());
            stmt.execute(params![
                file_id,
                parent,
                s.name,
                s.qualname,
                s.kind.as_str(),
                s.start_line,
                s.end_line,
                s.signature,
                s.doc
            ])?;
            ids.push(self.tx.last_insert_rowid());
        }
        let mut chunk_ids: Vec<i64> = Vec::with_capacity(chunks.len());
        let mut stmt = self.tx.prepare_cached(
            "INSERT INTO chunks (file_id, symbol_id, start_line, end_line, kind, symbol)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for c in chunks {
            stmt.execute(params![
                file_id,
                c.symbol_index.and_then(|i| ids.get(i).copied()),
                c.start_line,
                c.end_line,
                c.kind.as_str(),
                c.symbol
            ])?;
            chunk_ids.push(self.tx.last_insert_rowid());
        }
        self.tx
            .prepare_cached(
                "UPDATE files SET sym_lo = ?2, sym_hi = ?3, chunk_lo = ?4, chunk_hi = ?5 WHERE id = ?1",
            )?
            .execute(params![
                file_id,
                ids.first(),
                ids.last(),
                chunk_ids.first(),
                chunk_ids.last()
            ])?;
        self.insert_refs(file_id, &ids, refs)?;
        Ok(Inserted {
            file_id,
            symbol_ids: ids,
            chunk_ids,
        })
    }

    /// Whether the store holds any call site (before this run's, in this transaction).
    pub fn has_calls(&self) -> Result<bool> {
        Ok(self
            .tx
            .query_row("SELECT EXISTS(SELECT 1 FROM calls)", [], |r| r.get(0))?)
    }

    /// The names whose calls may resolve differently once this file changes: the
    /// names it defines, the local names other files import from it and the fields it
    /// states (a receiver typed through one of them may be typed differently).
    pub fn graph_names(&self, file_id: i64) -> Result<Vec<String>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT name FROM symbols WHERE id BETWEEN
               (SELECT sym_lo FROM files WHERE id = ?1) AND (SELECT sym_hi FROM files WHERE id = ?1)
             UNION SELECT coalesce(alias, name) FROM imports WHERE target_file_id = ?1
               AND coalesce(alias, name) IS NOT NULL
             UNION SELECT name FROM fields WHERE file_id = ?1",
        )?;
        let rows = stmt.query_map([file_id], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn insert_refs(&self, file_id: i64, symbol_ids: &[i64], refs: &FileRefs) -> Result<()> {
        insert_calls(&self.tx, file_id, symbol_ids, &refs.calls, None)?;
        let mut stmt = self.tx.prepare_cached(
            "INSERT INTO fields (file_id, owner, name, type) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for f in &refs.fields {
            stmt.execute(params![file_id, f.owner, f.name, f.ty])?;
        }
        let mut import_ids: (Option<i64>, Option<i64>) = (None, None);
        let mut stmt = self.tx.prepare_cached(
            "INSERT INTO imports (file_id, line, module, kind, name, alias, wildcard)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        for i in &refs.imports {
            stmt.execute(params![
                file_id, i.line, i.module, i.kind, i.name, i.alias, i.wildcard
            ])?;
            let id = self.tx.last_insert_rowid();
            import_ids.0.get_or_insert(id);
            import_ids.1 = Some(id);
        }
        self.tx
            .prepare_cached("UPDATE files SET imports_lo = ?2, imports_hi = ?3 WHERE id = ?1")?
            .execute(params![file_id, import_ids.0, import_ids.1])?;
        Ok(())
    }

    /// The connection of the write transaction, for stages that read what this run
    /// wrote and write derived rows (the code graph's resolution).
    pub fn conn(&self) -> &Connection {
        &self.tx
    }

    /// Sets a meta value.
    /// A `meta` value as this transaction sees it.
    pub fn meta(&self, key: &str) -> Result<Option<String>> {
        use rusqlite::OptionalExtension as _;
        Ok(self
            .tx
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()?)
    }

    pub fn set_meta(&self, key: &str, value: &str) -> Result<()> {
        self.tx
            .prepare_cached("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)")?
            .execute([key, value])?;
        Ok(())
    }

    /// The transaction itself, for stages that keep their own tables (history).
    pub fn transaction(&self) -> &Transaction<'_> {
        &self.tx
    }

    /// Makes everything written visible at once.
    pub fn commit(self) -> Result<()> {
        self.tx.commit().context("committing the index")
    }
}

/// Inserts a file's call sites, unresolved (`targets` `None`: the code graph resolves them
/// later) or with the callee columns of each, and records their id range on the file. A
/// file's calls have consecutive ids: the range replaces an index on `file_id`.
pub fn insert_calls(
    conn: &Connection,
    file_id: i64,
    symbol_ids: &[i64],
    calls: &[CallSite],
    targets: Option<&[CallTarget]>,
) -> Result<()> {
    if let Some(t) = targets {
        anyhow::ensure!(
            t.len() == calls.len(),
            "{} call targets for {} calls",
            t.len(),
            calls.len()
        );
    }
    let mut range: (Option<i64>, Option<i64>) = (None, None);
    const COLUMNS: &str = "file_id, caller_id, line, col, name, qualifier, kind, receiver_type, \
                           receiver_call, usage, args, arg_types";
    let mut stmt = match targets {
        None => conn.prepare_cached(&format!(
            "INSERT INTO calls ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"
        ))?,
        Some(_) => conn.prepare_cached(&format!(
            "INSERT INTO calls ({COLUMNS}, callee_id, resolution, candidates, external)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)"
        ))?,
    };
    for (i, c) in calls.iter().enumerate() {
        let caller = c.caller.and_then(|i| symbol_ids.get(i).copied());
        let receiver_call = c.receiver_type.as_ref().and_then(Receiver::called_name);
        let site = params![
            file_id,
            caller,
            c.line,
            c.col,
            c.name,
            c.qualifier,
            c.kind.as_str(),
            c.receiver_type,
            receiver_call,
            c.usage.as_str(),
            c.args,
            c.arg_types
        ];
        match targets.and_then(|t| t.get(i)) {
            None => stmt.execute(site)?,
            Some(t) => {
                let target = params![t.callee_id, t.resolution, t.candidates, t.external];
                stmt.execute(rusqlite::params_from_iter(site.iter().chain(target.iter())))?
            }
        };
        let id = conn.last_insert_rowid();
        range.0.get_or_insert(id);
        range.1 = Some(id);
    }
    conn.prepare_cached("UPDATE files SET calls_lo = ?2, calls_hi = ?3 WHERE id = ?1")?
        .execute(params![file_id, range.0, range.1])?;
    Ok(())
}

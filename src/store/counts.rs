//! Counts over the current generation, for `llmc status`: files and definitions by
//! language, chunks, files with problems.

use std::collections::BTreeMap;

use anyhow::Result;

use super::{Store, flags};

const FILES_BY_LANGUAGE: &str = "SELECT lang, count(*) FROM files GROUP BY lang";

/// Indexed files by language, on a connection the caller holds.
pub fn files_by_language(c: &rusqlite::Connection) -> rusqlite::Result<BTreeMap<String, u64>> {
    by_language(c, FILES_BY_LANGUAGE)
}

fn by_language(c: &rusqlite::Connection, sql: &str) -> rusqlite::Result<BTreeMap<String, u64>> {
    let mut stmt = c.prepare_cached(sql)?;
    let rows = stmt.query_map([], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as u64))
    })?;
    rows.collect()
}

impl Store {
    /// Indexed files by language.
    pub fn files_by_language(&self) -> Result<BTreeMap<String, u64>> {
        self.by_language(FILES_BY_LANGUAGE)
    }

    /// Definitions by the language of their file.
    pub fn definitions_by_language(&self) -> Result<BTreeMap<String, u64>> {
        self.by_language(
            "SELECT f.lang, count(*) FROM symbols s JOIN files f ON f.id = s.file_id GROUP BY f.lang",
        )
    }

    fn by_language(&self, sql: &str) -> Result<BTreeMap<String, u64>> {
        self.read(|c| by_language(c, sql))
    }

    /// How many chunks the index holds.
    pub fn chunk_count(&self) -> Result<u64> {
        Ok(
            self.read(|c| c.query_row("SELECT count(*) FROM chunks", [], |r| r.get::<_, i64>(0)))?
                as u64,
        )
    }

    /// Counts of indexed files with problems that did not stop them being indexed.
    pub fn flag_counts(&self) -> Result<BTreeMap<&'static str, u64>> {
        self.read(|c| {
            let (syntax, utf8, truncated, secret, empty) = c.query_row(
                "SELECT
                   (SELECT count(*) FROM files WHERE flags & ?1 != 0),
                   (SELECT count(*) FROM files WHERE flags & ?2 != 0),
                   (SELECT count(*) FROM files WHERE flags & ?3 != 0),
                   (SELECT count(*) FROM files WHERE flags & ?4 != 0),
                   (SELECT count(*) FROM files WHERE size = 0)",
                [
                    flags::SYNTAX_ERRORS,
                    flags::INVALID_UTF8,
                    flags::TRUNCATED,
                    flags::SECRET,
                ],
                |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, i64>(2)?,
                        r.get::<_, i64>(3)?,
                        r.get::<_, i64>(4)?,
                    ))
                },
            )?;
            Ok(BTreeMap::from([
                ("syntax_errors", syntax as u64),
                ("invalid_utf8", utf8 as u64),
                ("definitions_truncated", truncated as u64),
                ("secrets_included", secret as u64),
                ("empty", empty as u64),
            ]))
        })
    }
}

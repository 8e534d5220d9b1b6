//! The lookups ask's retrievers make by name, path or line: the chunk of a definition or
//! a line, files by name, authors, a definition's neighbours, the vocabulary. Plain
//! functions over a connection, so a retriever runs several inside one read.

use rusqlite::{Connection, OptionalExtension, params};

/// The chunk of a definition.
pub fn def_chunk(c: &Connection, path: &str, symbol_id: i64) -> rusqlite::Result<Option<i64>> {
    c.prepare_cached(
        "SELECT c.id FROM files f JOIN chunks c ON c.id BETWEEN f.chunk_lo AND f.chunk_hi
         WHERE f.path = ?1 AND c.symbol_id = ?2 LIMIT 1",
    )?
    .query_row(rusqlite::params![path, symbol_id], |r| r.get(0))
    .optional()
}

/// The narrowest chunk holding a line.
pub fn line_chunk(c: &Connection, path: &str, line: u32) -> rusqlite::Result<Option<i64>> {
    c.prepare_cached(
        "SELECT c.id FROM files f JOIN chunks c ON c.id BETWEEN f.chunk_lo AND f.chunk_hi
         WHERE f.path = ?1 AND c.start_line <= ?2 AND c.end_line >= ?2
         ORDER BY c.end_line - c.start_line LIMIT 1",
    )?
    .query_row(rusqlite::params![path, line], |r| r.get(0))
    .optional()
}

/// The first chunk of a file.
pub fn first_chunk(c: &Connection, path: &str) -> rusqlite::Result<Option<i64>> {
    c.prepare_cached("SELECT chunk_lo FROM files WHERE path = ?1")?
        .query_row([path], |r| r.get(0))
        .optional()
        .map(Option::flatten)
}

/// The current chunk of a definition named by path and qualified name.
pub fn qualname_chunk(c: &Connection, path: &str, qualname: &str) -> rusqlite::Result<Option<i64>> {
    c.prepare_cached(
        "SELECT c.id FROM files f JOIN symbols s ON s.id BETWEEN f.sym_lo AND f.sym_hi
         JOIN chunks c ON c.id BETWEEN f.chunk_lo AND f.chunk_hi AND c.symbol_id = s.id
         WHERE f.path = ?1 AND s.qualname = ?2 LIMIT 1",
    )?
    .query_row([path, qualname], |r| r.get(0))
    .optional()
}

/// Stored paths equal to `name` or ending with `/name`, up to five.
pub fn paths_ending_with(c: &Connection, name: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = c.prepare_cached(
        "SELECT path FROM files WHERE path = ?1 OR substr(path, -length(?1) - 1) = '/' || ?1
         ORDER BY path LIMIT 5",
    )?;
    stmt.query_map([name], |r| r.get(0))?.collect()
}

/// An author whose name starts with `word` (any case).
pub fn author_named(c: &Connection, word: &str) -> rusqlite::Result<Option<String>> {
    if word.len() < 3 {
        return Ok(None);
    }
    c.prepare_cached(
        "SELECT author FROM commits
         WHERE substr(lower(author), 1, length(?1)) = ?1 OR instr(lower(author), ' ' || ?1) > 0
         GROUP BY author ORDER BY count(*) DESC LIMIT 1",
    )?
    .query_row([word.to_ascii_lowercase()], |r| r.get(0))
    .optional()
}

/// Every author name of the history with its commit count, most commits first.
pub fn authors(c: &Connection) -> rusqlite::Result<Vec<(String, u64)>> {
    let mut stmt = c.prepare_cached(
        "SELECT author, count(*) FROM commits GROUP BY author ORDER BY count(*) DESC, author",
    )?;
    stmt.query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)?.max(0) as u64)))?
        .collect()
}

/// Each file's chunks as ranges of chunk ids with the file's path: one range per file
/// whose chunks are numbered without a gap (as one run writes them), else one per chunk.
pub fn chunk_ranges(c: &Connection) -> rusqlite::Result<Vec<(String, i64, i64)>> {
    let mut stmt = c.prepare_cached(
        "SELECT f.path, min(c.id), max(c.id), count(*), f.id FROM chunks c
         JOIN files f ON f.id = c.file_id GROUP BY f.id",
    )?;
    let rows: Vec<(String, i64, i64, i64, i64)> = stmt
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    let mut ids = c.prepare_cached("SELECT id FROM chunks WHERE file_id = ?1")?;
    let mut out = Vec::with_capacity(rows.len());
    for (path, lo, hi, n, file) in rows {
        if hi - lo + 1 == n {
            out.push((path, lo, hi));
        } else {
            for id in ids.query_map([file], |r| r.get::<_, i64>(0))? {
                let id = id?;
                out.push((path.clone(), id, id));
            }
        }
    }
    Ok(out)
}

/// Files with a path segment (or its stem) that is `word`, up to three.
pub fn files_named_by_word(c: &Connection, word: &str) -> rusqlite::Result<Vec<String>> {
    named_by_word(
        c,
        word,
        "SELECT path FROM files WHERE instr(lower(path), ?1) > 0 ORDER BY length(path) LIMIT 50",
        false,
    )
}

/// The files the history saw deleted and the tree no longer has whose name (its stem) is
/// `word`, up to three ("when was the jws module removed?": `src/itsdangerous/jws.py`).
/// A directory's name is not enough: "support" named ky's `cypress/support/.keep`. A
/// scan of the history's deletions (their partial index, `commit_files_deleted`), for a
/// word that names no file of the tree.
pub fn gone_files_named_by_word(c: &Connection, word: &str) -> rusqlite::Result<Vec<String>> {
    named_by_word(
        c,
        word,
        "SELECT DISTINCT path FROM commit_files
         WHERE status = 'D' AND instr(lower(path), ?1) > 0
           AND path NOT IN (SELECT path FROM files)
         ORDER BY length(path) LIMIT 50",
        true,
    )
}

/// The paths `sql` finds for `word` (lower-cased, `?1`) with a segment whose stem is the
/// word; with `file_only`, the last segment (the file's own name) only.
fn named_by_word(
    c: &Connection,
    word: &str,
    sql: &str,
    file_only: bool,
) -> rusqlite::Result<Vec<String>> {
    // Two letters name a folder often enough (`src/kv/`, `io/`); one does not.
    if word.len() < 2 {
        return Ok(Vec::new());
    }
    // SQLite's lower() folds ASCII only; so does this side.
    let lower = word.to_ascii_lowercase();
    let mut stmt = c.prepare_cached(sql)?;
    let paths: Vec<String> = stmt
        .query_map([&lower], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(paths
        .into_iter()
        .filter(|p| {
            let p = p.to_ascii_lowercase();
            let named = |seg: &str| seg.split('.').next().unwrap_or(seg) == lower;
            if file_only {
                p.rsplit('/').next().is_some_and(named)
            } else {
                p.split('/').any(named)
            }
        })
        .take(3)
        .collect())
}

/// Graph neighbours of a definition (callers' and callees' definitions, over edges proven
/// by evidence: a name-only match is not a call), with the
/// number of call edges it has in all.
pub fn neighbours(c: &Connection, symbol_id: i64) -> rusqlite::Result<(Vec<i64>, usize)> {
    let edges: usize = c
        .prepare_cached(
            "SELECT (SELECT count(*) FROM call_edges WHERE callee_id = ?1)
                  + (SELECT count(*) FROM call_edges WHERE caller_id = ?1)",
        )?
        .query_row([symbol_id], |r| r.get::<_, i64>(0))? as usize;
    let mut stmt = c.prepare_cached(
        "SELECT DISTINCT ch.id FROM call_edges k JOIN symbols s ON s.id = k.caller_id
         JOIN files f ON f.id = s.file_id
         JOIN chunks ch ON ch.id BETWEEN f.chunk_lo AND f.chunk_hi AND ch.symbol_id = s.id
         WHERE k.callee_id = ?1 AND k.caller_id != ?1 AND k.resolution != 'name-only'
         UNION ALL
         SELECT DISTINCT ch.id FROM call_edges k JOIN symbols s ON s.id = k.callee_id
         JOIN files f ON f.id = s.file_id
         JOIN chunks ch ON ch.id BETWEEN f.chunk_lo AND f.chunk_hi AND ch.symbol_id = s.id
         WHERE k.caller_id = ?1 AND k.callee_id != ?1 AND k.resolution != 'name-only'",
    )?;
    let ids = stmt
        .query_map([symbol_id], |r| r.get(0))?
        .collect::<rusqlite::Result<Vec<i64>>>()?;
    let mut seen = std::collections::HashSet::new();
    let ids = ids.into_iter().filter(|i| seen.insert(*i)).collect();
    Ok((ids, edges))
}

/// The functions defined directly inside the definition `symbol_id` (a nested `def`, a
/// closure bound to a name), as `path:qualname`, in the order they are written.
pub fn nested_functions(c: &Connection, symbol_id: i64) -> rusqlite::Result<Vec<String>> {
    let mut stmt = c.prepare_cached(
        "SELECT f.path || ':' || s.qualname FROM symbols s JOIN files f ON f.id = s.file_id
         WHERE s.parent_id = ?1 AND s.kind IN ('function', 'method') ORDER BY s.start_line",
    )?;
    stmt.query_map([symbol_id], |r| r.get(0))?.collect()
}

/// Every distinct definition name in the index: the repository's vocabulary.
pub fn vocabulary(c: &Connection) -> rusqlite::Result<Vec<String>> {
    let mut stmt = c.prepare_cached("SELECT DISTINCT name FROM symbols")?;
    stmt.query_map([], |r| r.get(0))?.collect()
}

/// Whether some import line names `module` as its module (`import strconv`, `use serde`).
pub fn is_imported(c: &Connection, module: &str) -> rusqlite::Result<bool> {
    c.prepare_cached("SELECT 1 FROM imports WHERE module = ?1 LIMIT 1")?
        .query_row([module], |_| Ok(()))
        .optional()
        .map(|o| o.is_some())
}

/// The modules imported somewhere that are `name` or whose last segment is `name` ("tui" for
/// `github.com/junegunn/fzf/src/tui`, `os.path` for "path", `crate::config` for
/// "config"), the most imported first: at most `limit`.
pub fn imported_modules_ending(
    c: &Connection,
    name: &str,
    limit: usize,
) -> rusqlite::Result<Vec<String>> {
    c.prepare_cached(
        "SELECT module FROM imports
         WHERE module = ?1
            OR (length(module) > length(?1)
                AND substr(module, -length(?1)) = ?1
                AND substr(module, -length(?1) - 1, 1) IN ('/', '.', ':'))
         GROUP BY module ORDER BY count(*) DESC, module LIMIT ?2",
    )?
    .query_map(params![name, limit as i64], |r| r.get(0))?
    .collect()
}

/// The files that define `name` (by its last segment), each once.
pub fn paths_defining(c: &Connection, name: &str) -> rusqlite::Result<Vec<String>> {
    let bare = name.rsplit(['.', ':']).next().unwrap_or(name);
    c.prepare_cached(
        "SELECT DISTINCT f.path FROM symbols s JOIN files f ON f.id = s.file_id
         WHERE s.name = ?1 ORDER BY f.path LIMIT 200",
    )?
    .query_map([bare], |r| r.get(0))?
    .collect()
}

/// Files named `name` (`tqdm/rich.py`, `src/rich.rs`; a package's `rich/__init__.py` or
/// `rich/mod.rs`) with their language, shortest path first.
pub fn modules_named(c: &Connection, name: &str) -> rusqlite::Result<Vec<(String, String)>> {
    let paths: Vec<(String, String)> = c
        .prepare_cached(
            "SELECT path, lang FROM files WHERE instr(path, ?1) > 0
             ORDER BY length(path), path LIMIT 200",
        )?
        .query_map([name], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(paths
        .into_iter()
        .filter(|(p, _)| {
            let mut segs = p.rsplit('/');
            let file = segs.next().unwrap_or("");
            let stem = file.split('.').next().unwrap_or(file);
            stem == name
                || (matches!(stem, "__init__" | "mod" | "index") && segs.next() == Some(name))
        })
        .collect())
}

/// The newest commit of the history that touched a definition named `name`: its hash,
/// author date, subject, and how it touched it (`added`, `modified`, `deleted`).
pub fn last_touch(
    c: &Connection,
    name: &str,
) -> rusqlite::Result<Option<(String, String, String, String)>> {
    c.prepare_cached(
        "SELECT c.hash, c.author_date, c.subject, s.change
         FROM commit_symbols s JOIN commits c ON c.id = s.commit_id
         WHERE s.name = ?1 ORDER BY c.id DESC LIMIT 1",
    )?
    .query_row([name], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
    .optional()
}

/// Which of `names` a stated field or module-level variable has (`fields`: Go's
/// `readLimit int64` in a struct), in one scan of the table.
pub fn field_names(c: &Connection, names: &[String]) -> rusqlite::Result<Vec<String>> {
    let list = serde_json::to_string(names).unwrap_or_else(|_| "[]".into());
    let mut stmt = c.prepare_cached(
        "SELECT DISTINCT name FROM fields WHERE name IN (SELECT value FROM json_each(?1))",
    )?;
    let rows = stmt.query_map([list], |r| r.get(0))?;
    rows.collect()
}

/// Whether some definition has exactly this name.
pub fn is_defined(c: &Connection, name: &str) -> rusqlite::Result<bool> {
    let bare = name.rsplit(['.', ':']).next().unwrap_or(name);
    c.prepare_cached("SELECT 1 FROM symbols WHERE name = ?1 LIMIT 1")?
        .query_row([bare], |_| Ok(()))
        .optional()
        .map(|o| o.is_some())
}

/// Whether at least `n` definitions are named `<prefix>_…` (ASCII case folded): a C
/// library's namespace (`cJSON_Parse`, `uv_run`).
pub fn names_prefixed(c: &Connection, prefix: &str, n: usize) -> rusqlite::Result<bool> {
    let escaped: String = prefix
        .chars()
        .flat_map(|ch| match ch {
            '%' | '_' | '\\' => vec!['\\', ch],
            _ => vec![ch],
        })
        .collect();
    let found: i64 = c
        .prepare_cached(
            "SELECT count(*) FROM (SELECT 1 FROM symbols
             WHERE name LIKE ?1 || '\\_%' ESCAPE '\\' LIMIT ?2)",
        )?
        .query_row(rusqlite::params![escaped, n as i64], |r| r.get(0))?;
    Ok(found as usize >= n)
}

/// Whether the code calls `name` though no definition of the repository has it (a
/// builtin, a library's function): `who calls isinstance?`.
pub fn is_called_outside(c: &Connection, name: &str) -> rusqlite::Result<bool> {
    let bare = name.rsplit(['.', ':']).next().unwrap_or(name);
    c.prepare_cached(
        "SELECT 1 FROM calls WHERE name = ?1 AND callee_id IS NULL AND usage = 'call' LIMIT 1",
    )?
    .query_row([bare], |_| Ok(()))
    .optional()
    .map(|o| o.is_some())
}

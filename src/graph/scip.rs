//! Compiler-precise edges from SCIP indexes (<https://github.com/scip-code/scip>), written
//! by a language's own indexer (scip-typescript, scip-python, rust-analyzer, …). Runs inside
//! the index run's transaction, right after [`super::resolve`]:
//!
//! - A SCIP *document* is used only while its file is as the indexer saw it ([`Freshness`]):
//!   the content hash llmc recorded when it ran the indexer, or, for an index someone else
//!   wrote, a file modified no later than the index file. Other files keep llmc's own
//!   (heuristic) edges until the next precise run.
//! - Each symbol's *definition* occurrence is mapped to the llmc definition of that name
//!   whose lines hold it (the innermost one).
//! - Each *reference* occurrence at a call site (same line and column as the call's name)
//!   decides that call: its callee becomes the mapped definition (`precise`), or nothing
//!   when the symbol is defined outside the repository (`external`) or is not a definition
//!   llmc knows (a variable or a parameter: `unresolved`). The heuristic edge is dropped
//!   either way (`calls.precise = 1`).
//! - A reference with no call site is added as an edge (`scip_calls`) only when it is
//!   call-like: SCIP roles do not mark calls, so llmc requires the source text to apply
//!   the name right there (the next token after it, past type arguments, is `(`), the
//!   symbol to map to an llmc definition, and the occurrence to be neither a definition
//!   nor an import.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use anyhow::Result;
use protobuf::Message as _;
use rusqlite::{Connection, params};
use serde::{Deserialize, Serialize};

use scip::types::{Document, Index, PositionEncoding, SymbolRole};

/// How llmc decides that a document still covers its file.
#[derive(Debug, Clone)]
pub enum Freshness {
    /// llmc ran the indexer: the content hashes ([`crate::source::content_hash`]) of the
    /// files just before it ran, by path.
    Hashes(HashMap<String, String>),
    /// Someone else wrote the index: a file is covered when it was last modified no later
    /// than the index file (nanoseconds since the epoch).
    Mtime(i64),
}

/// One SCIP index to read.
#[derive(Debug, Clone)]
pub struct ScipSource {
    pub path: PathBuf,
    /// How answers and warnings name it (a path from the root when it is inside).
    pub label: String,
    pub freshness: Freshness,
    /// When the index was written (seconds since the epoch).
    pub written_at: i64,
    /// The indexer, when llmc ran it (`scip-python 0.6.6`).
    pub tool: Option<String>,
}

/// What one SCIP index contributed, per language (shown by `llmc status`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct ScipSourceSummary {
    pub index: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    pub written_at: i64,
    pub languages: Vec<ScipLanguage>,
    /// Call sites whose edge the index decided.
    pub decided: u64,
    /// Of those, the ones whose heuristic edge pointed elsewhere (or nowhere).
    pub changed: u64,
    /// Edges added where the file has no call site.
    pub added: u64,
}

/// One language of an index: its documents, and those whose file changed since.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct ScipLanguage {
    pub language: String,
    pub documents: u64,
    /// Files changed since the index was written: their edges are heuristic.
    pub stale: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stale_files: Vec<String>,
}

/// What the SCIP pass did.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct ScipSummary {
    pub sources: Vec<ScipSourceSummary>,
    /// Indexes that could not be read (missing, corrupt), each named.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    pub seconds: f64,
    /// Documents read (for the ingestion rate).
    pub documents: u64,
}

/// The most stale files listed per language (the count is always whole).
const STALE_LISTED: usize = 20;

/// The largest SCIP index read (a bound on memory: the file is read whole).
const MAX_INDEX_BYTES: u64 = 2 << 30;

/// Reads the SCIP index at `path`; the error says why it cannot be used.
pub fn read_index(path: &Path) -> std::result::Result<Index, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot be read ({e})"))?;
    if !meta.is_file() {
        return Err("is not a file".into());
    }
    if meta.len() > MAX_INDEX_BYTES {
        return Err(format!("is larger than {MAX_INDEX_BYTES} bytes"));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("cannot be read ({e})"))?;
    let index =
        Index::parse_from_bytes(&bytes).map_err(|e| format!("is not a SCIP index ({e})"))?;
    if index.documents.is_empty() && index.metadata.is_none() {
        return Err("is not a SCIP index (no metadata and no documents)".into());
    }
    Ok(index)
}

/// A file of the store.
struct StoredFile {
    id: i64,
    lang: String,
    hash: String,
    mtime_ns: i64,
}

/// A definition of a file: id, name, lines.
struct Def {
    id: i64,
    parent: Option<i64>,
    name: String,
    start: u32,
    end: u32,
}

/// What a SCIP symbol stands for in the repository.
#[derive(Debug, Clone)]
enum Target {
    /// An llmc definition, and the name a call of it is written with.
    Def(i64, String),
    /// Defined in the repository, but not a definition llmc records (a variable, a
    /// parameter, a field), with its name.
    NotADef(String),
    /// Defined in a document that is not used (its file changed): unknown.
    Unknown,
}

/// A fresh document, with its file's text.
struct Doc<'a> {
    doc: &'a Document,
    path: String,
    file: i64,
    text: Vec<u8>,
    /// Byte offset of each line's start.
    lines: Vec<usize>,
    utf8: bool,
}

impl Doc<'_> {
    fn line(&self, line: usize) -> &[u8] {
        let Some(&start) = self.lines.get(line) else {
            return &[];
        };
        let end = self.lines.get(line + 1).copied().unwrap_or(self.text.len());
        &self.text[start..end]
    }

    /// The byte column of a SCIP character offset on `line`.
    fn byte_col(&self, line: usize, col: usize) -> usize {
        if self.utf8 {
            return col;
        }
        let text = self.line(line);
        let s = String::from_utf8_lossy(text);
        let mut units = 0;
        for (i, ch) in s.char_indices() {
            if units >= col {
                return i;
            }
            units += ch.len_utf16();
        }
        s.len()
    }

    /// The occurrence's (0-based line, byte columns) on one line, if it lies on one.
    fn span(&self, range: &[i32]) -> Option<(usize, usize, usize)> {
        let (line, sc, ec) = match *range {
            [l, s, e] => (l, s, e),
            [l, s, el, e] if el == l => (l, s, e),
            _ => return None,
        };
        let line = usize::try_from(line).ok()?;
        let (sc, ec) = (usize::try_from(sc).ok()?, usize::try_from(ec).ok()?);
        Some((line, self.byte_col(line, sc), self.byte_col(line, ec)))
    }

    fn ident(&self, line: usize, start: usize, end: usize) -> &str {
        let text = self.line(line);
        text.get(start..end.min(text.len()))
            .and_then(|b| std::str::from_utf8(b).ok())
            .unwrap_or("")
    }

    /// Whether the name at `start..end` on `line` is applied there: the next token, past
    /// spaces, `!`/`?.` and a balanced `<…>` of type arguments, is `(`, and the word
    /// before it does not declare it (`def f(`, `function f(`: a redefinition an indexer
    /// records as a reference to the name it rebinds).
    fn applied(&self, line: usize, start: usize, end: usize) -> bool {
        let text = self.line(line);
        let before = String::from_utf8_lossy(text.get(..start).unwrap_or_default());
        let word = before.split_whitespace().next_back().unwrap_or("");
        if matches!(
            word,
            "def" | "function" | "fn" | "func" | "class" | "function*"
        ) {
            return false;
        }
        let mut i = end;
        let skip_space = |i: &mut usize| {
            while *i < text.len() && (text[*i] == b' ' || text[*i] == b'\t') {
                *i += 1;
            }
        };
        skip_space(&mut i);
        if text.get(i..i + 2) == Some(b"?.") {
            i += 2;
        } else if text.get(i) == Some(&b'!') {
            i += 1;
        }
        if text.get(i) == Some(&b'<') {
            let mut depth = 0usize;
            while i < text.len() {
                match text[i] {
                    b'<' => depth += 1,
                    b'>' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            i += 1;
                            break;
                        }
                    }
                    b'(' | b')' | b';' | b'{' | b'}' | b'=' => return false,
                    b'&' | b'|' if text.get(i + 1) == Some(&text[i]) => return false,
                    _ => {}
                }
                i += 1;
            }
            skip_space(&mut i);
        }
        text.get(i) == Some(&b'(')
    }
}

fn line_starts(text: &[u8]) -> Vec<usize> {
    let mut out = vec![0];
    out.extend(
        text.iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .map(|(i, _)| i + 1),
    );
    out
}

fn has_role(roles: i32, role: SymbolRole) -> bool {
    roles & (role as i32) != 0
}

/// The key a symbol is known by: global symbols as they are, local ones per document.
fn symbol_key(doc: &str, symbol: &str) -> String {
    if symbol.starts_with("local ") {
        format!("{doc}\u{0}{symbol}")
    } else {
        symbol.to_string()
    }
}

/// The path prefix of the index's documents from the repository root: its project root
/// when that is a directory inside `root`, else none (an index written on a copy of the
/// tree).
fn document_prefix(index: &Index, root: &Path) -> String {
    let uri = index
        .metadata
        .as_ref()
        .map(|m| m.project_root.as_str())
        .unwrap_or("");
    let Some(path) = uri.strip_prefix("file://") else {
        return String::new();
    };
    let (Ok(project), Ok(root)) = (
        std::fs::canonicalize(Path::new(path)),
        std::fs::canonicalize(root),
    ) else {
        return String::new();
    };
    match project.strip_prefix(&root) {
        Ok(rel) if !rel.as_os_str().is_empty() => {
            format!("{}/", rel.to_string_lossy().trim_end_matches('/'))
        }
        _ => String::new(),
    }
}

/// Applies the SCIP indexes in `sources` to the graph in `conn` (inside the index run's
/// transaction, after [`super::resolve`]): decided call sites are rewritten and
/// `scip_calls` is replaced. An index that cannot be read is a warning in the summary.
pub fn apply(
    conn: &Connection,
    root: &Path,
    sources: &[ScipSource],
    max_file_size: u64,
) -> Result<ScipSummary> {
    let started = std::time::Instant::now();
    let mut summary = ScipSummary::default();
    conn.execute("DELETE FROM scip_calls", [])?;
    let files = load_files(conn)?;
    let mut defs_cache: HashMap<i64, Vec<Def>> = HashMap::new();
    for source in sources {
        crate::interrupt::check()?;
        let index = match read_index(&source.path) {
            Ok(i) => i,
            Err(why) => {
                summary
                    .warnings
                    .push(format!("SCIP index {} {why}; it is not used", source.label));
                continue;
            }
        };
        let s = apply_one(
            conn,
            root,
            source,
            &index,
            &files,
            &mut defs_cache,
            max_file_size,
        )?;
        summary.documents += index.documents.len() as u64;
        summary.sources.push(s);
    }
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

fn load_files(conn: &Connection) -> Result<HashMap<String, StoredFile>> {
    let mut stmt = conn.prepare("SELECT id, path, hash, mtime_ns, lang FROM files")?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(1)?,
            StoredFile {
                id: r.get(0)?,
                hash: r.get(2)?,
                mtime_ns: r.get(3)?,
                lang: r.get(4)?,
            },
        ))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

fn file_defs<'c>(
    conn: &Connection,
    cache: &'c mut HashMap<i64, Vec<Def>>,
    file: i64,
) -> Result<&'c [Def]> {
    if let std::collections::hash_map::Entry::Vacant(slot) = cache.entry(file) {
        let mut stmt = conn.prepare_cached(
            "SELECT id, name, start_line, end_line, parent_id FROM symbols
             WHERE id BETWEEN (SELECT sym_lo FROM files WHERE id = ?1)
                          AND (SELECT sym_hi FROM files WHERE id = ?1)",
        )?;
        let defs = stmt
            .query_map([file], |r| {
                Ok(Def {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    start: r.get(2)?,
                    end: r.get(3)?,
                    parent: r.get(4)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        slot.insert(defs);
    }
    Ok(cache.get(&file).map_or(&[], |v| v.as_slice()))
}

/// The innermost definition holding 1-based `line`, optionally of a given name.
fn innermost_def<'d>(defs: &'d [Def], line: u32, name: Option<&str>) -> Option<&'d Def> {
    defs.iter()
        .filter(|d| d.start <= line && line <= d.end && name.is_none_or(|n| d.name == n))
        .max_by_key(|d| (d.start, std::cmp::Reverse(d.end)))
}

fn innermost(defs: &[Def], line: u32, name: Option<&str>) -> Option<i64> {
    innermost_def(defs, line, name).map(|d| d.id)
}

/// The llmc definition a SCIP definition occurrence named `name` on 1-based `line` is:
/// the innermost of that name holding the line, with the name its calls are written with.
/// A TypeScript `constructor` stands for its class, as `new C()` calls the class in llmc's
/// graph.
fn definition_at(defs: &[Def], line: u32, name: &str) -> Option<Target> {
    let d = innermost_def(defs, line, Some(name))?;
    if let ("constructor", Some(class)) = (name, d.parent)
        && let Some(c) = defs.iter().find(|c| c.id == class)
    {
        return Some(Target::Def(c.id, c.name.clone()));
    }
    Some(Target::Def(d.id, d.name.clone()))
}

/// The name a symbol's last descriptor gives (`get` for `` `httpx._api`/get(). ``, the
/// class for a `<constructor>`), if it parses.
fn symbol_name(symbol: &str) -> Option<String> {
    let parsed = scip::symbol::parse_symbol(symbol).ok()?;
    let mut names = parsed.descriptors.iter().rev().map(|d| d.name.as_str());
    match names.next()? {
        "<constructor>" => names.next().map(str::to_string),
        n => Some(n.to_string()),
    }
}

fn apply_one(
    conn: &Connection,
    root: &Path,
    source: &ScipSource,
    index: &Index,
    files: &HashMap<String, StoredFile>,
    defs_cache: &mut HashMap<i64, Vec<Def>>,
    max_file_size: u64,
) -> Result<ScipSourceSummary> {
    let prefix = document_prefix(index, root);
    let mut out = ScipSourceSummary {
        index: source.label.clone(),
        tool: source.tool.clone().or_else(|| {
            index.metadata.as_ref().and_then(|m| {
                m.tool_info
                    .as_ref()
                    .map(|t| format!("{} {}", t.name, t.version).trim().to_string())
            })
        }),
        written_at: source.written_at,
        ..ScipSourceSummary::default()
    };
    let mut languages: Vec<ScipLanguage> = Vec::new();
    // Fresh documents with their text; stale ones only define symbols left unknown.
    let mut docs: Vec<Doc> = Vec::new();
    let mut targets: HashMap<String, Target> = HashMap::new();
    for doc in &index.documents {
        let path = format!("{prefix}{}", doc.relative_path.trim_start_matches("./"));
        // The language as llmc names it; the document's own word for a file llmc lacks.
        let language = match files.get(&path) {
            Some(f) => f.lang.clone(),
            None if doc.language.is_empty() => "other".to_string(),
            None => doc.language.to_lowercase(),
        };
        let at = match languages.iter().position(|l| l.language == language) {
            Some(i) => i,
            None => {
                languages.push(ScipLanguage {
                    language,
                    ..ScipLanguage::default()
                });
                languages.len() - 1
            }
        };
        let lang = &mut languages[at];
        lang.documents += 1;
        let fresh = files.get(&path).filter(|f| match &source.freshness {
            Freshness::Hashes(h) => h.get(&path) == Some(&f.hash),
            Freshness::Mtime(t) => f.mtime_ns <= *t,
        });
        let text = fresh.and_then(|_| crate::source::read(root, &path, max_file_size).ok());
        let (Some(file), Some(text)) = (fresh, text) else {
            if files.contains_key(&path) {
                lang.stale += 1;
                if lang.stale_files.len() < STALE_LISTED {
                    lang.stale_files.push(path.clone());
                }
            }
            for occ in &doc.occurrences {
                if has_role(occ.symbol_roles, SymbolRole::Definition) {
                    targets.insert(symbol_key(&path, &occ.symbol), Target::Unknown);
                }
            }
            continue;
        };
        let utf8 = doc.position_encoding.enum_value()
            == Ok(PositionEncoding::UTF8CodeUnitOffsetFromLineStart);
        docs.push(Doc {
            doc,
            path,
            file: file.id,
            lines: line_starts(&text),
            text,
            utf8,
        });
    }
    for l in &mut languages {
        l.stale_files.sort();
    }
    out.languages = languages;
    // Definitions: each symbol's definition occurrence, mapped to an llmc definition.
    for d in &docs {
        let defs = file_defs(conn, defs_cache, d.file)?;
        for occ in &d.doc.occurrences {
            if !has_role(occ.symbol_roles, SymbolRole::Definition) || occ.symbol.is_empty() {
                continue;
            }
            let key = symbol_key(&d.path, &occ.symbol);
            let target = d
                .span(&occ.range)
                .map(|(line, s, e)| {
                    let name = d.ident(line, s, e);
                    definition_at(defs, line as u32 + 1, name)
                        .unwrap_or_else(|| Target::NotADef(name.to_string()))
                })
                .unwrap_or(Target::NotADef(String::new()));
            // A symbol defined twice (a declaration and its body): a definition wins.
            match (targets.get(&key), &target) {
                (Some(Target::Def(..)), _) => {}
                _ => {
                    targets.insert(key, target);
                }
            }
        }
    }
    // A module of the repository may be reached by two names (`src.click.exceptions`
    // where it is defined, `click.exceptions` where it is imported): the definitions by
    // their last descriptor, with the path before it.
    let mut aka: HashMap<String, Vec<(String, String)>> = HashMap::new();
    for key in targets.keys() {
        if let Some((path, last)) = split_symbol(key) {
            aka.entry(last.to_string())
                .or_default()
                .push((path, key.clone()));
        }
    }
    // References: decide call sites, add call-like references without one.
    let mut decide = conn.prepare_cached(
        "UPDATE calls SET callee_id = ?2, resolution = ?3, candidates = ?4, external = ?5, precise = 1
         WHERE id = ?1",
    )?;
    let mut add = conn.prepare_cached(
        "INSERT INTO scip_calls (file_id, caller_id, line, col, name, callee_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for d in &docs {
        crate::interrupt::check()?;
        let calls = file_calls(conn, d.file)?;
        let by_pos: HashMap<(u32, u32), usize> = calls
            .iter()
            .enumerate()
            .map(|(i, c)| ((c.line, c.col), i))
            .collect();
        let mut by_name: HashMap<(u32, &str), Vec<usize>> = HashMap::new();
        for (i, c) in calls.iter().enumerate() {
            by_name
                .entry((c.line, c.name.as_str()))
                .or_default()
                .push(i);
        }
        // The call sites decided, with the definition each was given (none for a call
        // that leaves the repository or reaches no definition), and the further ones added.
        let mut decided: HashMap<usize, Option<i64>> = HashMap::new();
        let mut also: HashSet<(usize, i64)> = HashSet::new();
        let aliases = file_aliases(conn, d.file)?;
        let defs = file_defs(conn, defs_cache, d.file)?;
        for occ in &d.doc.occurrences {
            let roles = occ.symbol_roles;
            if occ.symbol.is_empty()
                || has_role(roles, SymbolRole::Definition)
                || has_role(roles, SymbolRole::Import)
                || has_role(roles, SymbolRole::WriteAccess)
            {
                continue;
            }
            let Some((line, s, e)) = d.span(&occ.range) else {
                continue;
            };
            let name = d.ident(line, s, e);
            let (line1, col1) = (line as u32 + 1, s as u32 + 1);
            let call = by_pos.get(&(line1, col1)).copied().or_else(|| {
                // The same name on the same line, when it is there once.
                match by_name.get(&(line1, name)).map(Vec::as_slice) {
                    Some([one]) => Some(*one),
                    _ => None,
                }
            });
            let key = symbol_key(&d.path, &occ.symbol);
            let target = match targets
                .get(&key)
                .or_else(|| same_module(&aka, &targets, &key))
            {
                Some(t) => t.clone(),
                None if occ.symbol.starts_with("local ") => continue,
                // Defined by no document of the index: outside the repository.
                None => {
                    // Only where the call names the symbol (an indexer's slip shows as
                    // another name).
                    if let Some(i) = call
                        && symbol_name(&occ.symbol).as_deref() == Some(name)
                        && decided.insert(i, None).is_none()
                    {
                        let c = &calls[i];
                        let external = external_name(&occ.symbol, name);
                        if c.old != (None, Some("external".into()), Some(external.clone())) {
                            out.changed += 1;
                        }
                        decide.execute(params![c.id, None::<i64>, "external", 0, external])?;
                        out.decided += 1;
                    }
                    continue;
                }
            };
            // A reference whose written name is not the definition's: an alias
            // (`import {a as b}`), or an indexer's slip (scip-python 0.6.6 gives
            // `httpx.Response` the symbol of `Request`). Neither is trusted over llmc's own
            // edge.
            if let Target::Def(_, def_name) | Target::NotADef(def_name) = &target
                && def_name != name
                && aliases.get(name) != Some(def_name)
            {
                continue;
            }
            match (call, target) {
                (_, Target::Unknown) => {}
                (Some(i), Target::Def(id, _)) => {
                    match decided.entry(i) {
                        Entry::Vacant(v) => {
                            v.insert(Some(id));
                            let c = &calls[i];
                            if c.old.0 != Some(id) {
                                out.changed += 1;
                            }
                            decide.execute(params![c.id, id, "precise", 1, None::<String>])?;
                            out.decided += 1;
                        }
                        // A second definition for the same call: a method of each member
                        // of a union type (`Ok | Err`), both reached.
                        Entry::Occupied(first)
                            if first.get().is_some_and(|f| f != id) && also.insert((i, id)) =>
                        {
                            let c = &calls[i];
                            let caller = innermost(defs, line1, None).filter(|&c| c != id);
                            add.execute(params![d.file, caller, c.line, c.col, c.name, id])?;
                            out.added += 1;
                        }
                        Entry::Occupied(_) => {}
                    }
                }
                (Some(i), Target::NotADef(_)) => {
                    if decided.insert(i, None).is_none() {
                        let c = &calls[i];
                        if c.old.0.is_some() {
                            out.changed += 1;
                        }
                        decide.execute(params![c.id, None::<i64>, "unresolved", 0, c.name])?;
                        out.decided += 1;
                    }
                }
                (None, Target::Def(id, _)) => {
                    if d.applied(line, s, e) {
                        let caller = innermost(defs, line1, None).filter(|&c| c != id);
                        add.execute(params![d.file, caller, line1, col1, name, id])?;
                        out.added += 1;
                    }
                }
                (None, Target::NotADef(_)) => {}
            }
        }
    }
    Ok(out)
}

/// A global symbol's descriptors as (the path before the last one, normalised to
/// `/`-separated words without backquotes, the last one): `` `src.click.exceptions`/BadParameter# ``
/// → (`src/click/exceptions`, `BadParameter#`).
fn split_symbol(symbol: &str) -> Option<(String, &str)> {
    if symbol.starts_with("local ") {
        return None;
    }
    let descriptors = symbol.splitn(5, ' ').nth(4)?;
    let (path, _) = descriptors.trim_end_matches('/').rsplit_once('/')?;
    let last = &descriptors[path.len() + 1..];
    let path = path.replace('`', "").replace('.', "/");
    Some((path, last))
}

/// The target of a symbol no document defines under that name, when exactly one
/// definition has its last descriptor under a path that ends with the symbol's path.
fn same_module<'t>(
    aka: &HashMap<String, Vec<(String, String)>>,
    targets: &'t HashMap<String, Target>,
    symbol: &str,
) -> Option<&'t Target> {
    let (path, last) = split_symbol(symbol)?;
    let suffix = format!("/{path}");
    let mut found = aka
        .get(last)?
        .iter()
        .filter(|(p, _)| p.ends_with(&suffix) || *p == path);
    match (found.next(), found.next()) {
        (Some((_, key)), None) => targets.get(key),
        _ => None,
    }
}

/// A file's import aliases: the local name → the imported one (`import {a as b}`,
/// `from m import a as b`).
fn file_aliases(conn: &Connection, file: i64) -> Result<HashMap<String, String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT alias, name FROM imports
         WHERE id BETWEEN (SELECT imports_lo FROM files WHERE id = ?1)
                      AND (SELECT imports_hi FROM files WHERE id = ?1)
           AND alias IS NOT NULL AND name IS NOT NULL",
    )?;
    let rows = stmt.query_map([file], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// A call site of a file, with its current callee columns.
struct CallAt {
    id: i64,
    line: u32,
    col: u32,
    name: String,
    /// callee, resolution, external.
    old: (Option<i64>, Option<String>, Option<String>),
}

fn file_calls(conn: &Connection, file: i64) -> Result<Vec<CallAt>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, line, col, name, callee_id, resolution, external FROM calls
         WHERE id BETWEEN (SELECT calls_lo FROM files WHERE id = ?1)
                      AND (SELECT calls_hi FROM files WHERE id = ?1)",
    )?;
    let rows = stmt.query_map([file], |r| {
        Ok(CallAt {
            id: r.get(0)?,
            line: r.get(1)?,
            col: r.get(2)?,
            name: r.get(3)?,
            old: (r.get(4)?, r.get(5)?, r.get(6)?),
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// How an external call names its callee: the SCIP symbol's package and descriptors
/// (`npm typescript 5.0 lib/lib.es5.d.ts/Array#push().` → `typescript lib/lib.es5.d.ts/Array#push().`),
/// or the name as written when the symbol does not parse.
fn external_name(symbol: &str, written: &str) -> String {
    let mut parts = symbol.splitn(5, ' ');
    let (_scheme, _manager, package, _version, descriptors) = (
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
    );
    match (package, descriptors) {
        (Some(p), Some(d)) if p != "." => format!("{p} {d}"),
        (_, Some(d)) => d.to_string(),
        _ => written.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Doc<'static> {
        static EMPTY: std::sync::OnceLock<Document> = std::sync::OnceLock::new();
        let bytes = text.as_bytes().to_vec();
        Doc {
            doc: EMPTY.get_or_init(Document::new),
            path: "a.ts".into(),
            file: 1,
            lines: line_starts(&bytes),
            text: bytes,
            utf8: false,
        }
    }

    #[test]
    fn a_name_is_applied_when_a_parenthesis_follows() {
        let d = doc("a = f(1); g <T>(x); h; k?.(); m<A<B>>(); n < 3 && o > (p)\n");
        let at = |name: &str| {
            let s = d.ident(0, 0, 100).find(name).expect("name");
            d.applied(0, s, s + name.len())
        };
        assert!(at("f"));
        assert!(at("g"));
        assert!(!at("h"));
        assert!(at("k"));
        assert!(at("m"));
        assert!(!at("n"), "a comparison is not a type argument list");
        let d = doc("    def g(x):\n");
        assert!(!d.applied(0, 8, 9), "a definition's own name is not a call");
    }

    #[test]
    fn utf16_columns_become_byte_columns() {
        let d = doc("s = \"é😀\"; f()\n");
        // `f` is at UTF-16 column 11 (é is 1 unit, 😀 is 2) and byte column 14.
        assert_eq!(d.byte_col(0, 11), 14);
        assert_eq!(d.ident(0, 14, 15), "f");
    }

    #[test]
    fn a_module_reached_by_a_shorter_name_is_the_same_module() {
        let def = "scip-python python click 1 `src.click.exceptions`/BadParameter#";
        let used = "scip-python python click 1 `click.exceptions`/BadParameter#";
        let other = "scip-python python click 1 `other.exceptions`/BadParameter#";
        let mut targets = HashMap::new();
        targets.insert(def.to_string(), Target::Def(7, "BadParameter".into()));
        let mut aka: HashMap<String, Vec<(String, String)>> = HashMap::new();
        let (path, last) = split_symbol(def).expect("parses");
        assert_eq!(
            (path.as_str(), last),
            ("src/click/exceptions", "BadParameter#")
        );
        aka.entry(last.into()).or_default().push((path, def.into()));
        assert!(matches!(
            same_module(&aka, &targets, used),
            Some(Target::Def(7, _))
        ));
        assert!(same_module(&aka, &targets, other).is_none());
    }

    #[test]
    fn symbol_names_are_the_last_descriptor() {
        assert_eq!(
            symbol_name("scip-python python httpx 0 `httpx._api`/get().").as_deref(),
            Some("get")
        );
        assert_eq!(
            symbol_name("scip-typescript npm ky 1.0 source/core/`Ky.ts`/Ky#`<constructor>`().")
                .as_deref(),
            Some("Ky")
        );
    }

    #[test]
    fn external_names_keep_package_and_descriptors() {
        assert_eq!(
            external_name("scip-python python httpx 0.1 `httpx._api`/get().", "get"),
            "httpx `httpx._api`/get()."
        );
        assert_eq!(external_name("weird", "w"), "w");
    }
}

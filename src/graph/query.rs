//! Questions to the code graph: the definitions a target names, their callers and
//! callees (transitively, with cycles cut), and the imports of a file and its importers.
//! Reads the store only; `app::graph` renders the answers.

use std::collections::{HashMap, HashSet};

use anyhow::Result;
use rusqlite::{Connection, OptionalExtension, params_from_iter};
use serde::Serialize;

use crate::model::{DefKind, ImportKind, Resolution, SymbolKind, Usage};
use crate::store::Store;

/// What a graph question asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    Callers,
    Callees,
    Defs,
    Imports,
    Importers,
}

/// Options of a graph question.
#[derive(Debug, Clone)]
pub struct GraphQuery {
    pub relation: Relation,
    pub target: String,
    /// 1 for direct edges; more follows edges transitively.
    pub depth: u32,
    /// The weakest resolution to keep. `None`: for `callers`, the edges resolved by
    /// evidence (`exact`, `import`, `scope`), with name-only matches counted apart in
    /// [`Answer::set_aside`]; for `callees`, everything, external and unresolved included.
    pub min_resolution: Option<Resolution>,
}

/// A definition the target names.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct Def {
    #[serde(skip)]
    pub id: i64,
    pub path: String,
    pub line: u32,
    pub end_line: u32,
    pub symbol: String,
    pub kind: DefKind,
}

/// One row of an answer: a call site (or an import line) and the symbol at its other
/// end.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct Row {
    /// Where the edge is written: the call site or the import line.
    pub path: String,
    pub line: u32,
    /// The caller (for `callers`), the callee (for `callees`), the module (for imports).
    pub symbol: String,
    pub resolution: Resolution,
    pub depth: u32,
    /// How many definitions the call could have meant.
    pub candidates: i64,
    /// Which of the target's candidates (`path:symbol`) the row answers for.
    pub target: String,
    /// For `callees`: where the callee is defined, when it is in the repository.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub defined_at: Option<String>,
    /// For `references`: how the name is used there (`decorator`, `value`).
    #[serde(default, skip_serializing_if = "Usage::is_call")]
    pub usage: Usage,
    /// For rows past depth 1: the definition whose call site (callers) or body (callees)
    /// the row continues from, so a tree can be read back from the rows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// For `callers` in C and C++: the macros the call is written through, outermost
    /// first (`next → zgetc`: the row's line uses `next`, whose expansion reaches the
    /// target through `zgetc`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub through: Option<String>,
    #[serde(skip)]
    next: Option<i64>,
    /// For `callers`: the call is written inside a C or C++ function-like macro (`next`
    /// is the macro), whose uses [`through_macros`] puts in its place.
    #[serde(skip)]
    in_macro: bool,
    /// The definition id the row was reached from.
    #[serde(skip)]
    from: Option<i64>,
}

impl Row {
    /// A direct call site (depth 1) read by name or by use, with nothing to follow
    /// from it.
    fn direct(
        (path, line, symbol): (String, u32, String),
        resolution: Resolution,
        candidates: i64,
        target: String,
        usage: Usage,
    ) -> Row {
        Row {
            path,
            line,
            symbol,
            resolution,
            depth: 1,
            candidates,
            target,
            defined_at: None,
            usage,
            next: None,
            via: None,
            through: None,
            in_macro: false,
            from: None,
        }
    }

    /// The symbol part of [`Row::target`] (`Matcher::find` of `src/lib.rs:Matcher::find`).
    pub fn target_symbol(&self) -> &str {
        self.target
            .split_once(':')
            .map_or(self.target.as_str(), |(_, q)| q)
    }
}

/// The answer to a graph question.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    pub target: String,
    pub candidates: Vec<Def>,
    pub results: Vec<Row>,
    /// What `callers` left out of `results` and why, so that "no callers" can be told
    /// from "none proven".
    pub set_aside: SetAside,
    /// For `callers`/`callees` of a bare name: the other definitions with that name (methods,
    /// nested functions) left out because a top-level definition has exactly that name.
    pub also_named: Vec<Def>,
    /// For `callers` of a function or method: the places that use it without calling it
    /// (applied as a decorator, passed as a value), proven by evidence as callers are.
    pub references: Vec<Row>,
    /// For `callers` of a method that implements a trait's or interface's method: the calls
    /// of that trait method (`m.find()` with `m: &dyn Matcher` or `M: Matcher`), which
    /// dispatch may send to this implementation or another. `target` names the trait method.
    pub through_trait: Vec<Row>,
}

impl Answer {
    /// An answer of candidates and rows alone: nothing set aside, no other names, no
    /// references or calls through a trait.
    fn plain(target: String, candidates: Vec<Def>, results: Vec<Row>) -> Answer {
        Answer {
            target,
            candidates,
            results,
            set_aside: SetAside::default(),
            also_named: Vec::new(),
            references: Vec::new(),
            through_trait: Vec::new(),
        }
    }
}

/// Call sites a `callers` answer does not list as callers (direct ones only).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct SetAside {
    /// Matched to a candidate by name alone: the name is defined once in the repository,
    /// nothing proves the call means it (`--resolution name-only` lists them).
    pub name_only: usize,
    /// Call sites with the candidate's name that could not be resolved to anything (an
    /// unknown receiver): some may be calls of it.
    pub unresolved: usize,
}

/// Runs a graph question against the store.
pub fn query(store: &Store, q: &GraphQuery) -> Result<Answer> {
    store.read(|c| run(c, q))
}

fn run(c: &Connection, q: &GraphQuery) -> rusqlite::Result<Answer> {
    match q.relation {
        Relation::Imports | Relation::Importers => {
            let mut files = find_files(c, &q.target)?;
            if files.is_empty() {
                files = module_files(c, &q.target)?;
            }
            // Who imports a name a file here defines (`import { createStore } from
            // './vanilla'`, `from black.cache import get_cache_dir`): the import lines
            // that name it and resolve to a file defining it.
            if files.is_empty() && q.relation == Relation::Importers {
                let (defs, results) = name_importers(c, &q.target)?;
                if !results.is_empty() {
                    return Ok(Answer::plain(q.target.clone(), defs, results));
                }
            }
            // Who imports a package that is no file here (`math`, `std::process`): the
            // import lines that name it.
            if files.is_empty() && q.relation == Relation::Importers {
                let results = package_importers(c, &q.target)?;
                return Ok(by_name_only(&q.target, DefKind::Package, results));
            }
            let candidates: Vec<Def> = files
                .iter()
                .map(|(id, path)| Def {
                    id: *id,
                    path: path.clone(),
                    line: 1,
                    end_line: 1,
                    symbol: path.clone(),
                    kind: DefKind::File,
                })
                .collect();
            let mut results = Vec::new();
            for (id, path) in &files {
                if q.relation == Relation::Imports {
                    results.extend(imports_of(c, *id, path)?);
                } else {
                    results.extend(importers_of(c, *id, path)?);
                }
            }
            Ok(Answer::plain(q.target.clone(), candidates, results))
        }
        Relation::Defs | Relation::Callers | Relation::Callees => {
            let mut candidates = find_defs(c, &q.target)?;
            // Who calls a name the repository does not define (`isinstance`,
            // `ValueError`, `os.path.join`): the call sites that name it.
            if candidates.is_empty()
                && q.relation == Relation::Callers
                && matches!(q.min_resolution, None | Some(Resolution::Unresolved))
            {
                let results = external_callers(c, &q.target)?;
                return Ok(by_name_only(&q.target, DefKind::External, results));
            }
            let mut also_named = match q.relation {
                Relation::Defs => Vec::new(),
                _ => narrow_bare(&q.target, &mut candidates),
            };
            // A top-level definition nothing calls (Go's package-level `VarP`, which
            // wraps `CommandLine.VarP`) does not hide same-named methods that are called:
            // answer for each.
            let mut walked = match q.relation {
                Relation::Defs => Vec::new(),
                _ => walk(c, q, &candidates)?,
            };
            if q.relation == Relation::Callers && walked.is_empty() && !also_named.is_empty() {
                // The top-level candidates give no row: the others' rows are the answer
                // (each candidate is walked on its own, so order is theirs).
                let others = walk(c, q, &also_named)?;
                if !others.is_empty() {
                    walked = others;
                    candidates.append(&mut also_named);
                    candidates.sort_by(|a, b| a.path.cmp(&b.path).then(a.line.cmp(&b.line)));
                }
            }
            let results = match q.relation {
                Relation::Defs => candidates
                    .iter()
                    .map(|d| Row {
                        path: d.path.clone(),
                        line: d.line,
                        symbol: d.symbol.clone(),
                        resolution: Resolution::Exact,
                        depth: 0,
                        candidates: candidates.len() as i64,
                        target: format!("{}:{}", d.path, d.symbol),
                        defined_at: None,
                        usage: Usage::Call,
                        next: None,
                        via: None,
                        through: None,
                        in_macro: false,
                        from: None,
                    })
                    .collect(),
                _ => walked,
            };
            let mut results = results;
            if q.relation == Relation::Callers && q.min_resolution == Some(Resolution::Unresolved) {
                results.extend(unresolved_named(c, &candidates)?);
            }
            let (set_aside, references, through_trait) = if q.relation == Relation::Callers {
                (
                    set_aside(c, q, &candidates)?,
                    references_of(c, &candidates)?,
                    through_trait(c, &candidates)?,
                )
            } else {
                (SetAside::default(), Vec::new(), Vec::new())
            };
            Ok(Answer {
                target: q.target.clone(),
                candidates,
                results,
                set_aside,
                also_named,
                references,
                through_trait,
            })
        }
    }
}

/// The answer about a target the repository has no definition or file of (a package,
/// an external name): the rows that name it, under one candidate of `kind` when there
/// are any.
fn by_name_only(target: &str, kind: DefKind, results: Vec<Row>) -> Answer {
    let candidates = if results.is_empty() {
        Vec::new()
    } else {
        vec![Def {
            id: 0,
            path: String::new(),
            line: 0,
            end_line: 0,
            symbol: target.to_string(),
            kind,
        }]
    };
    Answer::plain(target.to_string(), candidates, results)
}

/// A bare name (`get`) asked for callers or callees means the definitions whose qualified
/// name is exactly that name (a free function, a top-level class) when there are any; the
/// same-named methods and nested functions (`Client.get`) are named with their type or path.
/// Returns the definitions left out.
fn narrow_bare(target: &str, candidates: &mut Vec<Def>) -> Vec<Def> {
    let (_, name) = split_path_target(target);
    let qualified = name.contains(['.', ':']);
    if qualified || !candidates.iter().any(|d| d.symbol == name) {
        return Vec::new();
    }
    // A test function named like a method of the code under test (`contents_first` and
    // `WalkDir::contents_first`) is not what a bare name asks about: answer for each.
    let in_tests = |d: &Def| crate::source::is_test_path(&d.path);
    if candidates.iter().filter(|d| d.symbol == name).all(in_tests)
        && candidates.iter().any(|d| d.symbol != name && !in_tests(d))
    {
        return Vec::new();
    }
    let (keep, others): (Vec<Def>, Vec<Def>) = candidates.drain(..).partition(|d| d.symbol == name);
    *candidates = keep;
    others
}

/// `--resolution` keeps edges at least as strong as the level it names (never
/// `external` or `unresolved` ones). Without it, callers are the edges proven by evidence:
/// a name-only match is a guess, counted apart ([`SetAside`]).
fn keep(q: &GraphQuery, resolution: Resolution) -> bool {
    match q.min_resolution {
        None if q.relation == Relation::Callers => resolution <= Resolution::Scope,
        None => true,
        Some(Resolution::Unresolved) => true,
        Some(min) => resolution.is_edge() && resolution <= min,
    }
}

/// What a default `callers` answer leaves out, over the candidates' direct call sites.
fn set_aside(c: &Connection, q: &GraphQuery, candidates: &[Def]) -> rusqlite::Result<SetAside> {
    let mut out = SetAside::default();
    if q.min_resolution.is_none() {
        let mut stmt = c.prepare_cached(
            "SELECT count(*) FROM calls WHERE callee_id = ?1 AND resolution = 'name-only' AND usage = 'call'",
        )?;
        for d in candidates {
            out.name_only += stmt.query_row([d.id], |r| r.get::<_, i64>(0))? as usize;
        }
    }
    if q.min_resolution == Some(Resolution::Unresolved) {
        return Ok(out); // listed, not set aside
    }
    let mut stmt = c.prepare_cached(
        "SELECT count(*) FROM calls WHERE name = ?1 AND callee_id IS NULL AND resolution = 'unresolved'
           AND usage = 'call'",
    )?;
    for n in bare_names(candidates) {
        out.unresolved += stmt.query_row([n], |r| r.get::<_, i64>(0))? as usize;
    }
    Ok(out)
}

/// The bare names of the candidates, once each (`Client.get` → `get`).
fn bare_names(candidates: &[Def]) -> Vec<&str> {
    let mut names: Vec<&str> = candidates
        .iter()
        .map(|d| d.symbol.rsplit(['.', ':']).next().unwrap_or(&d.symbol))
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// The call sites with a candidate's name that nothing resolved (an unknown receiver),
/// for `--resolution unresolved`: some may be calls of it, none is proven.
fn unresolved_named(c: &Connection, candidates: &[Def]) -> rusqlite::Result<Vec<Row>> {
    let mut stmt = c.prepare_cached(
        "SELECT f.path, k.line, coalesce(s.qualname, '<file>'), k.candidates
         FROM calls k JOIN files f ON f.id = k.file_id LEFT JOIN symbols s ON s.id = k.caller_id
         WHERE k.name = ?1 AND k.callee_id IS NULL AND k.resolution = 'unresolved'
           AND k.usage = 'call'
         ORDER BY f.path, k.line, k.col",
    )?;
    let mut out = Vec::new();
    for name in bare_names(candidates) {
        let rows = stmt.query_map([name], |r| {
            Ok(Row::direct(
                (r.get(0)?, r.get(1)?, r.get(2)?),
                Resolution::Unresolved,
                r.get(3)?,
                name.to_string(),
                Usage::Call,
            ))
        })?;
        for row in rows {
            out.push(row?);
        }
    }
    Ok(out)
}

/// The call sites of a name no definition of the repository has: a bare name (`join`)
/// matches every such call written with it; a qualified one (`os.path.join`) the calls
/// resolved to that external name or written with that qualifier. Each row's `target` is
/// the external name the call was resolved to, when it was.
fn external_callers(c: &Connection, target: &str) -> rusqlite::Result<Vec<Row>> {
    let t = target.trim();
    let (qualifier, name) = match t.rsplit_once(['.', ':']) {
        Some((q, n)) => (Some(q.trim_end_matches(':')), n),
        None => (None, t),
    };
    if name.is_empty() {
        return Ok(Vec::new());
    }
    let mut stmt = c.prepare_cached(
        "SELECT f.path, k.line, coalesce(s.qualname, '<file>'), k.candidates, k.resolution,
                coalesce(k.external, k.name)
         FROM calls k JOIN files f ON f.id = k.file_id LEFT JOIN symbols s ON s.id = k.caller_id
         WHERE k.name = ?1 AND k.callee_id IS NULL AND k.usage = 'call'
           AND (?2 IS NULL OR k.external = ?3 OR k.qualifier = ?2)
         ORDER BY f.path, k.line, k.col",
    )?;
    let rows = stmt.query_map(rusqlite::params![name, qualifier, t], |r| {
        Ok(Row::direct(
            (r.get(0)?, r.get(1)?, r.get(2)?),
            r.get::<_, Option<Resolution>>(4)?
                .unwrap_or(Resolution::Unresolved),
            r.get(3)?,
            r.get(5)?,
            Usage::Call,
        ))
    })?;
    rows.collect()
}

/// The calls of the trait or interface methods the candidates implement: for a method
/// `Owner.m`, every method `m` declared in a trait or interface that a definition of
/// `Owner` names in its signature (`impl Matcher for Re`, `class Re implements Matcher`).
fn through_trait(c: &Connection, candidates: &[Def]) -> rusqlite::Result<Vec<Row>> {
    let mut traits = c.prepare_cached(
        "SELECT t.id, tf.path, t.qualname, p.name
         FROM symbols t JOIN symbols p ON p.id = t.parent_id JOIN files tf ON tf.id = t.file_id
         WHERE t.name = ?1 AND t.kind = 'method' AND p.kind IN ('trait', 'interface')
           AND tf.lang = (SELECT f.lang FROM symbols s JOIN files f ON f.id = s.file_id
                          WHERE s.id = ?2)",
    )?;
    let mut owners = c.prepare_cached(
        "SELECT s.signature FROM symbols s JOIN files f ON f.id = s.file_id
         WHERE s.name = ?1 AND s.kind IN ('impl', 'class', 'struct')
           AND f.lang = (SELECT f2.lang FROM symbols s2 JOIN files f2 ON f2.id = s2.file_id
                         WHERE s2.id = ?2)",
    )?;
    let mut out = Vec::new();
    for d in candidates {
        if d.kind != DefKind::Symbol(SymbolKind::Method) {
            continue;
        }
        let mut parts = d.symbol.rsplit(['.', ':']).filter(|p| !p.is_empty());
        let (Some(name), Some(owner)) = (parts.next(), parts.next()) else {
            continue;
        };
        let signatures: Vec<String> = owners
            .query_map(rusqlite::params![owner, d.id], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        let found: Vec<(i64, String, String, String)> = traits
            .query_map(rusqlite::params![name, d.id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })?
            .collect::<rusqlite::Result<_>>()?;
        for (id, path, qualname, trait_name) in found {
            if id == d.id || !signatures.iter().any(|s| names_word(s, &trait_name)) {
                continue;
            }
            for mut r in callers_of(c, &[id], 1)? {
                if r.resolution <= Resolution::Scope {
                    r.target = format!("{path}:{qualname}");
                    out.push(r);
                }
            }
        }
    }
    Ok(out)
}

/// Whether `text` has `word` as a whole word (a type name in a signature).
fn names_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w == word)
}

/// What an answer calls the uses of a definition that are no direct call (see
/// [`references_of`]), lower case, after "also": uses as a value or decorator, calls
/// written in a macro's body (which happen where the macro is used), or both.
pub fn references_heading(rows: &[Row]) -> &'static str {
    let in_macros = rows.iter().filter(|r| r.usage == Usage::Macro).count();
    match in_macros {
        0 => "used without being called",
        n if n == rows.len() => "called in macro bodies, where each macro is used",
        _ => "used without a direct call (as a value, a decorator or in a macro body)",
    }
}

/// The uses of the candidates that are not calls (decorators, values, calls in a macro's
/// body), for functions and methods, resolved by evidence (never by name alone).
fn references_of(c: &Connection, candidates: &[Def]) -> rusqlite::Result<Vec<Row>> {
    let mut stmt = c.prepare_cached(
        "SELECT f.path, k.line, coalesce(s.qualname, '<file>'), k.resolution, k.candidates, k.usage
         FROM calls k JOIN files f ON f.id = k.file_id LEFT JOIN symbols s ON s.id = k.caller_id
         WHERE k.callee_id = ?1 AND k.usage != 'call'
           AND k.resolution IN ('exact', 'import', 'scope')
         ORDER BY f.path, k.line, k.col",
    )?;
    let mut out = Vec::new();
    for d in candidates {
        if !matches!(
            d.kind,
            DefKind::Symbol(SymbolKind::Function | SymbolKind::Method)
        ) {
            continue;
        }
        let rows = stmt.query_map([d.id], |r| {
            Ok(Row::direct(
                (r.get(0)?, r.get(1)?, r.get(2)?),
                r.get(3)?,
                r.get(4)?,
                format!("{}:{}", d.path, d.symbol),
                Usage::parse(&r.get::<_, String>(5)?),
            ))
        })?;
        for row in rows {
            out.push(row?);
        }
    }
    Ok(out)
}

/// Breadth-first over call edges from every candidate; each definition is expanded
/// once, so cycles (recursion, mutual recursion) end the walk.
fn walk(c: &Connection, q: &GraphQuery, candidates: &[Def]) -> rusqlite::Result<Vec<Row>> {
    let mut out = Vec::new();
    for d in candidates {
        let mut found = Vec::new();
        let mut seen: HashSet<i64> = HashSet::from([d.id]);
        let mut frontier = vec![d.id];
        for depth in 1..=q.depth.max(1) {
            let rows = match q.relation {
                Relation::Callers => through_macros(c, callers_of(c, &frontier, depth)?)?,
                _ => callees_of(c, &frontier, depth)?,
            };
            let mut next = Vec::new();
            for mut r in rows {
                if !keep(q, r.resolution) {
                    continue;
                }
                r.target = format!("{}:{}", d.path, d.symbol);
                if let Some(n) = r.next
                    && seen.insert(n)
                {
                    next.push(n);
                }
                found.push(r);
            }
            if next.is_empty() {
                break;
            }
            frontier = next;
        }
        out.extend(as_tree(found));
    }
    Ok(out)
}

/// How many macros deep a call is followed through C and C++ macro expansions.
const MACRO_DEPTH: u32 = 4;

/// Callers rows with those written inside a C or C++ function-like macro replaced by the
/// macro's uses: `#define zgetc(z) … luaZ_fill(z)` makes every `zgetc(…)` a call of
/// `luaZ_fill`, as the compiler sees it once the macro is expanded. A macro nothing uses
/// keeps its own row. Each macro is expanded once (a macro calling itself ends there).
fn through_macros(c: &Connection, rows: Vec<Row>) -> rusqlite::Result<Vec<Row>> {
    let mut out = Vec::with_capacity(rows.len());
    let mut expanded: HashSet<i64> = HashSet::new();
    let mut todo: std::collections::VecDeque<(Row, u32)> =
        rows.into_iter().map(|r| (r, 0)).collect();
    let mut any = false;
    while let Some((r, level)) = todo.pop_front() {
        let macro_id = match r.next {
            Some(m) if r.in_macro && level < MACRO_DEPTH => m,
            _ => {
                out.push(r);
                continue;
            }
        };
        if !expanded.insert(macro_id) {
            continue;
        }
        let uses = callers_of(c, &[macro_id], r.depth)?;
        if uses.is_empty() {
            out.push(r);
            continue;
        }
        any = true;
        for mut u in uses {
            // As weak as the weaker of the two links.
            if r.resolution > u.resolution {
                u.resolution = r.resolution;
            }
            u.from = r.from;
            u.through = Some(match &r.through {
                Some(t) => format!("{} → {t}", r.symbol),
                None => r.symbol.clone(),
            });
            todo.push_back((u, level + 1));
        }
    }
    if any {
        out.sort_by(|a, b| a.path.cmp(&b.path).then(a.line.cmp(&b.line)));
    }
    Ok(out)
}

/// Breadth-first rows put in tree order: each row followed by the rows one level deeper
/// that continue from the definition it reaches, each of those naming it in `via`.
fn as_tree(rows: Vec<Row>) -> Vec<Row> {
    // The rows of each level by the definition they continue from, in their order.
    let mut children: HashMap<(u32, i64), std::collections::VecDeque<usize>> = HashMap::new();
    for (i, r) in rows.iter().enumerate() {
        if let (true, Some(from)) = (r.depth > 1, r.from) {
            children.entry((r.depth, from)).or_default().push_back(i);
        }
    }
    let mut taken = vec![false; rows.len()];
    let mut order = Vec::with_capacity(rows.len());
    for top in 0..rows.len() {
        if rows[top].depth != 1 {
            continue;
        }
        taken[top] = true;
        order.push((top, None));
        // An explicit stack: the depth is the user's to choose.
        let mut stack = vec![top];
        while let Some(&parent) = stack.last() {
            let child = rows[parent].next.and_then(|n| {
                children
                    .get_mut(&(rows[parent].depth + 1, n))
                    .and_then(std::collections::VecDeque::pop_front)
            });
            match child {
                Some(i) => {
                    taken[i] = true;
                    order.push((i, Some(parent)));
                    stack.push(i);
                }
                None => {
                    stack.pop();
                }
            }
        }
    }
    // Never lose a row, even one whose parent is not among them.
    order.extend((0..rows.len()).filter(|&i| !taken[i]).map(|i| (i, None)));
    let via: Vec<Option<String>> = order
        .iter()
        .map(|&(_, parent)| parent.map(|p| rows[p].symbol.clone()))
        .collect();
    let mut slots: Vec<Option<Row>> = rows.into_iter().map(Some).collect();
    order
        .into_iter()
        .zip(via)
        .filter_map(|((i, _), via)| {
            let mut r = slots[i].take()?;
            r.via = via;
            Some(r)
        })
        .collect()
}

fn placeholders(n: usize) -> String {
    vec!["?"; n].join(",")
}

fn callers_of(c: &Connection, ids: &[i64], depth: u32) -> rusqlite::Result<Vec<Row>> {
    edges(
        c,
        "SELECT f.path, k.line, coalesce(s.qualname, '<file>'), k.resolution, k.candidates,
                k.caller_id, NULL, k.callee_id,
                coalesce(s.kind = 'macro' AND f.lang IN ('c', 'cpp'), 0)
         FROM call_edges k JOIN files f ON f.id = k.file_id LEFT JOIN symbols s ON s.id = k.caller_id
         WHERE k.callee_id IN ({}) AND k.usage = 'call' ORDER BY f.path, k.line, k.col",
        ids,
        depth,
    )
}

fn callees_of(c: &Connection, ids: &[i64], depth: u32) -> rusqlite::Result<Vec<Row>> {
    edges(
        c,
        "SELECT f.path, k.line, coalesce(s.qualname, k.external, k.name), k.resolution, k.candidates,
                k.callee_id, cf.path || ':' || s.start_line, k.caller_id, 0
         FROM call_edges k JOIN files f ON f.id = k.file_id
         LEFT JOIN symbols s ON s.id = k.callee_id LEFT JOIN files cf ON cf.id = s.file_id
         WHERE k.caller_id IN ({}) AND k.usage = 'call' ORDER BY f.path, k.line, k.col",
        ids,
        depth,
    )
}

/// Runs an edge query whose `{}` takes the ids and whose columns are: path, line, the
/// symbol at the other end, resolution, candidates, the id to follow next, where that
/// symbol is defined, the id the edge starts from, and whether the call is written inside
/// a C or C++ macro (callers).
fn edges(c: &Connection, sql: &str, ids: &[i64], depth: u32) -> rusqlite::Result<Vec<Row>> {
    let sql = sql.replace("{}", &placeholders(ids.len()));
    let mut stmt = c.prepare(&sql)?;
    let rows = stmt.query_map(params_from_iter(ids), |r| {
        Ok(Row {
            path: r.get(0)?,
            line: r.get(1)?,
            symbol: r.get(2)?,
            // A call not yet resolved (never seen after an index run commits).
            resolution: r
                .get::<_, Option<Resolution>>(3)?
                .unwrap_or(Resolution::Unresolved),
            candidates: r.get(4)?,
            depth,
            target: String::new(),
            defined_at: r.get(6)?,
            usage: Usage::Call,
            next: r.get(5)?,
            via: None,
            through: None,
            in_macro: r.get(8)?,
            from: r.get(7)?,
        })
    })?;
    rows.collect()
}

/// The definitions a target names: `path:name`, `Type.method`, `Type::method`, a
/// qualified name, or a bare name.
pub fn find_defs(c: &Connection, target: &str) -> rusqlite::Result<Vec<Def>> {
    let (path, name) = split_path_target(target);
    let bare = name.rsplit(['.', ':']).next().unwrap_or(name);
    let mut stmt = c.prepare_cached(
        "SELECT s.id, f.path, s.start_line, s.end_line, s.qualname, s.kind
         FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.name = ?1
         ORDER BY f.path, s.start_line",
    )?;
    let rows = stmt.query_map([bare], |r| {
        Ok(Def {
            id: r.get(0)?,
            path: r.get(1)?,
            line: r.get(2)?,
            end_line: r.get(3)?,
            symbol: r.get(4)?,
            kind: r.get(5)?,
        })
    })?;
    let all: Vec<Def> = rows.collect::<rusqlite::Result<_>>()?;
    let qualified = name.len() > bare.len();
    let normalized = name.replace("::", ".");
    let all: Vec<Def> = all
        .into_iter()
        .filter(|d| path.is_none_or(|p| d.path == p || d.path.ends_with(&format!("/{p}"))))
        // A Rust impl block shares its type's name; the type is the definition.
        .filter(|d| d.kind != DefKind::Symbol(SymbolKind::Impl))
        .collect();
    if !qualified {
        return Ok(all);
    }
    let by_name: Vec<Def> = all
        .iter()
        .filter(|d| {
            let q = d.symbol.replace("::", ".");
            q == normalized || q.ends_with(&format!(".{normalized}"))
        })
        .cloned()
        .collect();
    if !by_name.is_empty() {
        return Ok(by_name);
    }
    // A package- or module-qualified name (`store.Parse` in Go, `models.Item` in
    // Python): the qualifier names a directory or the file's stem.
    let qualifier = normalized
        .rsplit_once('.')
        .map(|(q, _)| q.rsplit('.').next().unwrap_or(q))
        .unwrap_or("");
    Ok(all
        .into_iter()
        .filter(|d| {
            d.path.split('/').any(|seg| {
                seg == qualifier
                    || seg
                        .split_once('.')
                        .is_some_and(|(stem, _)| stem == qualifier)
            })
        })
        .collect())
}

/// `src/a.rs:name` → (Some(path), name); `Type::method` and `name` → (None, …).
pub fn split_path_target(target: &str) -> (Option<&str>, &str) {
    let bytes = target.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b':' {
            let double = bytes.get(i + 1) == Some(&b':') || (i > 0 && bytes[i - 1] == b':');
            if !double {
                return (Some(&target[..i]), &target[i + 1..]);
            }
        }
    }
    (None, target)
}

/// The files a path target names: the path itself, or files ending with it.
fn find_files(c: &Connection, target: &str) -> rusqlite::Result<Vec<(i64, String)>> {
    let t = target.trim_start_matches("./").trim_end_matches('/');
    let mut stmt = c.prepare_cached(
        "SELECT id, path FROM files
         WHERE path = ?1 OR substr(path, -length(?1) - 1) = '/' || ?1
            OR substr(path, 1, length(?1) + 1) = ?1 || '/'
         ORDER BY path",
    )?;
    let rows = stmt.query_map([t], |r| Ok((r.get(0)?, r.get(1)?)))?;
    let all: Vec<(i64, String)> = rows.collect::<rusqlite::Result<_>>()?;
    // An exact path wins over suffix and directory matches.
    if let Some(exact) = all.iter().find(|(_, p)| p == t) {
        return Ok(vec![exact.clone()]);
    }
    Ok(all)
}

/// The files a module written as code names it (`click.exceptions`, `crate::util`,
/// `./errors`) may be: its path with each language's file endings, matched as
/// [`find_files`] matches a path.
fn module_files(c: &Connection, module: &str) -> rusqlite::Result<Vec<(i64, String)>> {
    let m = module.trim().trim_start_matches("./");
    if m.is_empty() || m.contains(char::is_whitespace) {
        return Ok(Vec::new());
    }
    let base = m.replace("::", "/").replace('.', "/");
    let base = base.trim_start_matches("crate/");
    for ending in [
        ".py",
        "/__init__.py",
        ".rs",
        "/mod.rs",
        ".ts",
        ".tsx",
        ".js",
        "/index.ts",
        "/index.js",
        ".java",
    ] {
        let files = find_files(c, &format!("{base}{ending}"))?;
        if !files.is_empty() {
            return Ok(files);
        }
    }
    Ok(Vec::new())
}

/// The import lines that name a package by its module path: the module itself
/// (`import math`, `"text/template"`), one inside it (`std::process::Command`,
/// `os.path`), or a name imported from its parent (`from click import exceptions`).
fn package_importers(c: &Connection, package: &str) -> rusqlite::Result<Vec<Row>> {
    let p = package.trim();
    if p.is_empty() {
        return Ok(Vec::new());
    }
    let mut stmt = c.prepare_cached(
        "SELECT f.path, i.line, i.module, i.name, i.kind FROM imports i JOIN files f ON f.id = i.file_id
         WHERE (i.module = ?1
            OR (substr(i.module, 1, length(?1)) = ?1
                AND substr(i.module, length(?1) + 1, 1) IN ('.', ':', '/'))
            OR i.module || '.' || i.name = ?1
            OR i.module || '::' || i.name = ?1)
           AND i.kind != 'package'
         ORDER BY f.path, i.line",
    )?;
    let rows = stmt.query_map([p], |r| importer_row(r, Resolution::External, 0, p))?;
    rows.collect()
}

/// The top-level definitions of `target` (a bare name, or `path:name`) and the import
/// lines that name it and resolve to the file of one of them, or to a file that passes
/// it on: one that imports it by name (Rust's `pub use naive::NaiveDateTime` in
/// `lib.rs`, then `use crate::NaiveDateTime` elsewhere) or imports all of such a file
/// (`export * from './vanilla'`, `from .core import *`).
fn name_importers(c: &Connection, target: &str) -> rusqlite::Result<(Vec<Def>, Vec<Row>)> {
    let (_, name) = split_path_target(target);
    if name.contains(['.', ':']) {
        return Ok((Vec::new(), Vec::new()));
    }
    let defs: Vec<Def> = find_defs(c, target)?
        .into_iter()
        .filter(|d| d.symbol == name)
        .collect();
    if defs.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let file_id = |path: &str| -> rusqlite::Result<Option<i64>> {
        c.prepare_cached("SELECT id FROM files WHERE path = ?1")?
            .query_row([path], |r| r.get(0))
            .optional()
    };
    // Each file that holds the name, with the definition's file it holds it from.
    let mut carriers: HashMap<i64, String> = HashMap::new();
    for d in &defs {
        if let Some(id) = file_id(&d.path)? {
            carriers.entry(id).or_insert_with(|| d.path.clone());
        }
    }
    // Every resolved import of it or of all of a file, read once: (the row, when it names
    // it; importing file; file imported from).
    let mut imports: Vec<(Option<Row>, i64, i64)> = Vec::new();
    {
        let mut stmt = c.prepare_cached(
            "SELECT f.path, i.line, i.module, i.name, i.kind, i.file_id, i.target_file_id
             FROM imports i JOIN files f ON f.id = i.file_id
             WHERE (i.name = ?1 OR (i.wildcard = 1 AND i.name IS NULL))
               AND i.target_file_id IS NOT NULL AND i.kind != 'package'",
        )?;
        let mut rows = stmt.query([name])?;
        while let Some(r) = rows.next()? {
            let named = r.get::<_, Option<String>>(3)?.is_some();
            let row = named
                .then(|| importer_row(r, Resolution::Import, 1, ""))
                .transpose()?;
            imports.push((row, r.get(5)?, r.get(6)?));
        }
    }
    for _ in 0..MAX_REEXPORT_HOPS {
        let mut grown = false;
        for &(_, file, to) in &imports {
            if let Some(origin) = carriers.get(&to).cloned()
                && !carriers.contains_key(&file)
            {
                carriers.insert(file, origin);
                grown = true;
            }
        }
        if !grown {
            break;
        }
    }
    let mut results: Vec<Row> = imports
        .into_iter()
        .filter_map(|(row, _, to)| {
            let origin = carriers.get(&to)?;
            let mut row = row?;
            row.target = format!("{origin}:{name}");
            Some(row)
        })
        .collect();
    results.sort_by(|a, b| a.path.cmp(&b.path).then(a.line.cmp(&b.line)));
    // The definitions some line imports, not a test's function of the same name.
    let defs = defs
        .into_iter()
        .filter(|d| {
            let target = format!("{}:{name}", d.path);
            results.iter().any(|r| r.target == target)
        })
        .collect();
    Ok((defs, results))
}

/// How many files in a row may pass a name on ([`name_importers`]).
const MAX_REEXPORT_HOPS: usize = 8;

fn imports_of(c: &Connection, id: i64, path: &str) -> rusqlite::Result<Vec<Row>> {
    let mut stmt = c.prepare_cached(
        "SELECT i.line, i.module, i.name, i.alias, t.path, i.kind FROM imports i
         LEFT JOIN files t ON t.id = i.target_file_id
         WHERE i.id BETWEEN (SELECT imports_lo FROM files WHERE id = ?1)
                        AND (SELECT imports_hi FROM files WHERE id = ?1)
           AND i.kind != 'package'
         ORDER BY i.line, i.id",
    )?;
    let rows = stmt.query_map([id], |r| {
        let module = r.get::<_, ImportKind>(5)?.written(&r.get::<_, String>(1)?);
        let name: Option<String> = r.get(2)?;
        let alias: Option<String> = r.get(3)?;
        let target: Option<String> = r.get(4)?;
        let mut symbol = match &name {
            Some(n) => format!("{module} {n}"),
            None => module,
        };
        if let Some(a) = alias {
            symbol.push_str(&format!(" as {a}"));
        }
        Ok(Row {
            path: path.to_string(),
            line: r.get(0)?,
            symbol,
            resolution: if target.is_some() {
                Resolution::Import
            } else {
                Resolution::External
            },
            depth: 1,
            candidates: i64::from(target.is_some()),
            target: path.to_string(),
            defined_at: target,
            usage: Usage::Call,
            next: None,
            via: None,
            through: None,
            in_macro: false,
            from: None,
        })
    })?;
    rows.collect()
}

/// One importer row from columns `path, line, module, name, kind`.
fn importer_row(
    r: &rusqlite::Row<'_>,
    resolution: Resolution,
    candidates: i64,
    target: &str,
) -> rusqlite::Result<Row> {
    let module = r.get::<_, ImportKind>(4)?.written(&r.get::<_, String>(2)?);
    let name: Option<String> = r.get(3)?;
    Ok(Row {
        path: r.get(0)?,
        line: r.get(1)?,
        symbol: match name {
            Some(n) => format!("{module} {n}"),
            None => module,
        },
        resolution,
        depth: 1,
        candidates,
        target: target.to_string(),
        defined_at: None,
        usage: Usage::Call,
        next: None,
        via: None,
        through: None,
        in_macro: false,
        from: None,
    })
}

fn importers_of(c: &Connection, id: i64, path: &str) -> rusqlite::Result<Vec<Row>> {
    let mut stmt = c.prepare_cached(
        "SELECT f.path, i.line, i.module, i.name, i.kind FROM imports i JOIN files f ON f.id = i.file_id
         WHERE i.target_file_id = ?1 AND i.kind != 'package' ORDER BY f.path, i.line",
    )?;
    let rows = stmt.query_map([id], |r| importer_row(r, Resolution::Import, 1, path))?;
    rows.collect()
}

/// Rows counted by file, for answers too long to print whole.
pub fn by_file(rows: &[Row]) -> Vec<(String, usize)> {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for r in rows {
        *counts.entry(r.path.as_str()).or_default() += 1;
    }
    let mut v: Vec<(String, usize)> = counts
        .into_iter()
        .map(|(p, n)| (p.to_string(), n))
        .collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v
}

#[cfg(test)]
mod tests {
    use super::split_path_target;

    #[test]
    fn targets_split_paths_from_names() {
        assert_eq!(
            split_path_target("src/a.rs:load"),
            (Some("src/a.rs"), "load")
        );
        assert_eq!(split_path_target("Task::new"), (None, "Task::new"));
        assert_eq!(
            split_path_target("a.rs:Task::new"),
            (Some("a.rs"), "Task::new")
        );
        assert_eq!(
            split_path_target("Shelf.describe"),
            (None, "Shelf.describe")
        );
    }
}

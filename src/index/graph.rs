//! The code graph's resolution: every call site and import written by an index run is
//! matched to the definition or file it means, across files, best evidence first:
//! `exact` (the same scope and file), `import` (a name or module brought in by an import,
//! followed to its file), `scope` (a method on `self`/`this` or on the receiver's known
//! type, a type-qualified path, the same package or directory), and last `name-only` (a
//! name defined once in the repository). A call into anything outside the repository is
//! kept with `external` set and no callee, never attached to a same-named definition.
//!
//! Resolution reads the whole store and rewrites only the rows whose answer changed, so
//! an incremental run and `--rebuild` leave the same rows behind (a rename never leaves
//! a stale edge).

use std::collections::{HashMap, HashSet};
use std::path::Path;

use anyhow::Result;
use rayon::prelude::*;
use rusqlite::{Connection, params};

use super::lang::Lang;
use super::refs::simple_type;
use crate::model::{CallKind, SymbolKind};

/// How a call was resolved, weakest last.
pub const RESOLUTIONS: [&str; 6] = [
    "exact",
    "import",
    "scope",
    "name-only",
    "external",
    "unresolved",
];

/// What an index run changed, so that resolution revisits only the calls whose answer
/// can differ: every call in a new or changed file, every call whose name a changed or
/// deleted file defines (or defined) or exports under an alias, every call whose
/// receiver is typed by another call's result, and every call in a file whose imports
/// now lead elsewhere.
#[derive(Debug, Default, Clone)]
pub struct Affected {
    /// Resolve everything (a fresh store or `--rebuild`).
    pub all: bool,
    /// Files (new ids) written by this run.
    pub files: HashSet<i64>,
    pub names: HashSet<String>,
}

/// Past this many affected names or files, one pass over every call is cheaper than
/// the selective queries.
const SELECTIVE_LIMIT: usize = 20_000;

/// Counts from one resolution pass.
#[derive(Debug, Default, Clone, Copy)]
pub struct ResolveStats {
    pub calls: u64,
    pub updated: u64,
}

struct File {
    id: i64,
    path: String,
    lang: Option<Lang>,
    dir: String,
}

/// "None" in the compact tables below.
const NONE: u32 = u32::MAX;

/// One definition, compactly: a large repository has a million of them, and resolution
/// holds them all. Names are ids into [`Names`]; of the signature, only what resolution
/// reads from it is kept (the return type here, base classes in [`Graph::bases`]).
struct Sym {
    id: i64,
    file: u32,
    parent: u32,
    name: u32,
    /// The bare name of the type the qualified name puts it in (`Rect` for
    /// `geo.Rect.area`), or `NONE` for a name at the top of its file.
    owner: u32,
    /// The return type the signature declares (not for types), or `NONE`.
    returns: u32,
    kind: Option<SymbolKind>,
    /// The signature starts with `static` (a C function other files cannot call).
    is_static: bool,
}

impl Sym {
    fn parent(&self) -> Option<usize> {
        (self.parent != NONE).then_some(self.parent as usize)
    }
    fn file(&self) -> usize {
        self.file as usize
    }
}

/// Every distinct name (of a definition or of the type it belongs to), once, with an id.
#[derive(Default)]
struct Names {
    ids: HashMap<Box<str>, u32>,
    strs: Vec<Box<str>>,
}

impl Names {
    fn intern(&mut self, s: &str) -> u32 {
        if let Some(&id) = self.ids.get(s) {
            return id;
        }
        let id = self.strs.len() as u32;
        self.strs.push(s.into());
        self.ids.insert(s.into(), id);
        id
    }
    fn id(&self, s: &str) -> Option<u32> {
        self.ids.get(s).copied()
    }
    fn str(&self, id: u32) -> &str {
        &self.strs[id as usize]
    }
}

/// Lists of indices keyed `0..n`, flat: one offsets array and one items array instead of
/// a vector per key.
#[derive(Default)]
struct Lists {
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Lists {
    /// Groups `(key, item)` pairs by key, keeping their order within a key.
    fn group<I: Iterator<Item = (u32, u32)> + Clone>(n: usize, pairs: I) -> Lists {
        let mut start = vec![0u32; n + 1];
        for (k, _) in pairs.clone() {
            start[k as usize + 1] += 1;
        }
        for k in 0..n {
            start[k + 1] += start[k];
        }
        let mut fill = start.clone();
        let mut items = vec![0u32; start[n] as usize];
        for (k, v) in pairs {
            items[fill[k as usize] as usize] = v;
            fill[k as usize] += 1;
        }
        Lists { start, items }
    }
    fn get(&self, k: usize) -> impl Iterator<Item = usize> + '_ {
        let (a, b) = match (self.start.get(k), self.start.get(k + 1)) {
            (Some(&a), Some(&b)) => (a as usize, b as usize),
            _ => (0, 0),
        };
        self.items[a..b].iter().map(|&i| i as usize)
    }
}

struct ImportRow {
    id: i64,
    file: usize,
    module: String,
    name: Option<String>,
    alias: Option<String>,
    wildcard: bool,
    target: Option<i64>,
}

struct CallRow {
    id: i64,
    file: usize,
    caller: Option<usize>,
    name: String,
    qualifier: Option<String>,
    kind: CallKind,
    receiver_type: Option<String>,
    old: (Option<i64>, Option<String>, i64, Option<String>),
}

/// What a local name in a file stands for, from its imports.
#[derive(Debug, Clone)]
enum Binding {
    /// A module or package: these files.
    Module(Vec<usize>),
    /// A name defined in these files (`from m import f`, `use a::B`).
    Symbol(Vec<usize>, String),
    /// A member of a type (Java static import): type name, member.
    Member(Vec<usize>, String, String),
    /// Outside the repository: the full path, for the external name.
    External(String),
    /// A C++ namespace alias: the namespace it names.
    Namespace(String),
}

#[derive(Default)]
struct FileScope {
    names: HashMap<String, Binding>,
    /// Files whose top-level names are all visible (`*`, `#include`, Go dot imports).
    wildcard: Vec<usize>,
    /// Types whose members are all visible (Java `import static C.*`).
    wildcard_types: Vec<(Vec<usize>, String)>,
}

/// The outcome for one call.
#[derive(Debug, Clone, PartialEq)]
struct Outcome {
    callee: Option<usize>,
    resolution: &'static str,
    candidates: usize,
    external: Option<String>,
}

impl Outcome {
    fn to(sym: usize, resolution: &'static str, candidates: usize) -> Outcome {
        Outcome {
            callee: Some(sym),
            resolution,
            candidates,
            external: None,
        }
    }
    fn external(name: String) -> Outcome {
        Outcome {
            callee: None,
            resolution: "external",
            candidates: 0,
            external: Some(name),
        }
    }
    fn unresolved(name: String, candidates: usize) -> Outcome {
        Outcome {
            callee: None,
            resolution: "unresolved",
            candidates,
            external: Some(name),
        }
    }
}

struct Graph {
    files: Vec<File>,
    /// By file (in path order), then by id.
    syms: Vec<Sym>,
    /// (store id, position in `syms`), in id order.
    by_id: Vec<(i64, u32)>,
    names: Names,
    /// (type, base class name) for the types whose declaration names bases, by type.
    bases: Vec<(u32, u32)>,
    /// Per file: its symbols.
    file_syms: Lists,
    /// Per symbol: its children.
    children: Lists,
    /// Per name id: the symbols of that name.
    by_name: Lists,
    /// (owner type's bare name, member name, member), sorted: e.g. ("Rect", "area", s).
    members: Vec<(u32, u32, u32)>,
    by_path: HashMap<String, usize>,
    by_dir: HashMap<String, Vec<usize>>,
    python_modules: HashMap<String, Vec<usize>>,
    go_modules: Vec<(String, String)>,
    /// Per file: which Rust crate (by `src` root) it belongs to.
    crate_of: Vec<usize>,
    scopes: Vec<FileScope>,
    /// Store ids → positions in `files`.
    file_index: HashMap<i64, usize>,
}

/// Calls read, resolved (in parallel) and written back at a time, so resolution never
/// holds every call site of a large repository in memory.
const CALL_BATCH: usize = 8192;

/// Resolves every call and import in the store (inside the index run's transaction),
/// computing outcomes on `pool`.
pub fn resolve(
    conn: &Connection,
    root: &Path,
    affected: &Affected,
    pool: &rayon::ThreadPool,
) -> Result<ResolveStats> {
    let mut g = load(conn, root)?;
    let imports = load_imports(conn, &g)?;
    let mut import_targets: Vec<(i64, Option<i64>, Option<i64>)> = Vec::new();
    g.scopes = (0..g.files.len()).map(|_| FileScope::default()).collect();
    for imp in &imports {
        let (binding, targets) = g.bind_import(imp);
        let target = targets.first().map(|&f| g.files[f].id);
        import_targets.push((imp.id, imp.target, target));
        let static_types = match (&binding, imp.wildcard) {
            (None, true) => g.static_wildcard(imp),
            _ => None,
        };
        let scope = &mut g.scopes[imp.file];
        match binding {
            Some((name, b)) => {
                scope.names.insert(name, b);
            }
            None if imp.wildcard => {
                if let Some(Binding::Symbol(files, ty)) = static_types {
                    scope.wildcard_types.push((files, ty));
                } else {
                    scope.wildcard.extend(targets);
                }
            }
            None => {}
        }
    }
    // One level of transitive C/C++ includes.
    for f in 0..g.files.len() {
        if matches!(g.files[f].lang, Some(Lang::C | Lang::Cpp)) {
            let direct = g.scopes[f].wildcard.clone();
            for h in direct {
                let more = g.scopes[h].wildcard.clone();
                for m in more {
                    if m != f && !g.scopes[f].wildcard.contains(&m) {
                        g.scopes[f].wildcard.push(m);
                    }
                }
            }
        }
    }
    // Imports whose target changed: their files' calls are all revisited.
    let mut files = affected.files.clone();
    let import_files: HashMap<i64, i64> =
        imports.iter().map(|i| (i.id, g.files[i.file].id)).collect();
    let mut update = conn.prepare_cached("UPDATE imports SET target_file_id = ?2 WHERE id = ?1")?;
    for (id, old, new) in import_targets {
        if old != new {
            update.execute(params![id, new])?;
            if let Some(&f) = import_files.get(&id) {
                files.insert(f);
            }
        }
    }
    let selective = !affected.all && affected.names.len() + files.len() < SELECTIVE_LIMIT;
    let mut stats = ResolveStats::default();
    let mut update = conn.prepare_cached(
        "UPDATE calls SET callee_id = ?2, resolution = ?3, candidates = ?4, external = ?5 WHERE id = ?1",
    )?;
    let g = &g;
    let mut apply = |calls: &[CallRow]| -> Result<()> {
        // A safe point of the index run (resolution writes into its transaction).
        crate::interrupt::check()?;
        let outcomes: Vec<Outcome> =
            pool.install(|| calls.par_iter().map(|c| g.resolve_call(c, 0)).collect());
        for (c, o) in calls.iter().zip(outcomes) {
            stats.calls += 1;
            let new = (
                o.callee.map(|s| g.syms[s].id),
                Some(o.resolution),
                o.candidates as i64,
                o.external,
            );
            if (new.0, new.1, new.2, &new.3) != (c.old.0, c.old.1.as_deref(), c.old.2, &c.old.3) {
                update.execute(params![c.id, new.0, new.1, new.2, new.3])?;
                stats.updated += 1;
            }
        }
        Ok(())
    };
    if selective {
        let calls = load_affected_calls(conn, g, &files, &affected.names)?;
        for batch in calls.chunks(CALL_BATCH) {
            apply(batch)?;
        }
    } else {
        // Every call, a batch at a time in id order: each batch is read completely
        // before its updates are written.
        let mut stmt = conn.prepare(&format!(
            "SELECT {CALL_COLUMNS} FROM calls WHERE id > ?1 ORDER BY id LIMIT {CALL_BATCH}"
        ))?;
        let mut after = i64::MIN;
        loop {
            let mut batch = Vec::with_capacity(CALL_BATCH);
            let Some(last) = read_calls(stmt.query(params![after])?, g, &mut batch)? else {
                break;
            };
            apply(&batch)?;
            after = last;
        }
    }
    Ok(stats)
}

fn lang_of(name: &str) -> Option<Lang> {
    Lang::ALL.into_iter().find(|l| l.name() == name)
}

/// Languages whose definitions can call each other (C and C++ share headers; JS and TS
/// import each other).
fn family(l: Lang) -> u8 {
    match l {
        Lang::C | Lang::Cpp => 0,
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => 1,
        Lang::Rust => 2,
        Lang::Python => 3,
        Lang::Go => 4,
        Lang::Java => 5,
    }
}

fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

fn load(conn: &Connection, root: &Path) -> Result<Graph> {
    let mut files = Vec::new();
    let mut by_path = HashMap::new();
    let mut file_index: HashMap<i64, usize> = HashMap::new();
    {
        let mut stmt = conn.prepare("SELECT id, path, lang FROM files ORDER BY path")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let path: String = r.get(1)?;
            let lang: String = r.get(2)?;
            file_index.insert(r.get(0)?, files.len());
            by_path.insert(path.clone(), files.len());
            files.push(File {
                id: r.get(0)?,
                dir: dir_of(&path).to_string(),
                lang: lang_of(&lang),
                path,
            });
        }
    }
    let mut syms: Vec<Sym> = Vec::new();
    let mut names = Names::default();
    let mut base_list = Vec::new();
    // Parents stored after their children (rare): set once every symbol is read.
    let mut later: Vec<(usize, i64)> = Vec::new();
    {
        let mut stmt = conn.prepare(
            "SELECT id, file_id, parent_id, name, qualname, kind, signature FROM symbols ORDER BY id",
        )?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let Some(&file) = file_index.get(&r.get::<_, i64>(1)?) else {
                continue;
            };
            let i = syms.len();
            let parent = match r.get::<_, Option<i64>>(2)? {
                Some(p) => match syms.binary_search_by_key(&p, |s| s.id) {
                    Ok(at) => at as u32,
                    Err(_) => {
                        later.push((i, p));
                        NONE
                    }
                },
                None => NONE,
            };
            let lang = files[file].lang;
            let sep = lang.map_or(".", Lang::separator);
            let qualname = r.get_ref(4)?.as_str()?;
            let owner = match qualname.rsplit_once(sep) {
                Some((owner, _)) => names.intern(owner.rsplit(sep).next().unwrap_or(owner)),
                None => NONE,
            };
            let name = r.get_ref(3)?.as_str()?;
            let kind = SymbolKind::parse(r.get_ref(5)?.as_str()?);
            let signature = r.get_ref(6)?.as_str()?;
            let mut returns = NONE;
            if let Some(lang) = lang {
                if is_type_kind(kind) {
                    for b in bases(lang, signature) {
                        base_list.push((i as u32, names.intern(&b)));
                    }
                } else if let Some(t) = return_type(lang, signature, name) {
                    returns = names.intern(&t);
                }
            }
            syms.push(Sym {
                id: r.get(0)?,
                file: file as u32,
                parent,
                name: names.intern(name),
                owner,
                returns,
                kind,
                is_static: signature.starts_with("static "),
            });
        }
    }
    for (i, p) in later {
        if let Ok(at) = syms.binary_search_by_key(&p, |s| s.id) {
            syms[i].parent = at as u32;
        }
    }
    // Where several definitions fit, resolution takes the first in `syms`. Store ids
    // follow the order the parse workers finished in, which varies from run to run; the
    // order of files by path, then of ids within a file (its own order), does not.
    let mut order: Vec<u32> = (0..syms.len() as u32).collect();
    order.sort_unstable_by_key(|&i| (syms[i as usize].file, syms[i as usize].id));
    let mut position = vec![0u32; syms.len()];
    for (new, &old) in order.iter().enumerate() {
        position[old as usize] = new as u32;
    }
    let by_id: Vec<(i64, u32)> = syms
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id, position[i]))
        .collect();
    let mut slots: Vec<Option<Sym>> = syms.into_iter().map(Some).collect();
    let syms: Vec<Sym> = order
        .iter()
        .filter_map(|&old| slots[old as usize].take())
        .map(|mut s| {
            if s.parent != NONE {
                s.parent = position[s.parent as usize];
            }
            s
        })
        .collect();
    for b in &mut base_list {
        b.0 = position[b.0 as usize];
    }
    base_list.sort_unstable();
    let file_syms = Lists::group(
        files.len(),
        syms.iter().enumerate().map(|(i, s)| (s.file, i as u32)),
    );
    let children = Lists::group(
        syms.len(),
        syms.iter()
            .enumerate()
            .filter(|(_, s)| s.parent != NONE)
            .map(|(i, s)| (s.parent, i as u32)),
    );
    let by_name = Lists::group(
        names.strs.len(),
        syms.iter().enumerate().map(|(i, s)| (s.name, i as u32)),
    );
    let mut members: Vec<(u32, u32, u32)> = syms
        .iter()
        .enumerate()
        .filter(|(_, s)| s.owner != NONE)
        .map(|(i, s)| (s.owner, s.name, i as u32))
        .collect();
    members.sort_unstable();
    let mut by_dir: HashMap<String, Vec<usize>> = HashMap::new();
    let mut python_modules: HashMap<String, Vec<usize>> = HashMap::new();
    let mut go_modules = Vec::new();
    for (i, f) in files.iter().enumerate() {
        by_dir.entry(f.dir.clone()).or_default().push(i);
        if f.lang == Some(Lang::Python) {
            let stem = f.path.trim_end_matches(".pyi").trim_end_matches(".py");
            let stem = stem.strip_suffix("/__init__").unwrap_or(stem);
            let parts: Vec<&str> = stem.split('/').collect();
            for k in 0..parts.len() {
                python_modules
                    .entry(parts[k..].join("."))
                    .or_default()
                    .push(i);
            }
        }
        if (f.path == "go.mod" || f.path.ends_with("/go.mod"))
            && let Ok(bytes) = crate::source::read(root, &f.path, 1 << 20)
            && let Ok(text) = String::from_utf8(bytes)
            && let Some(m) = text.lines().find_map(|l| l.trim().strip_prefix("module "))
        {
            go_modules.push((m.trim().trim_matches('"').to_string(), f.dir.clone()));
        }
    }
    let mut crates: HashMap<String, usize> = HashMap::new();
    let crate_of = files
        .iter()
        .map(|f| {
            let n = crates.len();
            *crates.entry(crate_root(&f.path, &f.dir).0).or_insert(n)
        })
        .collect();
    Ok(Graph {
        crate_of,
        files,
        syms,
        names,
        bases: base_list,
        by_id,
        file_syms,
        children,
        by_name,
        members,
        by_path,
        by_dir,
        python_modules,
        go_modules,
        scopes: Vec::new(),
        file_index,
    })
}

fn load_imports(conn: &Connection, g: &Graph) -> Result<Vec<ImportRow>> {
    let index = &g.file_index;
    let mut stmt = conn.prepare(
        "SELECT id, file_id, module, name, alias, wildcard, target_file_id FROM imports ORDER BY id",
    )?;
    let mut rows = stmt.query([])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        let Some(&file) = index.get(&r.get::<_, i64>(1)?) else {
            continue;
        };
        out.push(ImportRow {
            id: r.get(0)?,
            file,
            module: r.get(2)?,
            name: r.get(3)?,
            alias: r.get(4)?,
            wildcard: r.get(5)?,
            target: r.get(6)?,
        });
    }
    Ok(out)
}

const CALL_COLUMNS: &str = "id, file_id, caller_id, name, qualifier, kind, receiver_type,
    callee_id, resolution, candidates, external";

/// The calls an incremental run must revisit (see [`Affected`]).
fn load_affected_calls(
    conn: &Connection,
    g: &Graph,
    files: &HashSet<i64>,
    names: &HashSet<String>,
) -> Result<Vec<CallRow>> {
    let names: Vec<&String> = names.iter().collect();
    let names_json = serde_json::to_string(&names)?.replace('\'', "''");
    let mut calls = load_calls(
        conn,
        g,
        &format!(
            "WHERE name IN (SELECT value FROM json_each('{names_json}'))
             UNION ALL SELECT {CALL_COLUMNS} FROM calls
             WHERE receiver_call IN (SELECT value FROM json_each('{names_json}'))"
        ),
    )?;
    for f in files {
        calls.extend(load_calls(
            conn,
            g,
            &format!(
                "WHERE id BETWEEN (SELECT calls_lo FROM files WHERE id = {f})
                              AND (SELECT calls_hi FROM files WHERE id = {f})"
            ),
        )?);
    }
    calls.sort_by_key(|c| c.id);
    calls.dedup_by_key(|c| c.id);
    Ok(calls)
}

fn load_calls(conn: &Connection, g: &Graph, filter: &str) -> Result<Vec<CallRow>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT * FROM (SELECT {CALL_COLUMNS} FROM calls {filter}) ORDER BY id"
    ))?;
    let mut out = Vec::new();
    read_calls(stmt.query([])?, g, &mut out)?;
    Ok(out)
}

/// Appends the calls of `rows` (of [`CALL_COLUMNS`]) to `out`; returns the id of the
/// last row read, if any.
fn read_calls(
    mut rows: rusqlite::Rows<'_>,
    g: &Graph,
    out: &mut Vec<CallRow>,
) -> Result<Option<i64>> {
    let mut last = None;
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        last = Some(id);
        let Some(&file) = g.file_index.get(&r.get::<_, i64>(1)?) else {
            continue;
        };
        out.push(CallRow {
            id,
            file,
            caller: r.get::<_, Option<i64>>(2)?.and_then(|c| {
                let at = g.by_id.binary_search_by_key(&c, |&(id, _)| id).ok()?;
                Some(g.by_id[at].1 as usize)
            }),
            name: r.get(3)?,
            qualifier: r.get(4)?,
            kind: CallKind::parse(&r.get::<_, String>(5)?),
            receiver_type: r.get(6)?,
            old: (r.get(7)?, r.get(8)?, r.get(9)?, r.get(10)?),
        });
    }
    Ok(last)
}

const PY_BUILTINS: &[&str] = &[
    "abs",
    "all",
    "any",
    "bool",
    "bytes",
    "callable",
    "chr",
    "dict",
    "dir",
    "divmod",
    "enumerate",
    "filter",
    "float",
    "format",
    "frozenset",
    "getattr",
    "hasattr",
    "hash",
    "id",
    "input",
    "int",
    "isinstance",
    "issubclass",
    "iter",
    "len",
    "list",
    "map",
    "max",
    "min",
    "next",
    "object",
    "open",
    "ord",
    "pow",
    "print",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "setattr",
    "slice",
    "sorted",
    "str",
    "sum",
    "super",
    "tuple",
    "type",
    "vars",
    "zip",
];
const GO_BUILTINS: &[&str] = &[
    "append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len", "make", "max",
    "min", "new", "panic", "print", "println", "real", "recover",
];

fn is_builtin(lang: Lang, name: &str) -> bool {
    match lang {
        Lang::Python => PY_BUILTINS.contains(&name),
        Lang::Go => GO_BUILTINS.contains(&name),
        Lang::Rust => matches!(name, "Ok" | "Err" | "Some" | "Box" | "drop"),
        _ => false,
    }
}

/// Objects every program of the language can reach without an import.
fn is_global_object(lang: Lang, name: &str) -> bool {
    match lang {
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => matches!(
            name,
            "console"
                | "Math"
                | "JSON"
                | "Object"
                | "Array"
                | "Promise"
                | "process"
                | "document"
                | "window"
                | "Number"
                | "String"
                | "Date"
                | "Reflect"
                | "Symbol"
                | "globalThis"
        ),
        Lang::Java => matches!(
            name,
            "System" | "Math" | "String" | "Integer" | "Objects" | "Arrays" | "List" | "Map"
        ),
        _ => false,
    }
}

fn is_caps(s: &str) -> bool {
    s.chars().any(|c| c.is_ascii_uppercase())
        && s.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

fn is_type_kind(kind: Option<SymbolKind>) -> bool {
    use SymbolKind::*;
    matches!(kind, Some(Class | Struct | Enum | Trait | Interface | Type))
}

fn is_container(kind: Option<SymbolKind>) -> bool {
    is_type_kind(kind) || kind == Some(SymbolKind::Impl)
}

/// The base classes a class declaration names.
fn bases(lang: Lang, sig: &str) -> Vec<String> {
    let list: Vec<&str> = match lang {
        Lang::Python => {
            let Some(open) = sig.find('(') else {
                return Vec::new();
            };
            let inner = sig[open + 1..].rsplit_once(')').map_or("", |(a, _)| a);
            inner.split(',').filter(|b| !b.contains('=')).collect()
        }
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx | Lang::Java => {
            let mut out = Vec::new();
            let words: Vec<&str> = sig
                .split([' ', ',', '{'])
                .filter(|w| !w.is_empty())
                .collect();
            let mut take = false;
            for w in words {
                match w {
                    "extends" | "implements" => take = true,
                    _ if take => out.push(w),
                    _ => {}
                }
            }
            out
        }
        Lang::Cpp => match sig.split_once(" : ") {
            Some((_, rest)) => rest
                .split([',', '{'])
                .map(|b| {
                    b.trim()
                        .trim_start_matches("public ")
                        .trim_start_matches("protected ")
                        .trim_start_matches("private ")
                        .trim_start_matches("virtual ")
                })
                .collect(),
            None => Vec::new(),
        },
        _ => Vec::new(),
    };
    list.into_iter()
        .map(simple_type)
        .filter(|b| !b.is_empty() && b != "object")
        .collect()
}

/// The return type a signature declares, as a bare type name.
fn return_type(lang: Lang, sig: &str, name: &str) -> Option<String> {
    let t = match lang {
        Lang::Rust | Lang::Python => {
            let after = sig.rsplit_once("->")?.1;
            after
                .split(['{', ':'])
                .next()
                .unwrap_or(after)
                .split(" where ")
                .next()?
                .to_string()
        }
        Lang::Go | Lang::TypeScript | Lang::Tsx | Lang::JavaScript => {
            // After the parameter list that follows the name.
            let at = sig.find(&format!("{name}("))? + name.len();
            let rest = &sig[at..];
            let mut depth = 0i32;
            let mut end = None;
            for (i, ch) in rest.char_indices() {
                match ch {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            end = Some(i + 1);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let r = rest[end?..].trim().trim_end_matches('{').trim();
            let r = r.strip_prefix(':').unwrap_or(r).trim();
            let r = r
                .strip_prefix('(')
                .map_or(r, |x| x.split(',').next().unwrap_or(x));
            r.to_string()
        }
        Lang::Java | Lang::C | Lang::Cpp => {
            let before = sig.split(&format!("{name}(")).next()?;
            let before = before.rsplit_once("::").map_or(before, |(b, _)| b);
            let word = before.split_whitespace().last()?;
            word.to_string()
        }
    };
    let t = simple_type(&t);
    (!t.is_empty()).then_some(t)
}

impl Graph {
    fn lang(&self, file: usize) -> Option<Lang> {
        self.files[file].lang
    }

    fn name(&self, s: usize) -> &str {
        self.names.str(self.syms[s].name)
    }

    fn owner(&self, s: usize) -> Option<&str> {
        let o = self.syms[s].owner;
        (o != NONE).then(|| self.names.str(o))
    }

    /// The base classes type `s` declares.
    fn bases_of(&self, s: usize) -> impl Iterator<Item = &str> + '_ {
        let s = s as u32;
        let lo = self.bases.partition_point(|&(t, _)| t < s);
        self.bases[lo..]
            .iter()
            .take_while(move |&&(t, _)| t == s)
            .map(|&(_, b)| self.names.str(b))
    }

    /// The symbols named `name`, in id order.
    fn named(&self, name: &str) -> Option<impl Iterator<Item = usize> + '_> {
        self.names.id(name).map(|n| self.by_name.get(n as usize))
    }

    fn sep(&self, file: usize) -> &'static str {
        self.lang(file).map_or(".", Lang::separator)
    }

    fn same_family(&self, a: usize, b: usize) -> bool {
        match (self.lang(a), self.lang(b)) {
            (Some(x), Some(y)) => family(x) == family(y),
            _ => false,
        }
    }

    /// Top-level definitions named `name` in `files`.
    fn top_level(&self, files: &[usize], name: &str) -> Vec<usize> {
        let mut out = Vec::new();
        if let Some(list) = self.named(name) {
            for s in list {
                if self.syms[s].parent == NONE
                    && files.contains(&self.syms[s].file())
                    && self.syms[s].owner == NONE
                {
                    out.push(s);
                }
            }
        }
        out
    }

    /// Members `name` of type `ty` or, when it has none, of its base classes (a few
    /// levels up, as its declaration names them).
    fn inherited(&self, from: usize, ty: &str, name: &str, prefer: &[usize]) -> Vec<usize> {
        let mut seen: Vec<String> = Vec::new();
        let mut level = vec![ty.to_string()];
        for _ in 0..5 {
            let mut next = Vec::new();
            for t in &level {
                let bare = t.rsplit(['.', ':']).next().unwrap_or(t).to_string();
                if seen.contains(&bare) {
                    continue;
                }
                seen.push(bare.clone());
                let hits = self.members_of(from, &bare, name, prefer);
                if !hits.is_empty() {
                    return hits;
                }
                if let Some((defs, _)) = self.find_type(from, &bare) {
                    for d in defs {
                        next.extend(self.bases_of(d).map(str::to_string));
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        Vec::new()
    }

    /// Members `name` of types named `ty` (bare), preferring `prefer` files, same family.
    fn members_of(&self, from: usize, ty: &str, name: &str, prefer: &[usize]) -> Vec<usize> {
        let ty = ty.rsplit(['.', ':']).next().unwrap_or(ty);
        let (Some(ty), Some(name)) = (self.names.id(ty), self.names.id(name)) else {
            return Vec::new();
        };
        let lo = self
            .members
            .partition_point(|&(o, n, _)| (o, n) < (ty, name));
        let hi = self
            .members
            .partition_point(|&(o, n, _)| (o, n) <= (ty, name));
        let list: Vec<usize> = self.members[lo..hi]
            .iter()
            .map(|&(_, _, s)| s as usize)
            .filter(|&s| self.same_family(from, self.syms[s].file()))
            .collect();
        let preferred: Vec<usize> = list
            .iter()
            .copied()
            .filter(|&s| prefer.contains(&self.syms[s].file()))
            .collect();
        if !preferred.is_empty() {
            return preferred;
        }
        list
    }

    /// Type definitions named `name` visible from `file`: the file, its imports, its
    /// package, or unique in the repository.
    fn find_type(&self, file: usize, name: &str) -> Option<(Vec<usize>, Vec<usize>)> {
        let bare = name.rsplit(['.', ':']).next().unwrap_or(name);
        let all: Vec<usize> = self
            .named(bare)?
            .filter(|&s| {
                is_type_kind(self.syms[s].kind) && self.same_family(file, self.syms[s].file())
            })
            .collect();
        if all.is_empty() {
            return None;
        }
        let files: Vec<usize> = all.iter().map(|&s| self.syms[s].file()).collect();
        Some((all, files))
    }

    fn pick(&self, from: usize, cands: &[usize]) -> Option<usize> {
        let dir = &self.files[from].dir;
        cands
            .iter()
            .copied()
            .find(|&s| self.syms[s].file() == from)
            .or_else(|| {
                cands
                    .iter()
                    .copied()
                    .find(|&s| &self.files[self.syms[s].file()].dir == dir)
            })
            .or_else(|| cands.first().copied())
    }

    /// The type that `self`/`this` means inside `caller`.
    fn owner_type(&self, caller: Option<usize>) -> Option<String> {
        let mut c = caller;
        while let Some(s) = c {
            if is_container(self.syms[s].kind) {
                return Some(self.name(s).to_string());
            }
            c = self.syms[s].parent();
        }
        // An out-of-line method (C++ `Rect::area`, Go `Store.Get`): its qualifier.
        self.owner(caller?).map(str::to_string)
    }

    fn resolve_call(&self, c: &CallRow, depth: u32) -> Outcome {
        let Some(lang) = self.lang(c.file) else {
            return Outcome::unresolved(c.name.clone(), 0);
        };
        match (c.kind, c.qualifier.as_deref()) {
            (CallKind::Plain, _) | (_, None) => self.resolve_plain(c, lang),
            (CallKind::New, Some(q)) => self.resolve_qualified(c, lang, q, depth, true),
            (_, Some(q)) => self.resolve_qualified(c, lang, q, depth, false),
        }
    }

    fn resolve_plain(&self, c: &CallRow, lang: Lang) -> Outcome {
        let name = c.name.as_str();
        let f = c.file;
        // 1. Enclosing scopes: nested definitions; members of the enclosing type where
        // the language has an implicit `this` (Java, C++).
        let implicit_this = matches!(lang, Lang::Java | Lang::Cpp);
        let mut s = c.caller;
        while let Some(si) = s {
            let container = is_container(self.syms[si].kind);
            if !container || implicit_this {
                let hits: Vec<usize> = self
                    .children
                    .get(si)
                    .filter(|&k| {
                        self.name(k) == name
                            && (c.kind != CallKind::New || is_type_kind(self.syms[k].kind))
                    })
                    .collect();
                if let Some(&h) = hits.first() {
                    return Outcome::to(h, "exact", hits.len());
                }
            }
            s = self.syms[si].parent();
        }
        if implicit_this
            && c.kind == CallKind::Plain
            && let Some(owner) = self.owner_type(c.caller)
        {
            let hits = self.inherited(f, &owner, name, &[f]);
            if let Some(h) = self.pick(f, &hits) {
                return Outcome::to(h, "scope", hits.len());
            }
        }
        // 2. The file's own top level.
        let hits = self.top_level(&[f], name);
        if let Some(&h) = hits.first() {
            return Outcome::to(h, "exact", hits.len());
        }
        // 3. Imported names.
        let scope = &self.scopes[f];
        if let Some(b) = scope.names.get(name) {
            match b {
                Binding::Symbol(files, orig) => {
                    let hits = self.follow_symbol(files, orig, 0);
                    if let Some(h) = self.pick(f, &hits) {
                        return Outcome::to(h, "import", hits.len());
                    }
                    if files.is_empty() {
                        return Outcome::external(name.to_string());
                    }
                }
                Binding::Member(files, ty, member) => {
                    let hits = self.members_of(f, ty, member, files);
                    if let Some(h) = self.pick(f, &hits) {
                        return Outcome::to(h, "import", hits.len());
                    }
                }
                Binding::External(path) => return Outcome::external(path.clone()),
                Binding::Module(files) => {
                    // A module called as a function: its default export.
                    let hits = self.top_level(files, name);
                    if let Some(h) = self.pick(f, &hits) {
                        return Outcome::to(h, "import", hits.len());
                    }
                }
                Binding::Namespace(_) => {}
            }
        }
        // 4. Wildcard imports and includes.
        for (files, ty) in &scope.wildcard_types {
            let hits = self.members_of(f, ty, name, files);
            if let Some(h) = self.pick(f, &hits) {
                return Outcome::to(h, "import", hits.len());
            }
        }
        if !scope.wildcard.is_empty() {
            let hits = self.top_level(&scope.wildcard, name);
            if let Some(h) = self.pick(f, &hits) {
                return Outcome::to(h, "import", hits.len());
            }
        }
        // 5. The same package (Go, Java) or directory.
        if matches!(lang, Lang::Go | Lang::Java) {
            let dir_files = self
                .by_dir
                .get(&self.files[f].dir)
                .cloned()
                .unwrap_or_default();
            let dir_files: Vec<usize> = dir_files
                .into_iter()
                .filter(|&d| self.lang(d) == Some(lang))
                .collect();
            let hits = self.top_level(&dir_files, name);
            if let Some(h) = self.pick(f, &hits) {
                return Outcome::to(h, "scope", hits.len());
            }
        }
        if is_builtin(lang, name) {
            return Outcome::external(name.to_string());
        }
        // 6. A free function or type defined once in the repository (C and C++: not a
        // `static` function of another file).
        self.name_only(c, |s| {
            let sym = &self.syms[s];
            let free =
                sym.parent == NONE || !is_container(self.syms[sym.parent().unwrap_or(s)].kind);
            let kind_ok = matches!(sym.kind, Some(SymbolKind::Function | SymbolKind::Macro))
                || is_type_kind(sym.kind);
            let visible =
                !(matches!(lang, Lang::C | Lang::Cpp) && sym.file() != f && sym.is_static);
            free && kind_ok && visible && sym.parent == NONE
        })
    }

    fn name_only(&self, c: &CallRow, keep: impl Fn(usize) -> bool) -> Outcome {
        let cands: Vec<usize> = self
            .named(&c.name)
            .map(|l| {
                l.filter(|&s| self.same_family(c.file, self.syms[s].file()) && keep(s))
                    .filter(|&s| {
                        self.lang(c.file) != Some(Lang::Rust)
                            || self.same_crate(c.file, self.syms[s].file())
                    })
                    .collect()
            })
            .unwrap_or_default();
        match cands.as_slice() {
            [one] => Outcome::to(*one, "name-only", 1),
            [] => Outcome::unresolved(self.external_name(c, None), 0),
            many => Outcome::unresolved(self.external_name(c, None), many.len()),
        }
    }

    fn external_name(&self, c: &CallRow, ty: Option<&str>) -> String {
        let sep = self.sep(c.file);
        match (ty, c.qualifier.as_deref()) {
            (Some(t), _) => format!("{t}{sep}{}", c.name),
            (None, Some(q)) if c.kind == CallKind::Path => format!("{q}::{}", c.name),
            _ => c.name.clone(),
        }
    }

    /// Definitions `name` in `files`, following re-exports (`from .x import name` in a
    /// package's `__init__.py`, `export { name } from './x'`) a few levels.
    fn follow_symbol(&self, files: &[usize], name: &str, depth: u32) -> Vec<usize> {
        let hits = self.top_level(files, name);
        if !hits.is_empty() || depth > 3 {
            return hits;
        }
        for &f in files {
            match self.scopes[f].names.get(name) {
                Some(Binding::Symbol(files2, orig)) => {
                    let hits = self.follow_symbol(files2, orig, depth + 1);
                    if !hits.is_empty() {
                        return hits;
                    }
                }
                _ => {
                    let wild = &self.scopes[f].wildcard;
                    if !wild.is_empty()
                        && matches!(
                            self.lang(f),
                            Some(Lang::Python | Lang::JavaScript | Lang::TypeScript | Lang::Tsx)
                        )
                    {
                        let hits = self.follow_symbol(wild, name, depth + 1);
                        if !hits.is_empty() {
                            return hits;
                        }
                    }
                }
            }
        }
        Vec::new()
    }

    /// The type of a receiver stated as `callee()`: the class it constructs or the
    /// declared return type of the function it calls.
    fn type_of_call(&self, c: &CallRow, expr: &str, depth: u32) -> Option<(String, Vec<usize>)> {
        if depth > 3 {
            return None;
        }
        let (qualifier, name, kind) = if let Some((q, n)) = expr.rsplit_once("::") {
            (Some(q.to_string()), n.to_string(), CallKind::Path)
        } else if let Some((q, n)) = expr.rsplit_once('.') {
            (Some(q.to_string()), n.to_string(), CallKind::Member)
        } else if let Some((q, n)) = expr.rsplit_once("->") {
            (Some(q.to_string()), n.to_string(), CallKind::Member)
        } else {
            (None, expr.to_string(), CallKind::Plain)
        };
        let inner = CallRow {
            id: 0,
            file: c.file,
            caller: c.caller,
            name,
            qualifier,
            kind: if kind == CallKind::Plain {
                CallKind::Plain
            } else {
                kind
            },
            receiver_type: None,
            old: (None, None, 0, None),
        };
        let o = self.resolve_call(&inner, depth + 1);
        let s = o.callee?;
        let file = self.syms[s].file();
        if is_type_kind(self.syms[s].kind) {
            return Some((self.name(s).to_string(), vec![file]));
        }
        let ret = self.syms[s].returns;
        if ret == NONE {
            return None;
        }
        if self.names.str(ret) == "Self" {
            return Some((self.owner(s)?.to_string(), vec![file]));
        }
        Some((self.names.str(ret).to_string(), vec![file]))
    }

    fn resolve_qualified(
        &self,
        c: &CallRow,
        lang: Lang,
        q: &str,
        depth: u32,
        is_new: bool,
    ) -> Outcome {
        let f = c.file;
        let name = c.name.as_str();
        let q = q.trim();
        // `self`, `this`, `Self`, `cls`.
        let is_self = matches!(q, "self" | "this" | "Self" | "cls" | "(*this)")
            || (lang == Lang::Cpp && q == "*this");
        if is_self && let Some(owner) = self.owner_type(c.caller) {
            let hits = self.inherited(f, &owner, name, &[f]);
            if let Some(h) = self.pick(f, &hits) {
                return Outcome::to(h, "scope", hits.len());
            }
            return Outcome::unresolved(format!("{owner}{}{name}", lang.separator()), 0);
        }
        // The receiver's stated type.
        if let Some(t) = &c.receiver_type {
            let typed = match t.strip_suffix("()") {
                Some(expr) => self.type_of_call(c, expr, depth),
                None => Some((t.clone(), Vec::new())),
            };
            if let Some((ty, near)) = typed {
                let ty = match ty.as_str() {
                    "Self" => self.owner_type(c.caller).unwrap_or(ty),
                    _ => ty,
                };
                let mut prefer = near;
                prefer.push(f);
                if let Some((_, files)) = self.find_type(f, &ty) {
                    prefer.extend(files);
                    let hits = self.inherited(f, &ty, name, &prefer);
                    if let Some(h) = self.pick(f, &hits) {
                        return Outcome::to(h, "scope", hits.len());
                    }
                    return Outcome::unresolved(format!("{ty}{}{name}", lang.separator()), 0);
                }
                let hits = self.members_of(f, &ty, name, &prefer);
                if let Some(h) = self.pick(f, &hits) {
                    return Outcome::to(h, "scope", hits.len());
                }
                if !ty.is_empty() {
                    return Outcome::external(format!("{ty}{}{name}", lang.separator()));
                }
            }
        }
        // An enum constant (`Genre.PHYSICS.path()`): a value of the enum's type.
        if let Some((ty, constant)) = q.rsplit_once('.')
            && is_caps(constant)
            && let Some((_, files)) = self.find_type(f, ty)
        {
            let hits = self.members_of(f, ty, name, &files);
            if let Some(h) = self.pick(f, &hits) {
                return Outcome::to(h, "scope", hits.len());
            }
        }
        // A qualifier bound by an import (or a path starting with one).
        let sep_q = if q.contains("::") { "::" } else { "." };
        let head = q.split(sep_q).next().unwrap_or(q);
        let rest: Vec<&str> = q.split(sep_q).skip(1).collect();
        let scope = &self.scopes[f];
        if lang == Lang::Rust && matches!(head, "crate" | "super" | "self") {
            if let Some(files) = self.rust_module(f, q) {
                let hits = self.top_level(&files, name);
                if let Some(h) = self.pick(f, &hits) {
                    return Outcome::to(h, "import", hits.len());
                }
            }
            // `crate::a::Type::method`.
            if let Some((modpath, ty)) = q.rsplit_once("::")
                && let Some(files) = self.rust_module(f, modpath)
            {
                let hits = self.members_of(f, ty, name, &files);
                if let Some(h) = self.pick(f, &hits) {
                    return Outcome::to(h, "import", hits.len());
                }
            }
        }
        // In Rust a module is reached with `::`, never `.`: a `.` receiver is a value.
        let binding = if lang == Lang::Rust && c.kind == CallKind::Member {
            None
        } else {
            scope.names.get(head)
        };
        if let Some(b) = binding {
            match b {
                Binding::Module(files) => {
                    let mut files = files.clone();
                    // `pkg.sub.f` through a package import.
                    for seg in &rest {
                        match self.submodule(files.as_slice(), seg, lang) {
                            Some(sub) => files = sub,
                            None => {
                                let hits = self.members_of(f, seg, name, &files);
                                if let Some(h) = self.pick(f, &hits) {
                                    return Outcome::to(h, "import", hits.len());
                                }
                                break;
                            }
                        }
                    }
                    let hits = self.follow_symbol(&files, name, 0);
                    if let Some(h) = self.pick(f, &hits) {
                        return Outcome::to(h, "import", hits.len());
                    }
                    return Outcome::unresolved(
                        format!("{q}{}{name}", if sep_q == "::" { "::" } else { "." }),
                        0,
                    );
                }
                Binding::Symbol(files, orig) if rest.is_empty() => {
                    // An imported type or class: its member.
                    let hits = self.members_of(f, orig, name, files);
                    if let Some(h) = self.pick(f, &hits) {
                        return Outcome::to(h, "import", hits.len());
                    }
                    if files.is_empty() {
                        return Outcome::external(format!("{q}{sep_q}{name}"));
                    }
                }
                Binding::External(path) => {
                    let mut full = path.clone();
                    for seg in &rest {
                        full = format!("{full}{sep_q}{seg}");
                    }
                    return Outcome::external(format!("{full}{sep_q}{name}"));
                }
                Binding::Namespace(ns) => {
                    let hits = self.members_of(f, ns, name, &[]);
                    if let Some(h) = self.pick(f, &hits) {
                        return Outcome::to(h, "import", hits.len());
                    }
                    return Outcome::external(format!("{ns}::{name}"));
                }
                _ => {}
            }
        }
        if lang == Lang::Rust && c.kind == CallKind::Path {
            // A child module of this one (`util::f` after `mod util;` in a parent).
            if let Some(files) = self.rust_module(f, q) {
                let hits = self.top_level(&files, name);
                if let Some(h) = self.pick(f, &hits) {
                    return Outcome::to(h, "import", hits.len());
                }
            }
        }
        // A type-qualified call: `Task::new`, `Strings.pad`, `geo::scale`.
        let last = q.rsplit(['.', ':']).next().unwrap_or(q);
        let looks_static = c.kind == CallKind::Path
            || is_new
            || (last.chars().next().is_some_and(char::is_uppercase)
                && !matches!(lang, Lang::Python)
                || self.find_type(f, last).is_some());
        if looks_static && !last.is_empty() {
            let mut hits = self.members_of(f, last, name, &[f]);
            // In Rust a type not imported is the crate's own (or the prelude's: `Vec`).
            if lang == Lang::Rust {
                hits.retain(|&s| self.same_crate(f, self.syms[s].file()));
            }
            if let Some(h) = self.pick(f, &hits) {
                return Outcome::to(h, "scope", hits.len());
            }
        }
        if c.kind == CallKind::Path {
            if lang == Lang::Rust && matches!(head, "std" | "core" | "alloc") {
                return Outcome::external(format!("{q}::{name}"));
            }
            if lang == Lang::Cpp && head == "std" {
                return Outcome::external(format!("{q}::{name}"));
            }
        }
        // A method on a value of unknown type: name-only, methods only, unique.
        let plain_receiver = q
            .chars()
            .all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '$');
        if c.kind == CallKind::Member
            && !matches!(lang, Lang::C)
            && plain_receiver
            && !is_global_object(lang, q)
        {
            return self.name_only(c, |s| self.syms[s].kind == Some(SymbolKind::Method));
        }
        Outcome::unresolved(self.external_name(c, None), 0)
    }

    /// The files of submodule `seg` of the package in `files` (Python, Go dirs).
    fn submodule(&self, files: &[usize], seg: &str, lang: Lang) -> Option<Vec<usize>> {
        let dir = files.first().map(|&f| self.files[f].dir.clone())?;
        match lang {
            Lang::Python => {
                let p = if dir.is_empty() {
                    seg.to_string()
                } else {
                    format!("{dir}/{seg}")
                };
                self.by_path
                    .get(&format!("{p}.py"))
                    .or_else(|| self.by_path.get(&format!("{p}/__init__.py")))
                    .map(|&x| vec![x])
            }
            _ => None,
        }
    }

    /// Binds an import: the local name and what it stands for, and the files it targets.
    fn bind_import(&self, imp: &ImportRow) -> (Option<(String, Binding)>, Vec<usize>) {
        let f = imp.file;
        let Some(lang) = self.lang(f) else {
            return (None, Vec::new());
        };
        match lang {
            Lang::Python => self.bind_python(imp),
            Lang::JavaScript | Lang::TypeScript | Lang::Tsx => {
                let files = self.js_module(f, &imp.module);
                let local = imp.alias.clone().or_else(|| imp.name.clone());
                let binding = match (&imp.name, files.is_empty()) {
                    (_, true) => imp
                        .name
                        .as_ref()
                        .map_or(Binding::External(imp.module.clone()), |n| {
                            Binding::External(format!("{}.{n}", imp.module))
                        }),
                    (None, false) => Binding::Module(files.clone()),
                    (Some(n), false) if n == "default" => {
                        // The default export: a definition named like the local name, or
                        // the module's only top-level definition.
                        let alias = imp.alias.clone().unwrap_or_default();
                        let tops: Vec<usize> = self
                            .file_syms
                            .get(files[0])
                            .filter(|&s| self.syms[s].parent == NONE)
                            .collect();
                        let named = tops.iter().find(|&&s| self.name(s) == alias);
                        match (named, tops.as_slice()) {
                            (Some(&s), _) | (None, &[s]) => {
                                Binding::Symbol(files.clone(), self.name(s).to_string())
                            }
                            _ => Binding::Symbol(files.clone(), alias),
                        }
                    }
                    (Some(n), false) => Binding::Symbol(files.clone(), n.clone()),
                };
                (local.map(|l| (l, binding)), files)
            }
            Lang::Go => {
                let files = self.go_package(&imp.module);
                let last = imp
                    .module
                    .rsplit('/')
                    .next()
                    .unwrap_or(&imp.module)
                    .to_string();
                let local = imp.alias.clone().unwrap_or(last);
                if imp.wildcard {
                    return (None, files);
                }
                let b = if files.is_empty() {
                    Binding::External(imp.module.clone())
                } else {
                    Binding::Module(files.clone())
                };
                (Some((local, b)), files)
            }
            Lang::Java => {
                let (is_static, module) = match imp.module.strip_prefix("static ") {
                    Some(m) => (true, m),
                    None => (false, imp.module.as_str()),
                };
                if imp.wildcard {
                    // `import a.b.*` (a package) or `import static a.b.C.*` (a class).
                    let files = if is_static {
                        self.java_class_file(module)
                    } else {
                        self.by_dir
                            .get(&module.replace('.', "/"))
                            .cloned()
                            .unwrap_or_else(|| self.java_package(module))
                    };
                    return (None, files);
                }
                let Some(name) = imp.name.clone() else {
                    return (None, Vec::new());
                };
                if is_static {
                    let files = self.java_class_file(module);
                    let ty = module.rsplit('.').next().unwrap_or(module).to_string();
                    let b = if files.is_empty() {
                        Binding::External(format!("{module}.{name}"))
                    } else {
                        Binding::Member(files.clone(), ty, name.clone())
                    };
                    return (Some((name, b)), files);
                }
                let files = self.java_class_file(&format!("{module}.{name}"));
                let b = if files.is_empty() {
                    Binding::External(format!("{module}.{name}"))
                } else {
                    Binding::Symbol(files.clone(), name.clone())
                };
                (Some((name, b)), files)
            }
            Lang::C | Lang::Cpp => {
                if let Some(ns) = imp.module.strip_prefix("namespace ") {
                    let alias = imp.alias.clone().unwrap_or_default();
                    let ns = ns.rsplit("::").next().unwrap_or(ns).to_string();
                    return (Some((alias, Binding::Namespace(ns))), Vec::new());
                }
                if imp.module.starts_with('<') {
                    return (None, Vec::new());
                }
                let dir = &self.files[f].dir;
                let direct = normalize_path(&if dir.is_empty() {
                    imp.module.clone()
                } else {
                    format!("{dir}/{}", imp.module)
                });
                let target = self.by_path.get(&direct).copied().or_else(|| {
                    let suffix = format!("/{}", imp.module);
                    self.files
                        .iter()
                        .enumerate()
                        .filter(|(_, x)| x.path.ends_with(&suffix) || x.path == imp.module)
                        .min_by_key(|(_, x)| x.path.len())
                        .map(|(i, _)| i)
                });
                (None, target.into_iter().collect())
            }
            Lang::Rust => self.bind_rust(imp),
        }
    }

    fn static_wildcard(&self, imp: &ImportRow) -> Option<Binding> {
        let module = imp.module.strip_prefix("static ")?;
        if self.lang(imp.file) != Some(Lang::Java) {
            return None;
        }
        let files = self.java_class_file(module);
        let ty = module.rsplit('.').next().unwrap_or(module).to_string();
        Some(Binding::Symbol(files, ty))
    }

    fn java_class_file(&self, dotted: &str) -> Vec<usize> {
        // A nested class: `a.b.Outer.Inner` lives in `a/b/Outer.java`; tried from the
        // whole name outwards, a few levels at most.
        let mut dotted = dotted;
        for _ in 0..8 {
            let rel = format!("{}.java", dotted.replace('.', "/"));
            let suffix = format!("/{rel}");
            let hits: Vec<usize> = self
                .files
                .iter()
                .enumerate()
                .filter(|(_, x)| x.path == rel || x.path.ends_with(&suffix))
                .map(|(i, _)| i)
                .collect();
            if !hits.is_empty() {
                return hits;
            }
            match dotted.rsplit_once('.') {
                Some((outer, _)) if outer.contains('.') => dotted = outer,
                _ => break,
            }
        }
        Vec::new()
    }

    fn java_package(&self, dotted: &str) -> Vec<usize> {
        let rel = dotted.replace('.', "/");
        let suffix = format!("/{rel}");
        self.by_dir
            .iter()
            .filter(|(d, _)| d.ends_with(&suffix) || **d == rel)
            .flat_map(|(_, v)| v.iter().copied())
            .collect()
    }

    fn go_package(&self, path: &str) -> Vec<usize> {
        for (module, dir) in &self.go_modules {
            let rest = if path == module {
                Some("")
            } else {
                path.strip_prefix(module.as_str())
                    .and_then(|r| r.strip_prefix('/'))
            };
            if let Some(rest) = rest {
                let d = match (dir.is_empty(), rest.is_empty()) {
                    (true, _) => rest.to_string(),
                    (false, true) => dir.clone(),
                    (false, false) => format!("{dir}/{rest}"),
                };
                return self
                    .by_dir
                    .get(&d)
                    .map(|v| {
                        v.iter()
                            .copied()
                            .filter(|&x| self.lang(x) == Some(Lang::Go))
                            .collect()
                    })
                    .unwrap_or_default();
            }
        }
        Vec::new()
    }

    fn js_module(&self, from: usize, spec: &str) -> Vec<usize> {
        if !spec.starts_with('.') {
            return Vec::new();
        }
        let dir = &self.files[from].dir;
        let base = normalize_path(&if dir.is_empty() {
            spec.to_string()
        } else {
            format!("{dir}/{spec}")
        });
        let stripped = base
            .strip_suffix(".js")
            .or_else(|| base.strip_suffix(".mjs"))
            .or_else(|| base.strip_suffix(".jsx"))
            .unwrap_or(&base)
            .to_string();
        let mut tries = vec![base.clone()];
        for stem in [&base, &stripped] {
            for ext in ["ts", "tsx", "js", "jsx", "mjs", "cjs", "d.ts"] {
                tries.push(format!("{stem}.{ext}"));
            }
            for ext in ["ts", "tsx", "js", "jsx"] {
                tries.push(format!("{stem}/index.{ext}"));
            }
        }
        tries
            .into_iter()
            .find_map(|p| self.by_path.get(&p).copied())
            .into_iter()
            .collect()
    }

    fn bind_python(&self, imp: &ImportRow) -> (Option<(String, Binding)>, Vec<usize>) {
        let f = imp.file;
        let module_files = self.python_module(f, &imp.module);
        match &imp.name {
            None if imp.wildcard => (None, module_files),
            None => {
                // `import a.b` binds `a`; `import a.b as x` binds `x` to `a.b`.
                match &imp.alias {
                    Some(alias) => {
                        let b = if module_files.is_empty() {
                            Binding::External(imp.module.clone())
                        } else {
                            Binding::Module(module_files.clone())
                        };
                        (Some((alias.clone(), b)), module_files)
                    }
                    None => {
                        let head = imp
                            .module
                            .split('.')
                            .next()
                            .unwrap_or(&imp.module)
                            .to_string();
                        let head_files = self.python_module(f, &head);
                        let b = if head_files.is_empty() {
                            Binding::External(head.clone())
                        } else {
                            Binding::Module(head_files)
                        };
                        (Some((head, b)), module_files)
                    }
                }
            }
            Some(name) => {
                let local = imp.alias.clone().unwrap_or_else(|| name.clone());
                if module_files.is_empty() {
                    // A namespace package (no `__init__.py`): its submodule.
                    let sub = self.python_module(f, &format!("{}.{name}", imp.module));
                    if !sub.is_empty() && !imp.module.starts_with('.') {
                        return (Some((local, Binding::Module(sub.clone()))), sub);
                    }
                    // A submodule of a package outside, or a name from outside.
                    return (
                        Some((
                            local,
                            Binding::External(format!(
                                "{}.{name}",
                                imp.module.trim_start_matches('.')
                            )),
                        )),
                        Vec::new(),
                    );
                }
                let defines = !self.top_level(&module_files, name).is_empty();
                let sub = self.python_module(f, &format!("{}.{name}", imp.module));
                let sub = if imp.module.chars().all(|c| c == '.') {
                    self.python_module(f, &format!("{}{name}", imp.module))
                } else {
                    sub
                };
                if !defines && !sub.is_empty() {
                    return (Some((local, Binding::Module(sub.clone()))), sub);
                }
                (
                    Some((local, Binding::Symbol(module_files.clone(), name.clone()))),
                    module_files,
                )
            }
        }
    }

    /// The files of a Python module, absolute (`a.b`) or relative (`.b`, `..`).
    fn python_module(&self, from: usize, module: &str) -> Vec<usize> {
        let dots = module.chars().take_while(|&c| c == '.').count();
        if dots > 0 {
            let mut dir = self.files[from].dir.clone();
            for _ in 1..dots {
                dir = dir_of(&dir).to_string();
            }
            let rest = &module[dots..];
            let p = match (dir.is_empty(), rest.is_empty()) {
                (_, true) => format!("{dir}/__init__.py")
                    .trim_start_matches('/')
                    .to_string(),
                (true, false) => rest.replace('.', "/"),
                (false, false) => format!("{dir}/{}", rest.replace('.', "/")),
            };
            if rest.is_empty() {
                return self.by_path.get(&p).copied().into_iter().collect();
            }
            return self
                .by_path
                .get(&format!("{p}.py"))
                .or_else(|| self.by_path.get(&format!("{p}/__init__.py")))
                .copied()
                .into_iter()
                .collect();
        }
        let Some(cands) = self.python_modules.get(module) else {
            return Vec::new();
        };
        // The candidate whose package root is nearest the importing file.
        let from_dir = &self.files[from].dir;
        let best = cands.iter().copied().max_by_key(|&c| {
            let stem_dirs = module.split('.').count();
            let p = &self.files[c].path;
            let mut root = dir_of(p).to_string();
            let is_init = p.ends_with("__init__.py");
            for _ in 0..(stem_dirs - 1 + usize::from(is_init)) {
                root = dir_of(&root).to_string();
            }
            let exact_root = root.is_empty() || from_dir.starts_with(&root);
            (
                exact_root,
                common_prefix(from_dir, &root),
                std::cmp::Reverse(p.len()),
            )
        });
        best.into_iter().collect()
    }

    fn bind_rust(&self, imp: &ImportRow) -> (Option<(String, Binding)>, Vec<usize>) {
        let f = imp.file;
        if let Some(m) = imp.module.strip_prefix("mod ") {
            let files = self.rust_child_module(f, m);
            if files.is_empty() {
                return (None, files);
            }
            return (Some((m.to_string(), Binding::Module(files.clone()))), files);
        }
        if imp.wildcard {
            return (None, self.rust_module(f, &imp.module).unwrap_or_default());
        }
        let Some(name) = &imp.name else {
            // `use a::b::{self}`: the module itself.
            let files = self.rust_module(f, &imp.module).unwrap_or_default();
            let alias = imp.alias.clone().unwrap_or_default();
            let b = if files.is_empty() {
                Binding::External(imp.module.clone())
            } else {
                Binding::Module(files.clone())
            };
            return (Some((alias, b)), files);
        };
        let local = imp.alias.clone().unwrap_or_else(|| name.clone());
        let full = if imp.module.is_empty() {
            name.clone()
        } else {
            format!("{}::{name}", imp.module)
        };
        if let Some(files) = self.rust_module(f, &full) {
            return (Some((local, Binding::Module(files.clone()))), files);
        }
        match self.rust_module(f, &imp.module) {
            Some(files) => (
                Some((local, Binding::Symbol(files.clone(), name.clone()))),
                files,
            ),
            None => (Some((local, Binding::External(full))), Vec::new()),
        }
    }

    /// Whether two Rust files belong to the same crate (the same `src` root).
    fn same_crate(&self, a: usize, b: usize) -> bool {
        self.crate_of[a] == self.crate_of[b]
    }

    /// The crate source directory and module path of a Rust file.
    fn rust_module_of(&self, f: usize) -> (String, Vec<String>) {
        let (root, rel) = crate_root(&self.files[f].path, &self.files[f].dir);
        let rel = rel.trim_end_matches(".rs");
        let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
        if matches!(parts.last().map(String::as_str), Some("mod")) {
            parts.pop();
        } else if parts.len() == 1 && matches!(parts[0].as_str(), "main" | "lib") {
            parts.clear();
        }
        (root, parts)
    }

    fn rust_file(&self, root: &str, parts: &[String]) -> Option<usize> {
        if parts.is_empty() {
            return self
                .by_path
                .get(&format!("{root}/lib.rs"))
                .or_else(|| self.by_path.get(&format!("{root}/main.rs")))
                .copied();
        }
        let p = parts.join("/");
        let base = if root.is_empty() {
            p
        } else {
            format!("{root}/{p}")
        };
        self.by_path
            .get(&format!("{base}.rs"))
            .or_else(|| self.by_path.get(&format!("{base}/mod.rs")))
            .copied()
    }

    fn rust_child_module(&self, f: usize, m: &str) -> Vec<usize> {
        let (root, mut parts) = self.rust_module_of(f);
        parts.push(m.to_string());
        self.rust_file(&root, &parts).into_iter().collect()
    }

    /// The file of a module path written in `f` (`crate::a::b`, `super::x`, `self::y`,
    /// `a::b` relative to the current module or the crate root).
    fn rust_module(&self, f: usize, path: &str) -> Option<Vec<usize>> {
        let (root, cur) = self.rust_module_of(f);
        let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
        let (mut at, rest): (Vec<String>, &[&str]) = match segs.first().copied() {
            Some("crate") => (Vec::new(), &segs[1..]),
            Some("self") => (cur.clone(), &segs[1..]),
            Some("super") => {
                let mut m = cur.clone();
                let mut i = 0;
                while segs.get(i) == Some(&"super") {
                    m.pop();
                    i += 1;
                }
                (m, &segs[i..])
            }
            Some(first) => {
                let mut child = cur.clone();
                child.push(first.to_string());
                if self.rust_file(&root, &child).is_some() {
                    (child, &segs[1..])
                } else if self.rust_file(&root, &[first.to_string()]).is_some() {
                    (vec![first.to_string()], &segs[1..])
                } else {
                    // A name brought in by `use` in this file.
                    match self.scopes.get(f).and_then(|s| s.names.get(first)) {
                        Some(Binding::Module(files)) if files.len() == 1 => {
                            let (_, m) = self.rust_module_of(files[0]);
                            (m, &segs[1..])
                        }
                        _ => return None,
                    }
                }
            }
            None => return None,
        };
        for s in rest {
            at.push((*s).to_string());
            self.rust_file(&root, &at)?;
        }
        self.rust_file(&root, &at).map(|x| vec![x])
    }
}

/// A Rust file's crate root (the nearest `src` directory, or the file's own directory)
/// and its path below it.
fn crate_root(path: &str, dir: &str) -> (String, String) {
    match path.rfind("src/") {
        Some(i) => (path[..i + 3].to_string(), path[i + 4..].to_string()),
        None => (
            dir.to_string(),
            path.rsplit('/').next().unwrap_or(path).to_string(),
        ),
    }
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.split('/')
        .zip(b.split('/'))
        .take_while(|(x, y)| x == y)
        .count()
}

/// `a/./b/../c` → `a/c`.
fn normalize_path(p: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            s => out.push(s),
        }
    }
    out.join("/")
}

/// Whether `level` names a resolution (`--resolution`).
pub fn is_resolution(level: &str) -> bool {
    RESOLUTIONS.contains(&level)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_classes_from_declarations() {
        assert_eq!(
            bases(Lang::Python, "class A(B, m.C, metaclass=M):"),
            ["B", "m.C"]
        );
        assert_eq!(
            bases(Lang::Java, "public class A extends B implements C, D {"),
            ["B", "C", "D"]
        );
        assert_eq!(
            bases(Lang::Cpp, "class A : public B, private ns::C {"),
            ["B", "ns::C"]
        );
        assert!(bases(Lang::Python, "class A:").is_empty());
    }

    #[test]
    fn return_types_from_signatures() {
        assert_eq!(
            return_type(Lang::Go, "func New() *Store", "New").as_deref(),
            Some("Store")
        );
        assert_eq!(
            return_type(Lang::Rust, "pub fn new(n: u32) -> Self", "new").as_deref(),
            Some("Self")
        );
        assert_eq!(
            return_type(Lang::Python, "def f(x) -> \"Item\":", "f").as_deref(),
            Some("Item")
        );
        assert_eq!(
            return_type(Lang::Java, "public static Book of(String t)", "of").as_deref(),
            Some("Book")
        );
    }
}

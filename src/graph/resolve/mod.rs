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

use std::path::Path;

use anyhow::Result;
use rayon::prelude::*;
use rusqlite::{Connection, params};

use crate::model::{CallKind, ImportKind, Receiver, Resolution, SymbolKind};
use crate::syntax::lang::Lang;
use crate::syntax::refs::simple_type;

mod calls;
mod held;
mod hooks;
mod imports;
mod load;

pub use held::HeldCalls;
use held::resolve_held;
use hooks::*;
use imports::*;
use load::*;

/// The resolver's own maps and sets, keyed by the repository's names: foldhash (seeded
/// per process, like std's) hashes a short name several times faster than SipHash, and
/// loading and resolving a graph is mostly lookups by name.
type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
type HashSet<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;

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
    pub files: std::collections::HashSet<i64>,
    pub names: std::collections::HashSet<String>,
    /// Call sites of files this run wrote, not in the store yet: with [`Affected::all`]
    /// on a store with no call rows, they are resolved from here and written once with
    /// their callees, instead of written, read back and updated.
    pub held: Vec<HeldCalls>,
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
    /// The language's family ([`family`]), `u8::MAX` for a file in no parsed language.
    family: u8,
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
    /// How many arguments a call of it may pass (fewest, most), where the language
    /// overloads by it and the signature says ([`ANY_ARITY`] otherwise).
    params: (u8, u8),
}

/// [`Sym::params`] of a definition whose parameters are not counted: any call fits.
const ANY_ARITY: (u8, u8) = (0, u8::MAX);

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
    kind: ImportKind,
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
    receiver_type: Option<Receiver>,
    old: (Option<i64>, Option<Resolution>, i64, Option<String>),
    /// The callee columns came from a SCIP index ([`crate::graph::scip`]): llmc's own
    /// answer is written back whatever it is, and the SCIP pass applies the index again.
    precise: bool,
    /// How many arguments the call passes, where the language overloads by it.
    args: Option<u32>,
    /// The arguments' types where the call states them ([`crate::model::CallSite::arg_types`]).
    arg_types: Option<String>,
}

/// What a local name in a file stands for, from its imports.
impl CallRow {
    /// No call: a place in `file`'s top level, to type what the file states from there.
    fn at(file: usize) -> CallRow {
        CallRow {
            id: 0,
            file,
            caller: None,
            name: String::new(),
            qualifier: None,
            kind: CallKind::Plain,
            receiver_type: None,
            old: (None, None, 0, None),
            precise: false,
            args: None,
            arg_types: None,
        }
    }
}

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
    resolution: Resolution,
    candidates: usize,
    external: Option<String>,
}

impl Outcome {
    fn to(sym: usize, resolution: Resolution, candidates: usize) -> Outcome {
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
            resolution: Resolution::External,
            candidates: 0,
            external: Some(name),
        }
    }
    fn unresolved(name: String, candidates: usize) -> Outcome {
        Outcome {
            callee: None,
            resolution: Resolution::Unresolved,
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
    /// Field types by (type name, field name): where stated, and the stated type.
    fields: HashMap<(u32, u32), Vec<(usize, Receiver)>>,
    by_path: HashMap<String, usize>,
    by_dir: HashMap<String, Vec<usize>>,
    /// Python modules by their full dotted name below an import root: (file, the root).
    /// A file is listed once under each shared root above it and once under its own
    /// directory (a script's directory is on its path).
    python_modules: HashMap<String, Vec<(usize, String)>>,
    /// Import roots visible from every file: the repository root, `src/`, and every
    /// directory that holds a top-level regular package (one with `__init__.py`).
    python_roots: HashSet<String>,
    go_modules: Vec<(String, String)>,
    /// The repository's own JavaScript packages, from each `package.json` that is no test
    /// fixture: (name, folder, entry files its fields name), shallowest first.
    js_packages: Vec<(String, String, Vec<String>)>,
    /// TypeScript's path mappings (`compilerOptions.paths` of each `tsconfig.json`,
    /// `tsconfig.base.json` or `jsconfig.json`): (the config's folder, its `baseUrl`, its
    /// patterns with their targets, from the repository's root), deepest folder first.
    ts_paths: Vec<TsPaths>,
    /// Swift modules by their folder ([`imports::swift_module_root`]): their files.
    #[cfg(feature = "lang-swift")]
    swift_modules: HashMap<String, Vec<usize>>,
    /// Scala files by each package path their folder may hold ([`imports::scala_packages`]),
    /// written with `/` (`cats/syntax`), the files in order.
    #[cfg(feature = "lang-scala")]
    scala_packages: HashMap<String, Vec<usize>>,
    /// Files by the namespace they declare (imports of kind [`ImportKind::Package`]: C#).
    packages: HashMap<String, Vec<usize>>,
    /// The parameters' types of definitions (by store id) where the language overloads
    /// by them (C#).
    param_types: HashMap<i64, Params>,
    /// The repository's own Rust crates by the name code writes them with (`glob_set` for
    /// package `glob-set`): their `src` directory, from each `Cargo.toml`'s `[package]`.
    rust_crates: HashMap<String, String>,
    /// Per file: which Rust crate (by `src` root) it belongs to.
    crate_of: Vec<usize>,
    scopes: Vec<FileScope>,
    /// Store ids → positions in `files`.
    file_index: HashMap<i64, usize>,
}

/// One TypeScript configuration's module paths ([`Graph::ts_paths`]).
struct TsPaths {
    /// The folder the configuration applies to (its own).
    dir: String,
    /// `baseUrl` from the repository's root, where the configuration sets one: bare
    /// specifiers resolve below it too.
    base: Option<String>,
    /// `paths`: a pattern (`@vue/*`) and its targets (`packages/*/src`).
    paths: Vec<(String, Vec<String>)>,
}

/// Calls read, resolved (in parallel) and written back at a time, so resolution never
/// holds every call site of a large repository in memory.
const CALL_BATCH: usize = 8192;

/// Resolves every call and import in the store (inside the index run's transaction),
/// computing outcomes on `pool`.
pub fn resolve(
    conn: &Connection,
    root: &Path,
    mut affected: Affected,
    pool: &rayon::ThreadPool,
) -> Result<ResolveStats> {
    let mut g = load(conn, root)?;
    let imports = load_imports(conn, &g)?;
    let mut import_targets: Vec<(i64, Option<i64>, Option<i64>)> = Vec::new();
    g.scopes = (0..g.files.len()).map(|_| FileScope::default()).collect();
    for imp in imports.iter().filter(|i| i.kind == ImportKind::Package) {
        g.packages
            .entry(imp.module.clone())
            .or_default()
            .push(imp.file);
    }
    // In path order, whatever order the rows were written in (an incremental run writes a
    // changed file's rows last): the first is an import's target.
    for files in g.packages.values_mut() {
        files.sort_unstable();
        files.dedup();
    }
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
                // A Swift `import Module`: the module's name, and all its top-level names.
                if imp.wildcard {
                    scope.wildcard.extend(targets);
                }
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
    #[cfg(feature = "lang-csharp")]
    g.spread_global_usings(&imports);
    // One level of transitive C/C++ includes.
    for f in 0..g.files.len() {
        if g.files[f]
            .lang
            .is_some_and(|l| l.spec().resolve.transitive_includes)
        {
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
    // A project-wide import (C# `global using`) written by this run reaches calls in
    // files it does not name: every call is revisited.
    let global_changed = imports
        .iter()
        .any(|i| i.kind == ImportKind::Global && affected.files.contains(&g.files[i.file].id));
    let selective =
        !affected.all && !global_changed && affected.names.len() + files.len() < SELECTIVE_LIMIT;
    let mut stats = ResolveStats::default();
    let mut update = conn.prepare_cached(
        "UPDATE calls SET callee_id = ?2, resolution = ?3, candidates = ?4, external = ?5, precise = 0
         WHERE id = ?1",
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
            if c.precise || (new.0, new.1, new.2, &new.3) != (c.old.0, c.old.1, c.old.2, &c.old.3) {
                update.execute(params![c.id, new.0, new.1, new.2, new.3])?;
                stats.updated += 1;
            }
        }
        Ok(())
    };
    if selective {
        // The fields the run wrote, beside the names: a receiver typed through a field
        // the file now states differently is typed again (the fields the files stated
        // before are among the names already).
        let mut names = affected.names.clone();
        names.extend(field_names(conn, &affected.files)?);
        let calls = load_affected_calls(conn, g, &files, &names)?;
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
    resolve_held(
        g,
        conn,
        pool,
        std::mem::take(&mut affected.held),
        &mut stats,
    )?;
    Ok(stats)
}

impl Graph {
    /// The position in `syms` of the symbol with store id `id`.
    fn symbol_at(&self, id: i64) -> Option<usize> {
        let at = self.by_id.binary_search_by_key(&id, |&(id, _)| id).ok()?;
        Some(self.by_id[at].1 as usize)
    }
}

/// Languages whose definitions can call each other share a family
/// ([`crate::syntax::lang::ResolveRules::family`]).
fn family(l: Lang) -> u8 {
    l.spec().resolve.family
}

fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
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
        assert_eq!(
            bases(Lang::Go, "type BoolFlag = FlagBase[bool, BoolConfig]"),
            ["FlagBase"]
        );
        #[cfg(feature = "lang-swift")]
        {
            assert_eq!(
                bases(
                    Lang::Swift,
                    "public final class Box<T: Equatable>: Base<T>, P where T: Q"
                ),
                ["Base", "P"]
            );
            assert_eq!(
                bases(Lang::Swift, "public typealias Cash = Money"),
                ["Money"]
            );
            assert!(bases(Lang::Swift, "struct Money").is_empty());
        }
        #[cfg(feature = "lang-scala")]
        assert_eq!(
            bases(
                Lang::Scala,
                "case class A(x: Int) extends B(x, C(1)) with D[E], F derives G"
            ),
            ["B", "D", "F"]
        );
        #[cfg(feature = "lang-kotlin")]
        {
            assert_eq!(
                bases(
                    Lang::Kotlin,
                    "class Bundle<T : Item>(val f: (Int) -> Unit, x: Int) : Item(x, f), Comparable<Bundle<T>>, Priced by p"
                ),
                ["Item", "Comparable", "Priced"]
            );
            assert!(bases(Lang::Kotlin, "data class P(val x: Int)").is_empty());
            assert_eq!(bases(Lang::Kotlin, "object Registry : Base()"), ["Base"]);
            assert_eq!(
                bases(Lang::Kotlin, "typealias Opt<T> = Option<T?, T>"),
                ["Option"]
            );
        }
    }

    #[cfg(feature = "lang-swift")]
    #[test]
    fn swift_modules_are_targets() {
        assert_eq!(
            swift_module_root("Sources/Shop/Money.swift"),
            "Sources/Shop"
        );
        assert_eq!(
            swift_module_root("Sources/Shop/Sub/A.swift"),
            "Sources/Shop"
        );
        assert_eq!(
            swift_module_root("Tests/ShopTests/MoneyTests.swift"),
            "Tests/ShopTests"
        );
        assert_eq!(
            swift_module_root("Examples/x/Sources/Tool/main.swift"),
            "Examples/x/Sources/Tool"
        );
        // A file directly in `Sources/` or outside any: the top-level folder, or the root.
        assert_eq!(swift_module_root("Sources/main.swift"), "Sources");
        assert_eq!(swift_module_root("App/View/Main.swift"), "App");
        assert_eq!(swift_module_root("Package.swift"), "");
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
        assert_eq!(
            return_type(
                Lang::TypeScript,
                "const make = (d?: Partial<O>): Client =>",
                "make"
            )
            .as_deref(),
            Some("Client")
        );
        assert_eq!(
            return_type(Lang::TypeScript, "post: <T>(u: Input) => Reply<T>;", "post").as_deref(),
            Some("Reply")
        );
        #[cfg(feature = "lang-swift")]
        {
            let ret = |sig: &str| return_type(Lang::Swift, sig, "f");
            assert_eq!(
                ret("public static func f(_ s: String) -> Money?").as_deref(),
                Some("Money")
            );
            assert_eq!(
                ret("func f<T: P>(x: T) async throws -> [Item]").as_deref(),
                Some("Item[]")
            );
            assert_eq!(ret("func f(_ body: (Int) -> Int)"), None);
            assert_eq!(
                ret("func f() -> Self where Self: P").as_deref(),
                Some("Self")
            );
            assert_eq!(ret("func f() -> [String: Int]"), None);
        }
        #[cfg(feature = "lang-scala")]
        {
            assert_eq!(
                return_type(
                    Lang::Scala,
                    "override def f[T](a: (Int, Int))(implicit b: B): Map[T, Int] =",
                    "f"
                )
                .as_deref(),
                Some("Map")
            );
            assert_eq!(
                return_type(Lang::Scala, "def size: Int =", "size").as_deref(),
                Some("Int")
            );
            assert_eq!(return_type(Lang::Scala, "def f(x: Int) =", "f"), None);
        }
        #[cfg(feature = "lang-kotlin")]
        {
            assert_eq!(
                return_type(
                    Lang::Kotlin,
                    "fun <T> Money.doubled(x: T): Money?",
                    "doubled"
                )
                .as_deref(),
                Some("Money")
            );
            assert_eq!(
                return_type(Lang::Kotlin, "override fun describe()", "describe"),
                None
            );
        }
    }

    #[cfg(feature = "lang-csharp")]
    #[test]
    fn csharp_bases_and_return_types() {
        assert_eq!(
            bases(
                Lang::CSharp,
                "public class A<T> : B<T, int>, IC where T : ID"
            ),
            ["B", "IC"]
        );
        assert!(bases(Lang::CSharp, "class A<T> where T : ID").is_empty());
        assert_eq!(
            bases(Lang::CSharp, "public record P(int X) : Base(X)"),
            ["Base"]
        );
        assert_eq!(
            return_type(
                Lang::CSharp,
                "public static Dictionary<string, Item> Index<T>(T x)",
                "Index"
            )
            .as_deref(),
            Some("Dictionary")
        );
        assert_eq!(
            return_type(Lang::CSharp, "public virtual Item? Find(string k)", "Find").as_deref(),
            Some("Item")
        );
        assert_eq!(
            return_type(Lang::CSharp, "public Item(string name)", "Item"),
            None
        );
        assert_eq!(return_type(Lang::CSharp, "void Run()", "Run"), None);
        assert_eq!(param_range(Lang::CSharp, "void Run()", "Run"), Some((0, 0)));
        assert_eq!(
            param_range(
                Lang::CSharp,
                "public T Get<T>(Dictionary<string, T> map, string key, int n = 0)",
                "Get"
            ),
            Some((2, 3))
        );
        assert_eq!(
            param_range(
                Lang::CSharp,
                "public static void Write(this ILogger log, [CallerMemberName] string m = \"\", params object[] rest)",
                "Write"
            ),
            Some((0, u8::MAX))
        );
        assert_eq!(
            param_range(
                Lang::CSharp,
                "public void TryWrite(int a) Write(int a, int b)",
                "Write"
            ),
            Some((2, 2))
        );
        assert_eq!(
            param_range(Lang::CSharp, "public void Write(int a, int…", "Write"),
            None
        );
    }
}

//! ra-callers: the Rust back end of `scripts/truth/callers_truth.py` ("who calls X?" ground truth).
//!
//! Loads a Cargo workspace with rust-analyzer's library crates (`ra_ap_load-cargo`,
//! `ra_ap_hir`, `ra_ap_ide_db`) and prints one JSON document (format: callers_truth.py):
//! - defs: every function, method, associated function, trait method and tuple-struct
//!   constructor written in the checkout's own `.rs` files that rust-analyzer sees (files that
//!   are no crate's module and items that are cfg'd out, like `#[cfg(windows)]` code on Linux,
//!   are left out: nothing could be resolved to them);
//! - refs: every name rust-analyzer resolves to one of them (`NameRefClass::classify`), with
//!   its kind: "call" for the callee of `f(..)`, `T::f(..)`, `x.f(..)`, `Name(..)`, else
//!   "import", "qualifier", "value", "type" or "other". Macro calls are expanded and their
//!   expansions walked; a name there is kept at the place it was written by hand (macro input)
//!   with `in_macro: true`, and dropped when the macro's own definition wrote it. A method call
//!   counts for the impl method rust-analyzer picks for the receiver's type, or for the trait's
//!   declaration when it cannot pick one (generic receiver, `dyn Trait`). `Self(..)` is not
//!   counted as a call of the tuple struct. `cfg(test)` is on for the workspace's crates.
//! - stats: call expressions whose callee's name was written in the checkout, split into those
//!   resolved to a listed definition, resolved to anything else (std, dependencies, enum
//!   variants, closures in locals, `Self(..)`), and unresolved (the syntax of cfg'd-out code is
//!   walked too and counts here).
//!
//! Build (outside the main crate; the empty `[workspace]` keeps it out of llmc's build):
//!     cd scripts/truth/ra_callers
//!     CARGO_TARGET_DIR=/work/truth-tools/ra-callers/target cargo build --release
//! Run (the checkout's dependencies fetched first with `cargo fetch`):
//!     ra-callers /work/real/just > facts.json
//! or through callers_truth.py with RA_CALLERS pointing at the binary. Method calls on std
//! types resolve only when the standard library's sources are found: RUST_SRC_PATH (a folder
//! holding core/, alloc/, std/, e.g. Debian's rust-src package: /usr/src/rustc-1.63.0/library,
//! callers_truth.py's default) or the toolchain's rust-src component; without them calls into
//! std and calls on what they return are unresolved. Build scripts and proc macros are not run:
//! what a derive adds is missing (clap's `Opts::parse()`), attribute macros are ignored.
//! Progress goes to stderr; RA_CALLERS_ALL_UNRESOLVED=1 lists every unresolved call there.

use std::{
    collections::{BTreeSet, HashMap},
    path::{Path, PathBuf},
    time::Instant,
};

use ra_ap_hir::{Adt, Function, ModuleDef, PathResolution, Semantics, Struct};
use ra_ap_ide_db::{
    RootDatabase,
    base_db::SourceDatabase,
    defs::{Definition, NameRefClass},
};
use ra_ap_load_cargo::{LoadCargoConfig, ProcMacroServerChoice, load_workspace_at};
use ra_ap_paths::AbsPathBuf;
use ra_ap_project_model::{CargoConfig, RustLibSource};
use ra_ap_syntax::{AstNode, SyntaxNode, TextSize, ast, ast::HasName};
use ra_ap_vfs::{FileId, Vfs};
use serde_json::{Value, json};

/// Version of the ra_ap_* crates pinned in Cargo.toml (keep the two equal).
const RA_AP_VERSION: &str = "0.0.348";
/// Macro expansions nested deeper than this are not walked.
const MAX_MACRO_DEPTH: usize = 32;
const MAX_UNRESOLVED_SAMPLES: usize = 20;

struct FileInfo {
    rel: String,
    text: String,
    line_starts: Vec<usize>,
}

impl FileInfo {
    fn new(rel: String, text: String) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        FileInfo {
            rel,
            text,
            line_starts,
        }
    }

    /// 1-based line and 1-based column (in characters) of a byte offset.
    fn line_col(&self, offset: TextSize) -> (usize, usize) {
        let off = usize::from(offset).min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= off) - 1;
        let col = self.text[self.line_starts[line]..off].chars().count();
        (line + 1, col + 1)
    }

    fn line_text(&self, line: usize) -> &str {
        let start = self.line_starts[line - 1];
        let end = self
            .line_starts
            .get(line)
            .map_or(self.text.len(), |e| e - 1);
        &self.text[start..end]
    }
}

#[derive(Default)]
struct Stats {
    call_exprs: usize,
    in_repo: usize,
    outside: usize,
    unresolved: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Target {
    /// one of the listed definitions ("calls_resolved_in_repo")
    Def(usize),
    /// anything else rust-analyzer resolves the callee to ("calls_resolved_outside"): std and
    /// dependencies, but also enum variants, locals holding closures, `Self(..)`, items made
    /// by macros
    Elsewhere,
    Unresolved,
}

/// One reference: (def index, file, line, col, kind, in_macro).
type RefRow = (usize, FileId, usize, usize, &'static str, bool);

struct Walker<'a, 'db> {
    sema: &'a Semantics<'db, RootDatabase>,
    db: &'db RootDatabase,
    files: &'a HashMap<FileId, FileInfo>,
    fn_defs: HashMap<Function, usize>,
    struct_defs: HashMap<Struct, usize>,
    refs: BTreeSet<RefRow>,
    stats: Stats,
    unresolved_samples: Vec<String>,
}

fn main() {
    let t0 = Instant::now();
    let arg = std::env::args().nth(1).unwrap_or_else(|| {
        eprintln!("usage: ra-callers CHECKOUT");
        std::process::exit(2)
    });
    let root = std::fs::canonicalize(&arg).unwrap_or_else(|e| {
        eprintln!("ra-callers: {arg}: {e}");
        std::process::exit(2)
    });

    let std_src = std_sources();
    match &std_src {
        Some(p) => eprintln!("ra-callers: standard library sources: {}", p.display()),
        None => eprintln!(
            "ra-callers: no standard library sources (no rust-src, RUST_SRC_PATH unset): \
             calls into std will be unresolved"
        ),
    }
    let cargo_config = CargoConfig {
        // with no sources, no sysroot at all: rust-analyzer would otherwise try to run
        // `rustup component add rust-src`, which needs the network
        sysroot: std_src.is_some().then_some(RustLibSource::Discover),
        sysroot_src: std_src.clone().map(AbsPathBuf::assert_utf8),
        all_targets: true,
        set_test: true,
        ..Default::default()
    };
    // no `cargo check`, no proc macro server: build scripts are not run and proc macros not
    // expanded (their items stay plain items, as in the earlier version of this tool); what a
    // derive would have added is missing, e.g. clap's `Opts::parse()` is unresolved and so are
    // calls on the value it returns
    let load_config = LoadCargoConfig {
        load_out_dirs_from_check: false,
        with_proc_macro_server: ProcMacroServerChoice::None,
        prefill_caches: false,
        num_worker_threads: 1,
        proc_macro_processes: 1,
    };
    eprintln!("ra-callers: loading {}", root.display());
    let (db, vfs, _proc_macro) = load_workspace_at(&root, &cargo_config, &load_config, &|_| {})
        .unwrap_or_else(|e| {
            eprintln!("ra-callers: cannot load the workspace: {e:#}");
            std::process::exit(1)
        });
    eprintln!("ra-callers: loaded in {:.1}s", t0.elapsed().as_secs_f64());

    // the type checker reads the database from a thread-local: attach it for the whole run
    let out = ra_ap_hir::attach_db(&db, || analyse(&db, &vfs, &root, std_src.as_deref(), t0));
    println!("{out}");
    eprintln!("ra-callers: done in {:.1}s", t0.elapsed().as_secs_f64());
}

/// The standard library's sources (the folder holding `core/`, `alloc/`, `std/`): RUST_SRC_PATH
/// if it points at one, else the rust-src component of the toolchain `rustc` belongs to.
fn std_sources() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("RUST_SRC_PATH") {
        let p = PathBuf::from(p);
        if p.join("core").is_dir() {
            return std::fs::canonicalize(&p).ok();
        }
        eprintln!(
            "ra-callers: RUST_SRC_PATH={} has no core/, ignored",
            p.display()
        );
    }
    let out = std::process::Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .ok()?;
    let sysroot = String::from_utf8(out.stdout).ok()?;
    let p = Path::new(sysroot.trim()).join("lib/rustlib/src/rust/library");
    p.join("core").is_dir().then_some(p)
}

/// Lists the definitions and references of the checkout at `root` (see the header).
fn analyse(
    db: &RootDatabase,
    vfs: &Vfs,
    root: &Path,
    std_src: Option<&Path>,
    t0: Instant,
) -> Value {
    // the checkout's own .rs files (not its target folder, not dependencies, not the sysroot)
    let target_dir = root.join("target");
    let mut files: HashMap<FileId, FileInfo> = HashMap::new();
    for (file_id, vpath) in vfs.iter() {
        let Some(abs) = vpath.as_path() else { continue };
        let p: &Path = abs.as_ref();
        if p.extension().is_none_or(|e| e != "rs") || p.starts_with(&target_dir) {
            continue;
        }
        let Ok(rel) = p.strip_prefix(root) else {
            continue;
        };
        let rel = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>();
        let text = db.file_text(file_id).text(db).to_string();
        files.insert(file_id, FileInfo::new(rel.join("/"), text));
    }
    let sema = Semantics::new(db);
    // only files that are modules of a crate: rust-analyzer resolves nothing in the others
    // (`#[cfg(windows)] mod windows;` on Linux, stray sources)
    let mut order: Vec<FileId> = files
        .keys()
        .copied()
        .filter(|&f| sema.file_to_module_defs(f).next().is_some())
        .collect();
    order.sort_by(|a, b| files[a].rel.cmp(&files[b].rel));
    let mut defs: Vec<serde_json::Map<String, Value>> = Vec::new();
    let mut walker = Walker {
        sema: &sema,
        db,
        files: &files,
        fn_defs: HashMap::new(),
        struct_defs: HashMap::new(),
        refs: BTreeSet::new(),
        stats: Stats::default(),
        unresolved_samples: Vec::new(),
    };

    // pass 1: definitions, read from each file's syntax tree and matched to hir items
    let mut trees = Vec::new();
    for &file_id in &order {
        let tree = sema.parse_guess_edition(file_id);
        walker.collect_defs(file_id, tree.syntax(), &mut defs);
        trees.push((file_id, tree));
    }
    eprintln!(
        "ra-callers: {} files, {} definitions",
        order.len(),
        defs.len()
    );

    // pass 2: every name reference, in the file and in the expansions of its macro calls
    for (i, (file_id, tree)) in trees.iter().enumerate() {
        walker.walk(*file_id, tree.syntax(), false, 0);
        if (i + 1) % 50 == 0 {
            eprintln!(
                "ra-callers: {}/{} files, {:.1}s",
                i + 1,
                trees.len(),
                t0.elapsed().as_secs_f64()
            );
        }
    }

    // a name in a macro's input can land in several expansions and resolve differently there
    let mut defs_at: HashMap<(FileId, usize, usize), BTreeSet<usize>> = HashMap::new();
    for &(def, file, line, col, _, _) in &walker.refs {
        defs_at.entry((file, line, col)).or_default().insert(def);
    }
    let refs: Vec<Value> = walker
        .refs
        .iter()
        .map(|&(def, file, line, col, kind, in_macro)| {
            let mut r = json!({
                "def": defs[def]["id"], "path": files[&file].rel, "line": line, "col": col,
                "kind": kind,
            });
            if in_macro {
                r["in_macro"] = json!(true);
            }
            if defs_at[&(file, line, col)].len() > 1 {
                r["ambiguous"] = json!(true);
            }
            r
        })
        .collect();
    let st = &walker.stats;
    json!({
        "tool": "rust-analyzer (ra_ap_ide_db/ra_ap_hir)",
        "tool_version": RA_AP_VERSION,
        "stats": {
            "files": order.len(),
            "call_exprs": st.call_exprs,
            "calls_resolved_in_repo": st.in_repo,
            "calls_resolved_outside": st.outside,
            "calls_unresolved": st.unresolved,
            "seconds": (t0.elapsed().as_secs_f64() * 10.0).round() / 10.0,
        },
        "unresolved_samples": walker.unresolved_samples,
        "std_sources": std_src.map(|p| p.display().to_string()),
        "defs": defs,
        "refs": refs,
    })
}

/// The name a developer gives an impl's self type: `Foo` for `Foo<'a, T>` or `a::Foo`, `&Foo`
/// for `&'a Foo<T>` (an impl for a reference is another impl than the one for the type).
fn type_name(ty: &ast::Type) -> String {
    match ty {
        ast::Type::PathType(p) => p
            .path()
            .and_then(|p| p.segment())
            .and_then(|s| s.name_ref())
            .map(|n| n.text().trim_start_matches("r#").to_string())
            .unwrap_or_else(|| ty.syntax().text().to_string()),
        ast::Type::RefType(r) => {
            let inner = r.ty().map(|t| type_name(&t)).unwrap_or_default();
            if r.mut_token().is_some() {
                format!("&mut {inner}")
            } else {
                format!("&{inner}")
            }
        }
        ast::Type::ParenType(p) => p.ty().map(|t| type_name(&t)).unwrap_or_default(),
        _ => ty
            .syntax()
            .text()
            .to_string()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    }
}

fn path_name(path: Option<ast::Path>) -> Option<String> {
    let seg = path?.segment()?;
    Some(seg.name_ref()?.text().trim_start_matches("r#").to_string())
}

/// Is this name the callee of a call: `x.name(..)`, `name(..)`, `a::b::name(..)`?
fn is_callee(name_ref: &ast::NameRef) -> bool {
    let Some(parent) = name_ref.syntax().parent() else {
        return false;
    };
    if let Some(mc) = ast::MethodCallExpr::cast(parent.clone()) {
        return mc.name_ref().as_ref() == Some(name_ref);
    }
    let Some(seg) = ast::PathSegment::cast(parent) else {
        return false;
    };
    let path = seg.parent_path();
    if path.parent_path().is_some() {
        return false;
    }
    let Some(pe) = path.syntax().parent().and_then(ast::PathExpr::cast) else {
        return false;
    };
    pe.syntax()
        .parent()
        .and_then(ast::CallExpr::cast)
        .and_then(|c| c.expr())
        .is_some_and(|callee| callee.syntax() == pe.syntax())
}

/// What kind of reference a resolved name is, from where it stands.
fn ref_kind(name_ref: &ast::NameRef) -> &'static str {
    if is_callee(name_ref) {
        return "call";
    }
    let Some(seg) = name_ref.syntax().parent().and_then(ast::PathSegment::cast) else {
        return "other";
    };
    let path = seg.parent_path();
    if path
        .syntax()
        .ancestors()
        .any(|a| ast::UseTree::can_cast(a.kind()))
    {
        return "import";
    }
    if path.parent_path().is_some() {
        return "qualifier";
    }
    match path.syntax().parent() {
        Some(p) if ast::PathExpr::can_cast(p.kind()) => "value",
        Some(p) if ast::PathType::can_cast(p.kind()) => "type",
        _ => "other",
    }
}

impl<'a, 'db> Walker<'a, 'db> {
    fn collect_defs(
        &mut self,
        file_id: FileId,
        root: &SyntaxNode,
        defs: &mut Vec<serde_json::Map<String, Value>>,
    ) {
        let info = &self.files[&file_id];
        let module = info
            .rel
            .strip_suffix(".rs")
            .unwrap_or(&info.rel)
            .to_string();
        for node in root.descendants() {
            // Functions declared inside a function body (test helpers like `fn case(..)` in a
            // #[test]) are listed like the others and not marked "nested": rust-analyzer resolves
            // their calls as well as any, and the earlier version of this tool asked about them.
            let (name, kind, container, trait_impl, fn_def, struct_def);
            if let Some(f) = ast::Fn::cast(node.clone()) {
                let Some(n) = f.name() else { continue };
                name = n;
                let has_self = f.param_list().and_then(|p| p.self_param()).is_some();
                let owner = f
                    .syntax()
                    .parent()
                    .filter(|p| ast::AssocItemList::can_cast(p.kind()));
                let owner = owner.and_then(|l| l.parent());
                match owner {
                    Some(o) if ast::Impl::can_cast(o.kind()) => {
                        let imp = ast::Impl::cast(o).unwrap();
                        kind = if has_self {
                            "method"
                        } else {
                            "associated_function"
                        };
                        container = imp.self_ty().map(|t| type_name(&t));
                        trait_impl = imp.trait_().and_then(|t| match t {
                            ast::Type::PathType(p) => path_name(p.path()),
                            other => Some(type_name(&other)),
                        });
                    }
                    Some(o) if ast::Trait::can_cast(o.kind()) => {
                        let tr = ast::Trait::cast(o).unwrap();
                        kind = if has_self {
                            "trait_method"
                        } else {
                            "trait_associated_function"
                        };
                        container = tr
                            .name()
                            .map(|n| n.text().trim_start_matches("r#").to_string());
                        trait_impl = None;
                    }
                    _ => {
                        kind = "function";
                        container = None;
                        trait_impl = None;
                    }
                }
                fn_def = self.sema.to_def(&f);
                struct_def = None;
            } else if let Some(s) = ast::Struct::cast(node.clone()) {
                if !matches!(s.field_list(), Some(ast::FieldList::TupleFieldList(_))) {
                    continue;
                }
                let Some(n) = s.name() else { continue };
                name = n;
                kind = "tuple_struct_constructor";
                container = None;
                trait_impl = None;
                fn_def = None;
                struct_def = self.sema.to_def(&s);
            } else {
                continue;
            }
            let name_text = name.text().trim_start_matches("r#").to_string();
            let (line, col) = info.line_col(name.syntax().text_range().start());
            // an item rust-analyzer does not see (cfg'd out: `#[cfg(windows)]` on Linux) has
            // no calls it could list, so it is left out, as the files in no crate are
            let idx = defs.len();
            match (fn_def, struct_def) {
                (Some(f), _) if !self.fn_defs.contains_key(&f) => self.fn_defs.insert(f, idx),
                (_, Some(s)) if !self.struct_defs.contains_key(&s) => {
                    self.struct_defs.insert(s, idx)
                }
                _ => continue,
            };
            let qualname = match &container {
                Some(c) => format!("{c}::{name_text}"),
                None => name_text.clone(),
            };
            let mut d = serde_json::Map::new();
            d.insert("id".into(), json!(format!("{}:{}:{}", info.rel, line, col)));
            d.insert("path".into(), json!(info.rel));
            d.insert("line".into(), json!(line));
            d.insert("name".into(), json!(name_text));
            d.insert("qualname".into(), json!(qualname));
            d.insert("kind".into(), json!(kind));
            d.insert("container".into(), json!(container));
            d.insert("module".into(), json!(module));
            if let Some(t) = trait_impl {
                d.insert("trait_impl".into(), json!(t));
            }
            defs.push(d);
        }
    }

    /// Where a node was written: its own place in a file, or for a node of a macro expansion
    /// the place its tokens came from (None when the macro's definition wrote it).
    fn locate(
        &self,
        file_id: FileId,
        node: &SyntaxNode,
        in_macro: bool,
    ) -> Option<(FileId, usize, usize)> {
        let (file, offset) = if in_macro {
            let fr = self.sema.original_range_opt(node)?;
            (fr.file_id.file_id(self.db), fr.range.start())
        } else {
            (file_id, node.text_range().start())
        };
        let info = self.files.get(&file)?;
        let (line, col) = info.line_col(offset);
        Some((file, line, col))
    }

    fn walk(&mut self, file_id: FileId, root: &SyntaxNode, in_macro: bool, depth: usize) {
        for node in root.descendants() {
            if let Some(name_ref) = ast::NameRef::cast(node.clone()) {
                self.name_ref(file_id, &name_ref, in_macro);
            } else if let Some(call) = ast::CallExpr::cast(node.clone()) {
                self.call_expr(file_id, &call, in_macro);
            } else if let Some(call) = ast::MethodCallExpr::cast(node.clone()) {
                self.method_call(file_id, &call, in_macro);
            } else if let Some(mc) = ast::MacroCall::cast(node.clone()) {
                if depth >= MAX_MACRO_DEPTH {
                    continue;
                }
                if let Some(exp) = self.sema.expand_macro_call(&mc) {
                    self.walk(file_id, &exp.value, true, depth + 1);
                }
            }
        }
    }

    /// The listed definition a resolved name stands for. `Self(..)` in an impl of a tuple
    /// struct resolves to the impl's self type, not to the struct, and is not counted as a call
    /// of the constructor (as in the earlier version of this tool).
    fn def_target(&self, def: Definition<'db>) -> Option<usize> {
        match def {
            Definition::Function(f) => self.fn_defs.get(&f).copied(),
            Definition::Adt(Adt::Struct(s)) => self.struct_defs.get(&s).copied(),
            _ => None,
        }
    }

    fn name_ref(&mut self, file_id: FileId, name_ref: &ast::NameRef, in_macro: bool) {
        let Some(NameRefClass::Definition(def, _)) = NameRefClass::classify(self.sema, name_ref)
        else {
            return;
        };
        let Some(idx) = self.def_target(def) else {
            return;
        };
        let kind = ref_kind(name_ref);
        let Some((file, line, col)) = self.locate(file_id, name_ref.syntax(), in_macro) else {
            return;
        };
        self.refs.insert((idx, file, line, col, kind, in_macro));
    }

    fn classify_def(&self, def: Definition<'db>) -> Target {
        match self.def_target(def) {
            Some(i) => Target::Def(i),
            None => Target::Elsewhere,
        }
    }

    fn count(&mut self, target: Target, at: Option<(FileId, usize, usize)>) {
        let Some((file, line, col)) = at else { return };
        self.stats.call_exprs += 1;
        match target {
            Target::Def(_) => self.stats.in_repo += 1,
            Target::Elsewhere => self.stats.outside += 1,
            Target::Unresolved => {
                self.stats.unresolved += 1;
                if std::env::var_os("RA_CALLERS_ALL_UNRESOLVED").is_some() {
                    let info = &self.files[&file];
                    eprintln!(
                        "unresolved {}:{}:{}: {}",
                        info.rel,
                        line,
                        col,
                        info.line_text(line).trim()
                    );
                }
                if self.unresolved_samples.len() < MAX_UNRESOLVED_SAMPLES {
                    let info = &self.files[&file];
                    let src: String = info.line_text(line).trim().chars().take(100).collect();
                    self.unresolved_samples
                        .push(format!("{}:{}:{}: {}", info.rel, line, col, src));
                }
            }
        }
    }

    fn call_expr(&mut self, file_id: FileId, call: &ast::CallExpr, in_macro: bool) {
        let Some(callee) = call.expr() else { return };
        let (target, anchor) = match &callee {
            ast::Expr::PathExpr(pe) => {
                let Some(path) = pe.path() else { return };
                let anchor = path
                    .segment()
                    .and_then(|s| s.name_ref())
                    .map(|n| n.syntax().clone())
                    .unwrap_or_else(|| path.syntax().clone());
                let target = match self.sema.resolve_path(&path) {
                    Some(PathResolution::Def(ModuleDef::Function(f))) => {
                        self.classify_def(Definition::Function(f))
                    }
                    Some(res) => self.classify_def(Definition::from(res)),
                    None => Target::Unresolved,
                };
                (target, anchor)
            }
            other => {
                // `(self.f)(..)`, `make()(..)`: a call of a value; resolved if it has a callable type
                let callable = self
                    .sema
                    .type_of_expr(other)
                    .and_then(|ti| ti.adjusted().as_callable(self.db));
                let target = match callable {
                    Some(_) => Target::Elsewhere,
                    None => Target::Unresolved,
                };
                (target, other.syntax().clone())
            }
        };
        let at = self.locate(file_id, &anchor, in_macro);
        self.count(target, at);
    }

    fn method_call(&mut self, file_id: FileId, call: &ast::MethodCallExpr, in_macro: bool) {
        let Some(name_ref) = call.name_ref() else {
            return;
        };
        let target = match self.sema.resolve_method_call(call) {
            Some(f) => self.classify_def(Definition::Function(f)),
            None => Target::Unresolved,
        };
        let at = self.locate(file_id, name_ref.syntax(), in_macro);
        self.count(target, at);
    }
}

//! Plain data shared by the index stages and the stores: no I/O, no behaviour beyond
//! small conversions.

use serde::Serialize;

/// What kind of thing a definition is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SymbolKind {
    Function,
    Method,
    Class,
    Struct,
    Enum,
    Trait,
    Interface,
    Impl,
    Module,
    Constant,
    Type,
    Macro,
}

impl SymbolKind {
    /// Every kind, in a stable order.
    pub const ALL: [SymbolKind; 12] = [
        SymbolKind::Function,
        SymbolKind::Method,
        SymbolKind::Class,
        SymbolKind::Struct,
        SymbolKind::Enum,
        SymbolKind::Trait,
        SymbolKind::Interface,
        SymbolKind::Impl,
        SymbolKind::Module,
        SymbolKind::Constant,
        SymbolKind::Type,
        SymbolKind::Macro,
    ];

    /// The lower-case name used in the store, the queries and the output.
    pub fn as_str(self) -> &'static str {
        match self {
            SymbolKind::Function => "function",
            SymbolKind::Method => "method",
            SymbolKind::Class => "class",
            SymbolKind::Struct => "struct",
            SymbolKind::Enum => "enum",
            SymbolKind::Trait => "trait",
            SymbolKind::Interface => "interface",
            SymbolKind::Impl => "impl",
            SymbolKind::Module => "module",
            SymbolKind::Constant => "constant",
            SymbolKind::Type => "type",
            SymbolKind::Macro => "macro",
        }
    }

    /// Parses the name written by [`SymbolKind::as_str`].
    pub fn parse(s: &str) -> Option<SymbolKind> {
        SymbolKind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// True for kinds whose body holds methods (a function directly inside one is a method).
    pub fn is_type_container(self) -> bool {
        matches!(
            self,
            SymbolKind::Class
                | SymbolKind::Struct
                | SymbolKind::Enum
                | SymbolKind::Trait
                | SymbolKind::Interface
                | SymbolKind::Impl
                | SymbolKind::Type
        )
    }
}

impl std::fmt::Display for SymbolKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One definition found in a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Symbol {
    /// The bare name, e.g. `push`.
    pub name: String,
    /// The chain of enclosing definitions in the file, e.g. `Stack::push` or `Scheduler.run`.
    pub qualname: String,
    pub kind: SymbolKind,
    /// 1-based inclusive line range of the definition proper (without doc comments,
    /// attributes or decorators standing before it).
    pub start_line: u32,
    pub end_line: u32,
    /// The declaration up to its body, whitespace collapsed.
    pub signature: String,
    /// The doc comment or docstring, markers stripped; empty when there is none.
    pub doc: String,
    /// Index of the enclosing definition in the same file's symbol list.
    pub parent: Option<usize>,
    /// First line of the doc comment, attributes or decorators before the definition
    /// (equal to `start_line` when there are none).
    pub lead_line: u32,
}

/// What a chunk of retrievable text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChunkKind {
    /// A definition with its doc comment.
    Definition,
    /// Code outside any definition (imports, top-level statements).
    Code,
    /// A section of a document, split by heading.
    Section,
    /// A window of a file with no structure we parse.
    Window,
}

impl ChunkKind {
    /// The lower-case name used in the store and the output.
    pub fn as_str(self) -> &'static str {
        match self {
            ChunkKind::Definition => "definition",
            ChunkKind::Code => "code",
            ChunkKind::Section => "section",
            ChunkKind::Window => "window",
        }
    }
}

/// The unit of retrieval.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Chunk {
    /// 1-based inclusive lines.
    pub start_line: u32,
    pub end_line: u32,
    pub kind: ChunkKind,
    /// The definition's qualified name, the section's heading path, or none.
    pub symbol: Option<String>,
    /// Index into the file's symbol list when the chunk is a definition.
    pub symbol_index: Option<usize>,
    pub text: String,
}

/// How a call is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CallKind {
    /// `f(x)`.
    Plain,
    /// `recv.m(x)`, `recv->m(x)`, `pkg.F(x)`: the qualifier is a value or a module.
    Member,
    /// `A::b(x)`: the qualifier is a path (Rust, C++).
    Path,
    /// `new Foo(x)`.
    New,
}

impl CallKind {
    /// The lower-case name used in the store.
    pub fn as_str(self) -> &'static str {
        match self {
            CallKind::Plain => "plain",
            CallKind::Member => "member",
            CallKind::Path => "path",
            CallKind::New => "new",
        }
    }

    /// Parses the name written by [`CallKind::as_str`].
    pub fn parse(s: &str) -> CallKind {
        match s {
            "member" => CallKind::Member,
            "path" => CallKind::Path,
            "new" => CallKind::New,
            _ => CallKind::Plain,
        }
    }
}

/// One call site as written in a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CallSite {
    /// Index of the innermost enclosing definition in the file's symbol list; `None` for
    /// top-level code.
    pub caller: Option<usize>,
    /// 1-based line and column of the called name.
    pub line: u32,
    pub col: u32,
    /// The called name (`push`, `new`, `Shelf`).
    pub name: String,
    /// The receiver or path before the name, as written (`self`, `osp.path`, `Task`).
    pub qualifier: Option<String>,
    pub kind: CallKind,
    /// The receiver's type as the file states it.
    pub receiver_type: Option<Receiver>,
    /// A call, or a use of the name that is not a call (a decorator, a function passed as
    /// a value).
    pub usage: Usage,
    /// How many arguments the call passes, where the language chooses among overloads by
    /// it (C#; see `ResolveRules::overloads`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub args: Option<u32>,
    /// The arguments' types where the call states them, comma-separated in order, `?`
    /// for one it does not (`LogEventLevel,string,=>,?`; `=>` a lambda, `null`): what
    /// tells overloads of the same arity apart (C#). A `$name` written by the walk is the
    /// variable `name`, typed by its binding before the call is stored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arg_types: Option<String>,
}

/// Where the code graph resolved a call site: its row's callee columns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallTarget {
    pub callee_id: Option<i64>,
    pub resolution: Resolution,
    /// How many definitions the name could mean.
    pub candidates: i64,
    /// The name outside the repository the call reaches (no callee then).
    pub external: Option<String>,
}

/// How a call site uses the name it names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Usage {
    /// `f(x)`: called here.
    #[default]
    Call,
    /// `@f` / `@app.route` without arguments: applied as a decorator.
    Decorator,
    /// `register(f)`, `xs.map(Self::f)`: passed or stored as a value.
    Value,
    /// `$crate::max_level()` in a `macro_rules!` body: called where the macro expands,
    /// written here.
    Macro,
}

impl Usage {
    /// The lower-case name used in the store and in answers.
    pub fn as_str(self) -> &'static str {
        match self {
            Usage::Call => "call",
            Usage::Decorator => "decorator",
            Usage::Value => "value",
            Usage::Macro => "macro",
        }
    }

    pub fn is_call(&self) -> bool {
        *self == Usage::Call
    }

    /// How an answer names a use beside its resolution.
    pub fn label(self) -> &'static str {
        match self {
            Usage::Macro => "macro body",
            other => other.as_str(),
        }
    }

    /// Parses the name written by [`Usage::as_str`]; anything else is a call.
    pub fn parse(s: &str) -> Usage {
        match s {
            "decorator" => Usage::Decorator,
            "value" => Usage::Value,
            "macro" => Usage::Macro,
            _ => Usage::Call,
        }
    }
}

/// One import (or `#include`, `mod x;`, namespace alias) as written in a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Import {
    pub line: u32,
    /// The module path as written (`os.path`, `./render.js`, `crate::util`, `util.h`),
    /// without what [`ImportKind`] says (`static`, `<…>`, `mod`, `namespace`).
    pub module: String,
    pub kind: ImportKind,
    /// The imported name, or `None` when the module itself is imported.
    pub name: Option<String>,
    /// The local name, when it differs.
    pub alias: Option<String>,
    /// Everything the module exports is imported (`*`, `#include`).
    pub wildcard: bool,
}

/// Where a chunk is and what it holds, from the store: the facts a search hit and an
/// ask candidate both show (flattened into their JSON, so the field names are theirs).
/// The ids are not written: they change with every index run.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct ChunkLoc {
    pub path: String,
    pub start_line: u32,
    pub end_line: u32,
    /// The qualified name of the definition the chunk holds.
    pub symbol: Option<String>,
    pub kind: String,
    pub lang: String,
    #[serde(skip)]
    pub chunk_id: i64,
    #[serde(skip)]
    pub symbol_id: Option<i64>,
}

/// What a question asks for.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Intent {
    /// Who calls X.
    Callers,
    /// What X calls.
    Callees,
    /// Where X is defined, what it is.
    Definition,
    /// What X imports, or who imports X.
    Imports,
    /// When, who and why X changed.
    History,
    /// How or why something works.
    Concept,
    /// How do I do something.
    Howto,
    /// Where is the code that does something.
    Locate,
    /// A versus B.
    Compare,
}

impl Intent {
    /// Every intent, in a stable order.
    pub const ALL: [Intent; 9] = [
        Intent::Callers,
        Intent::Callees,
        Intent::Definition,
        Intent::Imports,
        Intent::History,
        Intent::Concept,
        Intent::Howto,
        Intent::Locate,
        Intent::Compare,
    ];

    /// The lower-case name used in JSON and the labelled sets.
    pub fn as_str(self) -> &'static str {
        match self {
            Intent::Callers => "callers",
            Intent::Callees => "callees",
            Intent::Definition => "definition",
            Intent::Imports => "imports",
            Intent::History => "history",
            Intent::Concept => "concept",
            Intent::Howto => "howto",
            Intent::Locate => "locate",
            Intent::Compare => "compare",
        }
    }

    /// Whether the intent is asked of a named thing and answered by the code graph:
    /// callers, callees, a definition or imports.
    pub fn is_structural(self) -> bool {
        matches!(
            self,
            Intent::Callers | Intent::Callees | Intent::Definition | Intent::Imports
        )
    }

    /// Parses [`Intent::as_str`].
    pub fn parse(s: &str) -> Option<Intent> {
        Intent::ALL.into_iter().find(|i| i.as_str() == s)
    }
}

/// One of the four memories a question can consult (and an index can be built without).
/// Serialized lowercase: the names the route table, the trace, `--json` evidence and
/// `[index]` use. The order (graph, history, lexical, semantic) breaks ties in a plan.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Memory {
    Graph,
    History,
    Lexical,
    Semantic,
}

impl Memory {
    /// Every memory, in a stable order.
    pub const ALL: [Memory; 4] = [
        Memory::Graph,
        Memory::History,
        Memory::Lexical,
        Memory::Semantic,
    ];

    /// The name used in the route table, the trace, `[index]` and messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Memory::Graph => "graph",
            Memory::History => "history",
            Memory::Lexical => "lexical",
            Memory::Semantic => "semantic",
        }
    }

    /// The memory named `s`, if any.
    pub fn parse(s: &str) -> Option<Memory> {
        Memory::ALL.into_iter().find(|m| m.as_str() == s)
    }

    /// The memory as messages name it.
    pub fn title(self) -> &'static str {
        match self {
            Memory::Graph => "the code graph",
            Memory::History => "the git history",
            Memory::Lexical => "the lexical index",
            Memory::Semantic => "the semantic index",
        }
    }
}

impl std::fmt::Display for Memory {
    // `pad`, so width and alignment in format strings apply as they did to the names.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

/// The memories an index holds beside its definitions and chunks (`[index]` graph,
/// history, lexical, semantic). The store records the set each generation was built with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MemorySet {
    pub graph: bool,
    pub history: bool,
    pub lexical: bool,
    pub semantic: bool,
}

impl MemorySet {
    /// All four: the default, and what a store made before the set was recorded holds.
    pub const ALL: MemorySet = MemorySet {
        graph: true,
        history: true,
        lexical: true,
        semantic: true,
    };

    /// Whether the set holds `m`.
    pub fn has(self, m: Memory) -> bool {
        match m {
            Memory::Graph => self.graph,
            Memory::History => self.history,
            Memory::Lexical => self.lexical,
            Memory::Semantic => self.semantic,
        }
    }

    /// Each memory's name and whether the set holds it, in a fixed order.
    fn fields(self) -> [(&'static str, bool); 4] {
        [
            ("graph", self.graph),
            ("history", self.history),
            ("lexical", self.lexical),
            ("semantic", self.semantic),
        ]
    }

    /// The names of the memories in the set, in a fixed order.
    pub fn names(self) -> Vec<&'static str> {
        self.fields()
            .into_iter()
            .filter_map(|(n, on)| on.then_some(n))
            .collect()
    }

    /// The form stored in the store's meta table: the names joined by commas.
    pub fn to_meta(self) -> String {
        self.names().join(",")
    }

    /// Reads the stored form; `None` (a store from before the set was recorded) is all four.
    pub fn from_meta(meta: Option<&str>) -> MemorySet {
        let Some(meta) = meta else {
            return MemorySet::ALL;
        };
        let has = |name: &str| meta.split(',').any(|n| n.trim() == name);
        MemorySet {
            graph: has("graph"),
            history: has("history"),
            lexical: has("lexical"),
            semantic: has("semantic"),
        }
    }

    /// What differs from `other`, as `index.NAME switched on`/`off` (empty when equal).
    pub fn changes_from(self, other: MemorySet) -> Vec<String> {
        self.fields()
            .into_iter()
            .zip(other.fields())
            .filter(|((_, a), (_, b))| a != b)
            .map(|((n, a), _)| format!("index.{n} switched {}", if a { "on" } else { "off" }))
            .collect()
    }
}

#[cfg(test)]
mod memory_set_tests {
    use super::MemorySet;

    #[test]
    fn the_stored_form_round_trips_and_an_old_store_has_all_four() {
        let some = MemorySet {
            graph: true,
            history: false,
            lexical: false,
            semantic: true,
        };
        assert_eq!(some.to_meta(), "graph,semantic");
        assert_eq!(MemorySet::from_meta(Some(&some.to_meta())), some);
        let none = MemorySet::from_meta(Some(""));
        assert_eq!(none.names(), Vec::<&str>::new());
        assert_eq!(MemorySet::from_meta(None), MemorySet::ALL);
        assert_eq!(
            some.changes_from(MemorySet::ALL),
            vec!["index.history switched off", "index.lexical switched off"]
        );
    }
}

/// File flags stored in `files.flags`.
pub mod flags {
    /// The parse had syntax errors.
    pub const SYNTAX_ERRORS: i64 = 1;
    /// The file was not valid UTF-8 and was decoded lossily.
    pub const INVALID_UTF8: i64 = 2;
    /// Some definitions were left out: nested deeper or named longer than the parser's
    /// bounds (`syntax::defs::MAX_DEFINITION_DEPTH`, `MAX_QUALNAME`).
    pub const TRUNCATED: i64 = 4;
    /// The file looks like it holds a secret (by name or content) and was indexed only
    /// because `index.include_secrets` is on: answers citing it are never cached.
    pub const SECRET: i64 = 8;
}

/// Call sites and imports of one file.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FileRefs {
    pub calls: Vec<CallSite>,
    pub imports: Vec<Import>,
    /// Fields (and attributes) whose type the file states, by their type's name.
    pub fields: Vec<Field>,
    /// Subtrees deeper than [`crate::syntax::refs::MAX_WALK_DEPTH`] that were not walked (their calls are
    /// not recorded).
    pub deep_subtrees: u32,
}

/// A field of a type as its file states it: `self.store = Store()` in a Python class,
/// `store: Store` in a Rust, Go or TypeScript struct, class or interface.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The name of the type the field belongs to (`Shelf`); empty for a module-level
    /// variable (a field of its file).
    pub owner: String,
    pub name: String,
    pub ty: Receiver,
}

/// How a call (or an import) was resolved, strongest first: the order is the strength
/// order `--resolution` filters by. `external` and `unresolved` are not edges: the call
/// leads outside the repository, or to nothing the graph can name.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    serde::Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
#[value(rename_all = "kebab-case")]
pub enum Resolution {
    /// Confirmed by a SCIP index, written by the language's own indexer (a compiler's
    /// answer): outranks every heuristic level below.
    Precise,
    /// The same scope and file.
    Exact,
    /// A name or module an import brings in, followed to its file.
    Import,
    /// A method on `self`/`this` or on the receiver's known type, a type-qualified path,
    /// the same package or directory; in C, the one function of that name with external
    /// linkage (the linker binds it by name).
    Scope,
    /// A name defined once in the repository.
    NameOnly,
    #[value(skip)]
    External,
    /// Everything, with the call sites whose receiver could not be typed (for callers:
    /// the calls with the target's name that nothing resolved).
    Unresolved,
}

impl Resolution {
    /// Every resolution, strongest first.
    pub const ALL: [Resolution; 7] = [
        Resolution::Precise,
        Resolution::Exact,
        Resolution::Import,
        Resolution::Scope,
        Resolution::NameOnly,
        Resolution::External,
        Resolution::Unresolved,
    ];

    /// The name stored in the index and shown in answers.
    pub fn as_str(self) -> &'static str {
        match self {
            Resolution::Precise => "precise",
            Resolution::Exact => "exact",
            Resolution::Import => "import",
            Resolution::Scope => "scope",
            Resolution::NameOnly => "name-only",
            Resolution::External => "external",
            Resolution::Unresolved => "unresolved",
        }
    }

    pub fn parse(s: &str) -> Option<Resolution> {
        Resolution::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// Whether the edge comes from a SCIP index (`precise`) rather than llmc's own
    /// resolution (every other level: `heuristic`).
    pub fn provenance(self) -> &'static str {
        if self == Resolution::Precise {
            "precise"
        } else {
            "heuristic"
        }
    }

    /// Whether the resolution names a definition in the repository (an edge).
    pub fn is_edge(self) -> bool {
        self <= Resolution::NameOnly
    }
}

impl std::fmt::Display for Resolution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The stored "called name" of a receiver typed through a chain (see
/// [`Receiver::called_name`]).
pub const ANY_CALL: &str = "*";

/// A call's receiver type as the file states it, before resolution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Receiver {
    /// A type name as written (`Foo`, `kv.Store`, `*Store` → `Store`).
    Type(String),
    /// The value of a call (`Foo()`, `kv.New()`, `Foo::new()`): typed later from what
    /// the callee returns.
    CallResult(String),
    /// The value of a chain of field reads and calls, arguments left out, its head a type
    /// written `<T>` or a name: `<Router>.PathPrefix().Subrouter()`, `<Shelf>.store`,
    /// `make_config().colors`. Typed later, link by link.
    Expr(String),
}

impl Receiver {
    /// The stored form: the type name, or the called expression followed by `()`.
    pub fn encode(&self) -> String {
        match self {
            Receiver::Type(t) => t.clone(),
            Receiver::CallResult(c) => format!("{c}()"),
            Receiver::Expr(e) => format!("={e}"),
        }
    }

    /// Reads the stored form back (see [`Receiver::encode`]).
    pub fn decode(s: &str) -> Receiver {
        if let Some(e) = s.strip_prefix('=') {
            return Receiver::Expr(e.to_string());
        }
        match s.strip_suffix("()") {
            Some(c) => Receiver::CallResult(c.to_string()),
            None => Receiver::Type(s.to_string()),
        }
    }

    /// The receiver of a value written as `expr` (see [`Receiver::Expr`]), in its simplest
    /// form: `<T>` is the type `T`, `f()` or `kv.New()` the value of one call.
    pub fn of_expr(expr: String) -> Receiver {
        if let Some(t) = expr.strip_prefix('<').and_then(|t| t.strip_suffix('>'))
            && !t.contains(['<', '>'])
        {
            return Receiver::Type(t.to_string());
        }
        if let Some(c) = expr.strip_suffix("()")
            && !c.contains(['(', '<'])
        {
            return Receiver::CallResult(c.to_string());
        }
        Receiver::Expr(expr)
    }

    /// What a change elsewhere can change this receiver's type through: for the value of
    /// one call, the called name's last segment (`kv.New` → `New`); for a chain,
    /// [`ANY_CALL`] (a change to any name the chain holds can: such receivers are typed
    /// again when a run writes or removes one of them, or a field named like one).
    pub fn called_name(&self) -> Option<&str> {
        match self {
            Receiver::Type(_) => None,
            Receiver::CallResult(c) if c.contains(['(', '<']) => Some(ANY_CALL),
            Receiver::CallResult(c) => Some(c.rsplit(['.', ':', '>']).next().unwrap_or(c)),
            Receiver::Expr(_) => Some(ANY_CALL),
        }
    }
}

/// Serialized in its stored form (see [`Receiver::encode`]).
impl Serialize for Receiver {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.encode())
    }
}

impl Import {
    /// A plain import of `module` on `line`: no name, no alias, not a wildcard.
    pub fn new(line: u32, module: String) -> Import {
        Import {
            line,
            module,
            kind: ImportKind::Module,
            name: None,
            alias: None,
            wildcard: false,
        }
    }

    /// The imported name, when the import names one.
    pub fn named(mut self, name: impl Into<Option<String>>) -> Import {
        self.name = name.into();
        self
    }

    /// The local name, when it differs.
    pub fn aliased(mut self, alias: impl Into<Option<String>>) -> Import {
        self.alias = alias.into();
        self
    }

    /// Whether everything the module exports is imported.
    pub fn wildcard(mut self, all: bool) -> Import {
        self.wildcard = all;
        self
    }

    pub fn of_kind(mut self, kind: ImportKind) -> Import {
        self.kind = kind;
        self
    }
}

/// What kind of import a row is: most are plain module imports; the others are told
/// apart because resolution treats them differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ImportKind {
    /// `import a.b`, `from a import b`, `use a::b`, `#include "x.h"`, `require("x")`.
    #[default]
    Module,
    /// Java `import static a.b.C.m` (a member of a class, not a class).
    Static,
    /// C/C++ `#include <x.h>`: a system header, never a repository file.
    System,
    /// Rust `mod x;`: the child module's file.
    ModDecl,
    /// C++ `namespace a = target;`.
    NamespaceAlias,
    /// The namespace or package a file declares its definitions in (C# `namespace A.B`):
    /// not an import, but it makes the other files of that namespace (and of the ones
    /// around it) visible, so resolution reads it as a wildcard import of them.
    Package,
    /// An import for every file of the project, not only its own (C# `global using A.B;`:
    /// every file under the folder of the nearest `.csproj`).
    Global,
}

impl ImportKind {
    pub const ALL: [ImportKind; 7] = [
        ImportKind::Module,
        ImportKind::Static,
        ImportKind::System,
        ImportKind::ModDecl,
        ImportKind::NamespaceAlias,
        ImportKind::Package,
        ImportKind::Global,
    ];

    /// The name stored in the index.
    pub fn as_str(self) -> &'static str {
        match self {
            ImportKind::Module => "module",
            ImportKind::Static => "static",
            ImportKind::System => "system",
            ImportKind::ModDecl => "mod",
            ImportKind::NamespaceAlias => "namespace",
            ImportKind::Package => "package",
            ImportKind::Global => "global",
        }
    }

    pub fn parse(s: &str) -> Option<ImportKind> {
        ImportKind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// The module as answers show it: `static a.b.C`, `<stdio.h>`, `mod util`,
    /// `namespace a::b`, `package A.B`, `global A.B`, or the module itself.
    pub fn written(self, module: &str) -> String {
        match self {
            ImportKind::Module => module.to_string(),
            ImportKind::Static => format!("static {module}"),
            ImportKind::System => format!("<{module}>"),
            ImportKind::ModDecl => format!("mod {module}"),
            ImportKind::NamespaceAlias => format!("namespace {module}"),
            ImportKind::Package => format!("package {module}"),
            ImportKind::Global => format!("global {module}"),
        }
    }
}

/// What a graph answer's candidate is: a definition of some kind, or a whole file (the
/// target of `imports`/`importers`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DefKind {
    Symbol(SymbolKind),
    File,
    /// A module or package named by import lines but not a file of the repository
    /// (`math`, `std::process`, `text/template`): the target of `importers` by name.
    Package,
    /// A name the code calls but does not define (`isinstance`, `ValueError`,
    /// `os.path.join`): the target of `callers` by name.
    External,
}

impl DefKind {
    /// The name answers show: the definition's kind (`function`, `class`...) or `file`.
    pub fn as_str(self) -> &'static str {
        match self {
            DefKind::Symbol(k) => k.as_str(),
            DefKind::File => "file",
            DefKind::Package => "package",
            DefKind::External => "external",
        }
    }

    pub fn parse(s: &str) -> Option<DefKind> {
        match s {
            "file" => Some(DefKind::File),
            "package" => Some(DefKind::Package),
            "external" => Some(DefKind::External),
            _ => SymbolKind::parse(s).map(DefKind::Symbol),
        }
    }
}

impl std::fmt::Display for DefKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Serialized as its name (`function`, `file`), as `--json` has always printed it.
impl Serialize for DefKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for DefKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<DefKind, D::Error> {
        let s = String::deserialize(d)?;
        DefKind::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("unknown kind {s:?}")))
    }
}

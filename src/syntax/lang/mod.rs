//! The languages llmc understands: detection from a path, the tree-sitter grammar and the
//! definition query of each (`queries/*.scm`), and the per-language rules the extractor
//! needs (qualified-name separator, which comments are documentation).

use std::path::Path;
use std::sync::OnceLock;

use tree_sitter::{Language, Node, Query};

use crate::syntax::refs::Walker;

mod bash;
mod c;
mod cpp;
#[cfg(feature = "lang-csharp")]
mod csharp;
#[cfg(feature = "lang-csharp")]
pub(crate) use csharp::MODIFIERS as CSHARP_MODIFIERS;
mod go;
mod java;
mod javascript;
#[cfg(feature = "lang-kotlin")]
mod kotlin;
mod lua;
mod php;
mod python;
mod ruby;
mod rust;
#[cfg(feature = "lang-scala")]
mod scala;
#[cfg(feature = "lang-swift")]
mod swift;
mod typescript;

/// A language parsed with tree-sitter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    Rust,
    Python,
    JavaScript,
    TypeScript,
    Tsx,
    Go,
    Java,
    C,
    Cpp,
    Ruby,
    Bash,
    Php,
    Lua,
    #[cfg(feature = "lang-csharp")]
    CSharp,
    #[cfg(feature = "lang-kotlin")]
    Kotlin,
    #[cfg(feature = "lang-swift")]
    Swift,
    #[cfg(feature = "lang-scala")]
    Scala,
}

/// The language of a file as stored: a parsed language, Markdown, or some other text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileLang {
    Code(Lang),
    Markdown,
    /// Unstructured text; the label names the format (`toml`, `yaml`, `text`, …).
    Text(&'static str),
}

impl FileLang {
    /// The name stored in the index and shown by `llmc status`.
    pub fn name(self) -> &'static str {
        match self {
            FileLang::Code(l) => l.name(),
            FileLang::Markdown => "markdown",
            FileLang::Text(label) => label,
        }
    }
}

/// Everything llmc knows about one language, as data: adding a language is one file in
/// this folder holding its `LangSpec` (and its visitor for bindings and imports), one `.scm`
/// query, one variant of [`Lang`] with its slot in [`Lang::spec`] and [`Lang::visit`].
pub struct LangSpec {
    /// The name stored in the index.
    pub name: &'static str,
    /// File extensions (lower case, no dot). `.h` is decided by content (C or C++).
    pub extensions: &'static [&'static str],
    /// Whole file names of the language whatever their extension (`Gemfile`).
    pub file_names: &'static [&'static str],
    /// Interpreters named on a `#!` first line that make an extensionless file the
    /// language's (`ruby` for `#!/usr/bin/env ruby`).
    pub shebangs: &'static [&'static str],
    /// Separator between the parts of a qualified name.
    pub separator: &'static str,
    /// The tree-sitter grammar.
    pub grammar: fn() -> Language,
    /// The definition query (`queries/*.scm`, concatenated where a language extends
    /// another).
    pub query: &'static str,
    /// Node kinds that cannot contain a definition the query looks for (statements made
    /// only of expressions, imports, literals, parameter lists): skipping them keeps
    /// extraction cheap next to parsing. Comments are added for every language.
    pub opaque: &'static [&'static str],
    /// Whether a comment's text counts as documentation for the definition after it.
    pub doc_comment: fn(&str) -> bool,
    /// A string first in a body documents it (Python docstrings).
    pub docstrings: bool,
    /// Where an ALL_CAPS name counts as a constant by convention.
    pub caps_constants: CapsConstants,
    /// Nodes that wrap a definition and belong to its range (`export`, a single-declarator
    /// `const`, `template<…>`).
    pub wrappers: &'static [Wrapper],
    /// A method counts as a definition only in a class body: JavaScript's
    /// `method_definition` not in an object literal; C#'s `method_declaration` and
    /// `constructor_declaration` not where a syntax error (a preprocessor directive inside
    /// a declaration) left them outside their type.
    pub methods_in_classes_only: bool,
    /// A struct or enum directly in a `typedef` is reported under the typedef's name.
    pub typedef_names: bool,
    /// `@param {Type} name` in a doc comment types the parameter (JSDoc).
    pub jsdoc_param_types: bool,
    /// How the language writes calls: read by the language-free walk in
    /// [`crate::syntax::refs`], before the visitor below sees the same node.
    pub calls: &'static [CallShape],
    /// How the code graph resolves the language's names across files.
    pub resolve: ResolveRules,
}

/// One way a language writes a call: the call's node kind, where its callee is, and the
/// forms the callee takes. The first form whose node kind matches records the call.
#[derive(Debug, Clone, Copy)]
pub struct CallShape {
    /// The call's node kind (`call`, `call_expression`, `new_expression`).
    pub node: &'static str,
    /// The field holding the callee, or "" for the call's first named child (Swift's and
    /// Kotlin's `call_expression` name their callee by no field); `None` when the call
    /// node is its own callee (Java's `method_invocation` names the method and the
    /// object itself).
    pub callee: Option<&'static str>,
    /// A wrapper around the callee looked through: (its kind, the field inside it, or ""
    /// for its first named child), e.g. Rust's `generic_function` or C++'s
    /// `template_function`.
    pub unwrap: Option<(&'static str, &'static str)>,
    /// A construction (`new Foo()`): every form records a `new` call.
    pub new: bool,
    pub forms: &'static [CalleeForm],
}

/// What a callee looks like (see [`CallShape`]).
#[derive(Debug, Clone, Copy)]
pub enum CalleeForm {
    /// A bare name of this node kind: `f()`.
    Name(&'static str),
    /// `object.name()`: the node kind, its object and name fields, and a wrapper around the
    /// name looked through (C++'s `template_method`).
    Member {
        node: &'static str,
        object: &'static str,
        name: &'static str,
        unwrap_name: Option<(&'static str, &'static str)>,
    },
    /// `path::name()` with path and name fields (Rust's `scoped_identifier`).
    Path {
        node: &'static str,
        path: &'static str,
        name: &'static str,
    },
    /// `a::b::name<T>()` read from the text: split at the last `::`, template arguments
    /// dropped (C++'s `qualified_identifier`).
    QualifiedText(&'static str),
    /// The call node names the method in `name` and, when there is one, its receiver in
    /// `object` (Java).
    NamedWithObject {
        name: &'static str,
        object: &'static str,
    },
    /// The callee's text is a type name (`new Foo<T>(…)` → `Foo`).
    TypeName,
    /// `object.name()` written as a node of this kind without fields: its first named
    /// child is the object and its last the name (Kotlin's `navigation_expression`, `a.b`
    /// and `a?.b`).
    Navigation(&'static str),
}

/// What the code graph's resolver needs to know of a language, as data (the resolver's
/// per-language functions, for imports, bases and return types, are in
/// `graph::resolve::{imports,hooks}`).
#[derive(Debug, Clone, Copy)]
pub struct ResolveRules {
    /// Languages of one family call each other's definitions: C and C++ share headers,
    /// JavaScript and the TypeScript dialects import each other.
    pub family: u8,
    /// Members of the enclosing type are in scope without `this.` (Java, C++).
    pub implicit_this: bool,
    /// The top-level names of the file's directory are in scope (Go and Java packages).
    pub package_scope: bool,
    /// A `static` function is private to its file (C, C++).
    pub file_static: bool,
    /// Included headers' includes are visible too, one level deep (C, C++).
    pub transitive_includes: bool,
    /// Functions with external linkage share one program-wide namespace, bound by name
    /// at link time (C): a call no scope resolves, of a function that exactly one file
    /// defines without `static`, is that function's call, as surely as the linker's.
    pub linked_names: bool,
    /// Rust's modules: files under a crate root reached by `::` paths (`crate`, `super`,
    /// `self`, child modules); a `.` receiver is a value, never a module; a type or name
    /// not imported is the crate's own, never another crate's.
    pub crate_modules: bool,
    /// A wildcard import's names are followed for qualified calls (Python, JavaScript).
    pub follows_wildcards: bool,
    /// Receivers meaning the current object besides `self`, `this`, `Self`, `cls`,
    /// `(*this)`.
    pub self_receivers: &'static [&'static str],
    /// Receivers meaning the current object as an instance of its base classes
    /// (`super`, C#'s `base`): a call on one is the method its bases define or inherit,
    /// never the caller's own class's.
    pub super_receivers: &'static [&'static str],
    /// Roots of paths into the standard library: calls through them are external.
    pub std_roots: &'static [&'static str],
    /// A capitalised receiver (`Task.create`) looks like a type (not in Python).
    pub caps_are_types: bool,
    /// A call on a value of unknown type may be a method found by name (not in C).
    pub has_methods: bool,
    /// Names every program can call without an import (`len`, `print`, `Ok`).
    pub builtins: &'static [&'static str],
    /// Objects every program can reach without an import (`console`, `Math`, `System`).
    pub global_objects: &'static [&'static str],
    /// Methods are overloaded by their number of parameters (C#): a call's argument count
    /// is recorded, and of the same-named methods of one type resolution takes one that
    /// admits it.
    pub overloads: bool,
    /// A type is never called like a function: `Foo()` is a method or a local function,
    /// not the type `Foo` (a construction is written `new Foo()`: C#).
    pub types_not_callable: bool,
}

impl ResolveRules {
    /// The rules of a language that needs none of the special cases. Its `family` is
    /// none: a spec built on it sets its own (0 is C's and C++'s), or its files call no
    /// other file's definitions.
    pub const PLAIN: ResolveRules = ResolveRules {
        family: u8::MAX,
        implicit_this: false,
        package_scope: false,
        file_static: false,
        transitive_includes: false,
        linked_names: false,
        crate_modules: false,
        follows_wildcards: false,
        self_receivers: &[],
        super_receivers: &[],
        std_roots: &[],
        caps_are_types: true,
        has_methods: true,
        builtins: &[],
        global_objects: &[],
        types_not_callable: false,
        overloads: false,
    };
}

/// Where module-level variables are definitions (see [`LangSpec::caps_constants`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CapsConstants {
    /// An assignment at the top level of the module (Python).
    ModuleLevel,
    /// A top-level `const`, `let` or `var` declaration, exported or not (JavaScript,
    /// TypeScript).
    TopLevelConst,
    /// A `val` named in upper case (`val Max`, `val MAX`, the convention for constants)
    /// directly in an object's body or at the top level (Scala).
    #[cfg(feature = "lang-scala")]
    UpperVals,
    /// The query tags no module-level variables.
    None,
    /// A `let` at the top level of the file, or a `static let` in a type's body (Swift:
    /// the query tags `let` declarations only).
    LetConstants,
}

/// A parent node that belongs to the range of the definition inside it.
#[derive(Debug, Clone, Copy)]
pub struct Wrapper {
    pub parent: &'static str,
    pub when: Wraps,
}

/// When a [`Wrapper`] wraps.
#[derive(Debug, Clone, Copy)]
pub enum Wraps {
    Always,
    /// Only when the definition is the parent's single child of its kind.
    OnlyChild,
    /// Only when the definition is of this kind.
    Child(&'static str),
}

impl Lang {
    /// Every parsed language, in the order of the variants (the optional ones last, as
    /// built: `Lang as usize` indexes the per-language tables below).
    pub const ALL: &'static [Lang] = &[
        Lang::Rust,
        Lang::Python,
        Lang::JavaScript,
        Lang::TypeScript,
        Lang::Tsx,
        Lang::Go,
        Lang::Java,
        Lang::C,
        Lang::Cpp,
        Lang::Ruby,
        Lang::Bash,
        Lang::Php,
        Lang::Lua,
        #[cfg(feature = "lang-csharp")]
        Lang::CSharp,
        #[cfg(feature = "lang-kotlin")]
        Lang::Kotlin,
        #[cfg(feature = "lang-swift")]
        Lang::Swift,
        #[cfg(feature = "lang-scala")]
        Lang::Scala,
    ];

    /// The language's spec: the one place a language is mapped to what llmc knows of it.
    pub fn spec(self) -> &'static LangSpec {
        match self {
            Lang::Rust => &rust::SPEC,
            Lang::Python => &python::SPEC,
            Lang::JavaScript => &javascript::SPEC,
            Lang::TypeScript => &typescript::TYPESCRIPT,
            Lang::Tsx => &typescript::TSX,
            Lang::Go => &go::SPEC,
            Lang::Java => &java::SPEC,
            Lang::C => &c::SPEC,
            Lang::Cpp => &cpp::SPEC,
            Lang::Ruby => &ruby::SPEC,
            Lang::Bash => &bash::SPEC,
            Lang::Php => &php::SPEC,
            Lang::Lua => &lua::SPEC,
            #[cfg(feature = "lang-csharp")]
            Lang::CSharp => &csharp::SPEC,
            #[cfg(feature = "lang-kotlin")]
            Lang::Kotlin => &kotlin::SPEC,
            #[cfg(feature = "lang-swift")]
            Lang::Swift => &swift::SPEC,
            #[cfg(feature = "lang-scala")]
            Lang::Scala => &scala::SPEC,
        }
    }

    /// The name stored in the index.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The language stored in the index as `name` (`None` for a text format).
    pub fn named(name: &str) -> Option<Lang> {
        Lang::ALL.iter().copied().find(|l| l.name() == name)
    }

    /// Separator between the parts of a qualified name.
    pub fn separator(self) -> &'static str {
        self.spec().separator
    }

    /// The tree-sitter grammar.
    pub fn grammar(self) -> Language {
        (self.spec().grammar)()
    }

    fn query_source(self) -> &'static str {
        self.spec().query
    }

    /// The compiled definition query, built once per process.
    pub fn query(self) -> &'static Query {
        static QUERIES: [OnceLock<Query>; Lang::ALL.len()] =
            [const { OnceLock::new() }; Lang::ALL.len()];
        let slot = &QUERIES[self as usize];
        slot.get_or_init(|| {
            // The queries are part of the binary and covered by tests: a failure here is a
            // programming error, not bad input.
            #[allow(clippy::expect_used)]
            Query::new(&self.grammar(), self.query_source()).expect("built-in query compiles")
        })
    }

    /// Node kinds that start a pattern in the definition query, and node kinds whose
    /// subtrees never hold a definition (so the extractor does not descend into them),
    /// as lookup tables indexed by kind id. Built once per process.
    pub fn kind_tables(self) -> &'static KindTables {
        static TABLES: [OnceLock<KindTables>; Lang::ALL.len()] =
            [const { OnceLock::new() }; Lang::ALL.len()];
        TABLES[self as usize].get_or_init(|| {
            let grammar = self.grammar();
            let count = grammar.node_kind_count();
            let roots: Vec<&str> = self
                .query_source()
                .lines()
                .filter_map(|l| l.strip_prefix('('))
                .filter_map(|l| l.split([' ', ')']).next())
                .collect();
            let opaque = self.opaque_kinds();
            let mut t = KindTables {
                root: vec![false; count],
                opaque: vec![false; count],
            };
            for id in 0..count as u16 {
                if let Some(name) = grammar.node_kind_for_id(id) {
                    t.root[id as usize] = roots.contains(&name);
                    t.opaque[id as usize] = opaque.contains(&name);
                }
            }
            t
        })
    }

    /// For each node kind id, 1 + the index of the call shape whose call node it is, or 0:
    /// the walk looks it up at every node. Built once per process.
    pub(in crate::syntax) fn call_shape_table(self) -> &'static [u8] {
        static TABLES: [OnceLock<Vec<u8>>; Lang::ALL.len()] =
            [const { OnceLock::new() }; Lang::ALL.len()];
        TABLES[self as usize].get_or_init(|| {
            let grammar = self.grammar();
            let mut t = vec![0u8; grammar.node_kind_count()];
            for (i, shape) in self.spec().calls.iter().enumerate() {
                for id in 0..t.len() as u16 {
                    if grammar.node_kind_for_id(id) == Some(shape.node)
                        && grammar.node_kind_is_named(id)
                    {
                        t[id as usize] = i as u8 + 1;
                    }
                }
            }
            t
        })
    }

    /// For each node kind id: [`USE_DECORATOR`] for a decorator, [`USE_ARGUMENTS`] for an
    /// argument list, [`USE_VALUE`] for what may name a function, [`USE_KEYWORD`] for a
    /// keyword argument, [`USE_ASSIGNMENT`] for an assignment or a declaration with a
    /// value, else 0 (the nodes around uses that are not calls).
    /// Built once per process, like [`Lang::call_shape_table`].
    pub(in crate::syntax) fn use_site_table(self) -> &'static [u8] {
        static TABLES: [OnceLock<Vec<u8>>; Lang::ALL.len()] =
            [const { OnceLock::new() }; Lang::ALL.len()];
        TABLES[self as usize].get_or_init(|| {
            let grammar = self.grammar();
            let mut t = vec![0u8; grammar.node_kind_count()];
            for id in 0..t.len() as u16 {
                if !grammar.node_kind_is_named(id) {
                    continue;
                }
                t[id as usize] = match grammar.node_kind_for_id(id) {
                    Some("decorator") => USE_DECORATOR,
                    Some("argument_list" | "arguments") => USE_ARGUMENTS,
                    Some(
                        "identifier"
                        | "attribute"
                        | "member_expression"
                        | "field_expression"
                        | "selector_expression"
                        | "scoped_identifier"
                        | "field_access",
                    ) => USE_VALUE,
                    Some("keyword_argument") => USE_KEYWORD,
                    Some(
                        "assignment"
                        | "assignment_expression"
                        | "assignment_statement"
                        | "short_var_declaration"
                        | "variable_declarator"
                        | "init_declarator"
                        | "let_declaration",
                    ) => USE_ASSIGNMENT,
                    _ => 0,
                };
            }
            t
        })
    }

    /// Records what `node` holds in this language (bindings, imports) on the call-site
    /// walk, after the walk recorded its calls from the spec; returns whether to descend
    /// into it. A direct match, not a function pointer in the spec: the walk calls it at
    /// every node of every file, and the visitors inline into it.
    #[inline]
    pub(in crate::syntax) fn visit(self, w: &mut Walker, node: Node) -> bool {
        match self {
            Lang::Python => w.python(node),
            Lang::JavaScript | Lang::TypeScript | Lang::Tsx => w.js(node),
            Lang::Go => w.go(node),
            Lang::Java => w.java(node),
            Lang::C | Lang::Cpp => w.c(node),
            Lang::Rust => w.rust(node),
            Lang::Ruby => w.ruby(node),
            Lang::Bash => w.bash(node),
            Lang::Php => w.php(node),
            Lang::Lua => w.lua(node),
            #[cfg(feature = "lang-csharp")]
            Lang::CSharp => w.csharp(node),
            #[cfg(feature = "lang-kotlin")]
            Lang::Kotlin => w.kotlin(node),
            #[cfg(feature = "lang-swift")]
            Lang::Swift => w.swift(node),
            #[cfg(feature = "lang-scala")]
            Lang::Scala => w.scala(node),
        }
    }

    /// The spec's opaque kinds and comments.
    fn opaque_kinds(self) -> Vec<&'static str> {
        const COMMON: &[&str] = &[
            "comment",
            "line_comment",
            "block_comment",
            "multiline_comment",
        ];
        COMMON.iter().chain(self.spec().opaque).copied().collect()
    }

    /// Whether a comment node's text counts as documentation for the definition after it.
    pub fn is_doc_comment(self, text: &str) -> bool {
        (self.spec().doc_comment)(text)
    }
}

/// Any comment documents what follows it.
fn any_comment(_: &str) -> bool {
    true
}

/// Per-kind lookup tables for one grammar (see [`Lang::kind_tables`]).
pub struct KindTables {
    /// The kind starts a pattern of the definition query.
    pub root: Vec<bool>,
    /// The kind's subtree never holds a definition.
    pub opaque: Vec<bool>,
}

/// Git attribute patterns for the paths [`detect`] reads as code from their name alone
/// (extensions in the case they are usually written, and file names), one per line.
pub fn code_path_patterns() -> Vec<String> {
    let mut out: Vec<String> = ["h", "vue", "svelte"]
        .iter()
        .map(|e| format!("*.{e}"))
        .collect();
    for l in Lang::ALL {
        let spec = l.spec();
        out.extend(spec.extensions.iter().map(|e| format!("*.{e}")));
        out.extend(spec.file_names.iter().map(|n| n.to_string()));
    }
    out.sort();
    out.dedup();
    out
}

/// Detects the language of a file from its path and, for `.h`, its first bytes.
pub fn detect(path: &Path, head: &[u8]) -> FileLang {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase())
        .unwrap_or_default();
    let code = if ext == "h" {
        Some(if looks_like_cpp(head) {
            Lang::Cpp
        } else {
            Lang::C
        })
    } else if matches!(ext.as_str(), "vue" | "svelte") {
        Some(crate::syntax::embedded::script_lang(head))
    } else {
        Lang::ALL
            .iter()
            .copied()
            .find(|l| l.spec().extensions.contains(&ext.as_str()))
            .or_else(|| {
                Lang::ALL
                    .iter()
                    .copied()
                    .find(|l| l.spec().file_names.contains(&name))
            })
            .or_else(|| {
                if !ext.is_empty() {
                    return None;
                }
                let interpreter = shebang(head)?;
                Lang::ALL
                    .iter()
                    .copied()
                    .find(|l| l.spec().shebangs.contains(&interpreter))
            })
    };
    if let Some(l) = code {
        return FileLang::Code(l);
    }
    let label = match ext.as_str() {
        "md" | "markdown" | "mdx" => return FileLang::Markdown,
        "toml" => "toml",
        "yaml" | "yml" => "yaml",
        "json" | "jsonc" => "json",
        "zsh" | "fish" => "shell",
        "html" | "htm" => "html",
        "css" | "scss" | "sass" | "less" => "css",
        "xml" => "xml",
        "sql" => "sql",
        "rst" => "rst",
        "txt" | "text" => "text",
        "cs" => "csharp",
        "kt" | "kts" => "kotlin",
        "swift" => "swift",
        "scala" => "scala",
        "scm" => "scheme",
        _ => match name {
            "Makefile" | "makefile" | "GNUmakefile" => "make",
            "Dockerfile" => "docker",
            _ => "text",
        },
    };
    FileLang::Text(label)
}

/// The text the grammar of `l` reads for a file's `text`, when it differs from the text
/// (at the same offsets, with the same lines): a layout the grammar misreads, rewritten.
pub fn text_for_grammar(l: Lang, text: &str) -> Option<String> {
    #[cfg(feature = "lang-kotlin")]
    if l == Lang::Kotlin {
        return kotlin::constructor_on_the_class_line(text);
    }
    let _ = (l, text);
    None
}

/// The languages whose grammar a build may leave out: the label their files are indexed
/// under, their name, the cargo feature that builds it in, and whether this build has it.
const OPTIONAL_GRAMMARS: &[(&str, &str, &str, bool)] = &[
    ("csharp", "C#", "lang-csharp", cfg!(feature = "lang-csharp")),
    (
        "kotlin",
        "Kotlin",
        "lang-kotlin",
        cfg!(feature = "lang-kotlin"),
    ),
    ("swift", "Swift", "lang-swift", cfg!(feature = "lang-swift")),
    ("scala", "Scala", "lang-scala", cfg!(feature = "lang-scala")),
];

/// The labels of the languages whose grammar this build leaves out (their files are
/// indexed as text).
pub fn left_out_labels() -> Vec<&'static str> {
    OPTIONAL_GRAMMARS
        .iter()
        .filter(|g| !g.3)
        .map(|g| g.0)
        .collect()
}

/// A language whose grammar this build leaves out, by the label its files are indexed
/// under as text (`kotlin`): its name and the cargo feature that builds it in. `None`
/// for every other label.
pub fn grammar_left_out(label: &str) -> Option<(&'static str, &'static str)> {
    OPTIONAL_GRAMMARS
        .iter()
        .find(|g| g.0 == label && !g.3)
        .map(|g| (g.1, g.2))
}

/// What a user needs to know when files of a language this build has no grammar for were
/// indexed (`by_language`: the files' count by label): they are searched as text, their
/// definitions, calls and imports are unknown, and which feature builds the grammar in.
pub fn left_out_note(by_language: &std::collections::BTreeMap<String, u64>) -> Option<String> {
    let left: Vec<(u64, &str, &str)> = by_language
        .iter()
        .filter_map(|(label, &n)| grammar_left_out(label).map(|(name, feature)| (n, name, feature)))
        .filter(|(n, _, _)| *n > 0)
        .collect();
    if left.is_empty() {
        return None;
    }
    let files = left
        .iter()
        .map(|(n, name, _)| format!("{n} {name}"))
        .collect::<Vec<_>>()
        .join(", ");
    let features = left
        .iter()
        .map(|(_, _, f)| *f)
        .collect::<Vec<_>>()
        .join(",");
    let total: u64 = left.iter().map(|(n, _, _)| n).sum();
    Some(format!(
        "{files} file{} read as text only: this build of llmc has no grammar for {}, so \
         definitions, callers and imports there are unknown; build llmc with `--features \
         {features}` to parse them (`cargo install --locked --path . --features {features}`)",
        if total == 1 { " is" } else { "s are" },
        if left.len() == 1 { "it" } else { "them" },
    ))
}

/// The interpreter a `#!` first line names: `#!/usr/bin/env ruby -w` → `ruby`,
/// `#!/bin/bash` → `bash`.
fn shebang(head: &[u8]) -> Option<&str> {
    let rest = head.strip_prefix(b"#!")?;
    let end = rest
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(rest.len())
        .min(256);
    let line = std::str::from_utf8(&rest[..end]).ok()?;
    let mut words = line.split_whitespace();
    let mut prog = words.next()?.rsplit('/').next()?;
    if prog == "env" {
        prog = words.find(|w| !w.starts_with('-'))?;
    }
    // `ruby2.7`, `python3`: the name without its version.
    Some(prog.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.'))
}

fn looks_like_cpp(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(&head[..head.len().min(16 * 1024)]);
    [
        "namespace ",
        "class ",
        "template<",
        "template <",
        "public:",
        "std::",
    ]
    .iter()
    .any(|needle| text.contains(needle))
}

/// [`Lang::use_site_table`]: a decorator node.
pub(in crate::syntax) const USE_DECORATOR: u8 = 1;
/// [`Lang::use_site_table`]: an argument list.
pub(in crate::syntax) const USE_ARGUMENTS: u8 = 2;
/// [`Lang::use_site_table`]: a node that may name a function (a name, a member, a path).
pub(in crate::syntax) const USE_VALUE: u8 = 3;
/// [`Lang::use_site_table`]: a keyword argument (`key=value`), whose value may.
pub(in crate::syntax) const USE_KEYWORD: u8 = 4;
/// [`Lang::use_site_table`]: an assignment or a declaration with a value (`right` or
/// `value`), which may store a function (`self._hookexec = _multicall`).
pub(in crate::syntax) const USE_ASSIGNMENT: u8 = 5;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_query_compiles() {
        for lang in Lang::ALL {
            let q = lang.query();
            assert!(q.pattern_count() > 0, "{lang:?}");
        }
    }

    #[test]
    fn detects_by_extension_and_header_content() {
        assert_eq!(detect(Path::new("a/b.rs"), b""), FileLang::Code(Lang::Rust));
        assert_eq!(detect(Path::new("x.TSX"), b""), FileLang::Code(Lang::Tsx));
        assert_eq!(
            detect(Path::new("x.h"), b"int f(void);"),
            FileLang::Code(Lang::C)
        );
        assert_eq!(
            detect(Path::new("x.h"), b"namespace a { }"),
            FileLang::Code(Lang::Cpp)
        );
        assert_eq!(detect(Path::new("README.md"), b""), FileLang::Markdown);
        assert_eq!(detect(Path::new("Cargo.toml"), b""), FileLang::Text("toml"));
        assert_eq!(detect(Path::new("LICENSE"), b""), FileLang::Text("text"));
        assert_eq!(
            detect(Path::new("lib/a.rb"), b""),
            FileLang::Code(Lang::Ruby)
        );
        assert_eq!(detect(Path::new("x.rake"), b""), FileLang::Code(Lang::Ruby));
        assert_eq!(
            detect(Path::new("Gemfile"), b""),
            FileLang::Code(Lang::Ruby)
        );
        assert_eq!(
            detect(Path::new("a/Rakefile"), b""),
            FileLang::Code(Lang::Ruby)
        );
        assert_eq!(
            detect(Path::new("bin/tool"), b"#!/usr/bin/env ruby -w\nputs 1\n"),
            FileLang::Code(Lang::Ruby)
        );
        assert_eq!(
            detect(Path::new("bin/tool"), b"#!/usr/bin/ruby2.7\n"),
            FileLang::Code(Lang::Ruby)
        );
        assert_eq!(detect(Path::new("a.sh"), b""), FileLang::Code(Lang::Bash));
        assert_eq!(
            detect(Path::new("bin/run"), b"#!/bin/bash\nset -e\n"),
            FileLang::Code(Lang::Bash)
        );
        assert_eq!(
            detect(Path::new("configure"), b"#!/bin/sh\n"),
            FileLang::Code(Lang::Bash)
        );
        assert_eq!(detect(Path::new("a/B.php"), b""), FileLang::Code(Lang::Php));
        assert_eq!(
            detect(Path::new("x/init.lua"), b""),
            FileLang::Code(Lang::Lua)
        );
        assert_eq!(
            detect(Path::new("bin/console"), b"#!/usr/bin/env php\n<?php\n"),
            FileLang::Code(Lang::Php)
        );
        #[cfg(feature = "lang-swift")]
        assert_eq!(
            detect(Path::new("Sources/Shop/Money.swift"), b""),
            FileLang::Code(Lang::Swift)
        );
        #[cfg(not(feature = "lang-swift"))]
        assert_eq!(
            detect(Path::new("Sources/Shop/Money.swift"), b""),
            FileLang::Text("swift")
        );
        #[cfg(feature = "lang-scala")]
        assert_eq!(
            detect(Path::new("src/main/scala/a/B.scala"), b""),
            FileLang::Code(Lang::Scala)
        );
        #[cfg(feature = "lang-scala")]
        assert_eq!(
            detect(Path::new("build.sc"), b""),
            FileLang::Code(Lang::Scala)
        );
        #[cfg(feature = "lang-csharp")]
        assert_eq!(
            detect(Path::new("src/Shop/Item.cs"), b""),
            FileLang::Code(Lang::CSharp)
        );
        #[cfg(not(feature = "lang-csharp"))]
        assert_eq!(
            detect(Path::new("src/Shop/Item.cs"), b""),
            FileLang::Text("csharp")
        );
        assert_eq!(
            detect(Path::new("notes.txt"), b"#!/usr/bin/ruby\n"),
            FileLang::Text("text")
        );
        #[cfg(feature = "lang-kotlin")]
        {
            assert_eq!(
                detect(Path::new("src/a/Item.kt"), b""),
                FileLang::Code(Lang::Kotlin)
            );
            assert_eq!(
                detect(Path::new("build.gradle.kts"), b""),
                FileLang::Code(Lang::Kotlin)
            );
        }
        #[cfg(not(feature = "lang-kotlin"))]
        assert_eq!(
            detect(Path::new("src/a/Item.kt"), b""),
            FileLang::Text("kotlin")
        );
    }

    #[test]
    fn files_of_a_grammar_left_out_are_named_with_the_feature_that_builds_it() {
        let counts = |pairs: &[(&str, u64)]| -> std::collections::BTreeMap<String, u64> {
            pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
        };
        let note = left_out_note(&counts(&[("kotlin", 99), ("java", 57), ("toml", 1)]));
        if cfg!(feature = "lang-kotlin") {
            assert_eq!(note, None);
        } else {
            let note = note.unwrap_or_default();
            assert!(
                note.starts_with("99 Kotlin files are read as text only"),
                "{note}"
            );
            assert!(note.contains("--features lang-kotlin"), "{note}");
        }
        // Languages this build parses, and text formats, need no note.
        assert_eq!(left_out_note(&counts(&[("java", 5), ("yaml", 2)])), None);
        if cfg!(not(any(feature = "lang-swift", feature = "lang-scala"))) {
            let note = left_out_note(&counts(&[("swift", 1), ("scala", 2)])).unwrap_or_default();
            assert!(note.contains("--features lang-scala,lang-swift"), "{note}");
            assert!(note.contains("2 Scala, 1 Swift files are"), "{note}");
        }
    }
}

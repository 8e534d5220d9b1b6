//! The languages llmc understands: detection from a path, the tree-sitter grammar and the
//! definition query of each (`queries/*.scm`), and the per-language rules the extractor
//! needs (qualified-name separator, which comments are documentation).

use std::path::Path;
use std::sync::OnceLock;

use tree_sitter::{Language, Node, Query};

use crate::syntax::refs::Walker;

mod c;
mod go;
mod java;
mod javascript;
mod python;
mod rust;

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

impl Lang {
    /// Every parsed language.
    pub const ALL: [Lang; 9] = [
        Lang::Rust,
        Lang::Python,
        Lang::JavaScript,
        Lang::TypeScript,
        Lang::Tsx,
        Lang::Go,
        Lang::Java,
        Lang::C,
        Lang::Cpp,
    ];

    /// The name stored in the index.
    pub fn name(self) -> &'static str {
        match self {
            Lang::Rust => "rust",
            Lang::Python => "python",
            Lang::JavaScript => "javascript",
            Lang::TypeScript => "typescript",
            Lang::Tsx => "tsx",
            Lang::Go => "go",
            Lang::Java => "java",
            Lang::C => "c",
            Lang::Cpp => "cpp",
        }
    }

    /// Separator between the parts of a qualified name.
    pub fn separator(self) -> &'static str {
        match self {
            Lang::Rust | Lang::Cpp => "::",
            _ => ".",
        }
    }

    /// The tree-sitter grammar.
    pub fn grammar(self) -> Language {
        match self {
            Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
            Lang::Python => tree_sitter_python::LANGUAGE.into(),
            Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Lang::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Lang::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Lang::Go => tree_sitter_go::LANGUAGE.into(),
            Lang::Java => tree_sitter_java::LANGUAGE.into(),
            Lang::C => tree_sitter_c::LANGUAGE.into(),
            Lang::Cpp => tree_sitter_cpp::LANGUAGE.into(),
        }
    }

    fn query_source(self) -> &'static str {
        match self {
            Lang::Rust => include_str!("queries/rust.scm"),
            Lang::Python => include_str!("queries/python.scm"),
            Lang::JavaScript => include_str!("queries/javascript.scm"),
            Lang::TypeScript => concat!(
                include_str!("queries/javascript.scm"),
                include_str!("queries/typescript.scm")
            ),
            Lang::Tsx => concat!(
                include_str!("queries/javascript.scm"),
                include_str!("queries/typescript.scm")
            ),
            Lang::Go => include_str!("queries/go.scm"),
            Lang::Java => include_str!("queries/java.scm"),
            Lang::C => include_str!("queries/c.scm"),
            Lang::Cpp => concat!(
                include_str!("queries/c.scm"),
                include_str!("queries/cpp.scm")
            ),
        }
    }

    /// The compiled definition query, built once per process.
    pub fn query(self) -> &'static Query {
        static QUERIES: [OnceLock<Query>; 9] = [const { OnceLock::new() }; 9];
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
        static TABLES: [OnceLock<KindTables>; 9] = [const { OnceLock::new() }; 9];
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

    /// Node kinds that cannot contain a definition the queries look for: statements made
    /// only of expressions, imports, literals, parameter lists, comments. Skipping them
    /// is what keeps extraction cheap next to parsing.
    fn opaque_kinds(self) -> &'static [&'static str] {
        const COMMON: &[&str] = &["comment", "line_comment", "block_comment"];
        let own: &[&str] = match self {
            Lang::Python => &[
                "expression_statement",
                "return_statement",
                "import_statement",
                "import_from_statement",
                "future_import_statement",
                "assert_statement",
                "raise_statement",
                "delete_statement",
                "global_statement",
                "nonlocal_statement",
                "print_statement",
                "exec_statement",
                "type_alias_statement",
                "decorator",
                "parameters",
                "argument_list",
                "string",
            ],
            Lang::Rust => &[
                "use_declaration",
                "token_tree",
                "macro_invocation",
                "string_literal",
                "raw_string_literal",
                "parameters",
                "type_arguments",
                "type_parameters",
                "field_declaration_list",
                "ordered_field_declaration_list",
                "enum_variant_list",
                "attribute_item",
                "inner_attribute_item",
                "where_clause",
                "let_declaration",
                "arguments",
            ],
            Lang::JavaScript | Lang::TypeScript | Lang::Tsx => &[
                "import_statement",
                "string",
                "template_string",
                "regex",
                "formal_parameters",
                "type_annotation",
                "type_arguments",
                "object_type",
            ],
            Lang::Go => &[
                "import_declaration",
                "interpreted_string_literal",
                "raw_string_literal",
                "parameter_list",
                "argument_list",
                "expression_statement",
                "short_var_declaration",
                "assignment_statement",
                "return_statement",
                "call_expression",
            ],
            Lang::Java => &[
                "import_declaration",
                "package_declaration",
                "expression_statement",
                "local_variable_declaration",
                "return_statement",
                "argument_list",
                "formal_parameters",
                "string_literal",
                "annotation",
                "marker_annotation",
            ],
            // Definitions inside C and C++ function bodies (local structs and classes)
            // are not indexed.
            Lang::C | Lang::Cpp => &[
                "compound_statement",
                "preproc_include",
                "string_literal",
                "raw_string_literal",
                "parameter_list",
                "argument_list",
                "initializer_list",
                "enumerator_list",
            ],
        };
        // The two lists are disjoint; chain them into one leaked-free static view.
        static ALL: [OnceLock<Vec<&'static str>>; 9] = [const { OnceLock::new() }; 9];
        ALL[self as usize].get_or_init(|| COMMON.iter().chain(own).copied().collect())
    }

    /// Whether a comment node's text counts as documentation for the definition after it.
    pub fn is_doc_comment(self, text: &str) -> bool {
        match self {
            // Plain `//` comments are not documentation in Rust.
            Lang::Rust => {
                (text.starts_with("///") && !text.starts_with("////")) || text.starts_with("/**")
            }
            _ => true,
        }
    }
}

impl Lang {
    /// Records what `node` holds in this language (call sites, imports, bindings) on the
    /// walk; returns whether to descend into it. Each language's shapes are in its own
    /// file of this folder.
    pub(in crate::syntax) fn visit(self, w: &mut Walker, node: Node) -> bool {
        match self {
            Lang::Python => w.python(node),
            Lang::JavaScript | Lang::TypeScript | Lang::Tsx => w.js(node),
            Lang::Go => w.go(node),
            Lang::Java => w.java(node),
            Lang::C | Lang::Cpp => w.c(node),
            Lang::Rust => w.rust(node),
        }
    }
}

/// Per-kind lookup tables for one grammar (see [`Lang::kind_tables`]).
pub struct KindTables {
    /// The kind starts a pattern of the definition query.
    pub root: Vec<bool>,
    /// The kind's subtree never holds a definition.
    pub opaque: Vec<bool>,
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
    let code = match ext.as_str() {
        "rs" => Some(Lang::Rust),
        "py" | "pyi" | "pyw" => Some(Lang::Python),
        "js" | "mjs" | "cjs" | "jsx" => Some(Lang::JavaScript),
        "ts" | "mts" | "cts" => Some(Lang::TypeScript),
        "tsx" => Some(Lang::Tsx),
        "go" => Some(Lang::Go),
        "java" => Some(Lang::Java),
        "c" => Some(Lang::C),
        "h" => Some(if looks_like_cpp(head) {
            Lang::Cpp
        } else {
            Lang::C
        }),
        "cc" | "cpp" | "cxx" | "c++" | "hpp" | "hh" | "hxx" | "h++" | "ipp" | "tpp" => {
            Some(Lang::Cpp)
        }
        _ => None,
    };
    if let Some(l) = code {
        return FileLang::Code(l);
    }
    let label = match ext.as_str() {
        "md" | "markdown" | "mdx" => return FileLang::Markdown,
        "toml" => "toml",
        "yaml" | "yml" => "yaml",
        "json" | "jsonc" => "json",
        "sh" | "bash" | "zsh" | "fish" => "shell",
        "html" | "htm" => "html",
        "css" | "scss" | "sass" | "less" => "css",
        "xml" => "xml",
        "sql" => "sql",
        "rst" => "rst",
        "txt" | "text" => "text",
        "rb" => "ruby",
        "cs" => "csharp",
        "php" => "php",
        "kt" | "kts" => "kotlin",
        "swift" => "swift",
        "scala" => "scala",
        "lua" => "lua",
        "scm" => "scheme",
        _ => match name {
            "Makefile" | "makefile" | "GNUmakefile" => "make",
            "Dockerfile" => "docker",
            _ => "text",
        },
    };
    FileLang::Text(label)
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
    }
}

//! The per-file layer: a file's rows from its bytes alone. Languages and their grammars
//! ([`lang`]), definitions ([`defs`]), chunks ([`chunk`]), call sites and imports
//! ([`refs`]). One entry, [`parse_file`]; nothing here reads another file, the store or
//! the clock, so the same bytes always give the same rows (the index's invariant that an
//! incremental run equals a rebuild rests on it).

pub mod chunk;
pub mod defs;
mod docs;
pub mod embedded;
pub mod lang;
pub mod refs;

use std::cell::RefCell;
use std::path::Path;

use crate::model::{Chunk, FileRefs, Symbol, flags};
use chunk::ChunkConfig;
use lang::FileLang;

/// What [`parse_file`] derives from a file beyond its definitions.
#[derive(Debug, Clone, Copy)]
pub struct FileOptions {
    pub chunks: ChunkConfig,
    /// Extract call sites and imports (for the code graph).
    pub refs: bool,
}

/// Everything one file's bytes say.
#[derive(Debug, Default)]
pub struct FileRows {
    /// The language's name (`python`, `markdown`, `text`...).
    pub lang: &'static str,
    /// Lines as `str::lines` counts them, after line breaks are unified.
    pub lines: u32,
    /// [`flags`] the content earned (syntax errors, invalid UTF-8, truncation).
    pub flags: i64,
    pub symbols: Vec<Symbol>,
    pub chunks: Vec<Chunk>,
    /// Call sites and imports, when [`FileOptions::refs`] asked for them.
    pub refs: FileRefs,
}

thread_local! {
    /// One parser per thread: creating one costs more than parsing a small file.
    static PARSER: RefCell<tree_sitter::Parser> = RefCell::new(tree_sitter::Parser::new());
}

/// Derives definitions and chunks (and call sites and imports, when asked) from the bytes
/// of the file at `rel` (the path decides the language, with the first bytes).
pub fn parse_file(rel: &str, bytes: Vec<u8>, opts: FileOptions) -> FileRows {
    let chunk_cfg = opts.chunks;
    let mut file_flags = 0;
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            file_flags |= flags::INVALID_UTF8;
            String::from_utf8_lossy(e.as_bytes()).into_owned()
        }
    };
    // Old Mac line endings (`\r` alone) are line breaks, as editors show them.
    let text = match crate::source::unify_line_breaks(&text) {
        std::borrow::Cow::Borrowed(_) => text,
        std::borrow::Cow::Owned(unified) => unified,
    };
    let file_lang = lang::detect(Path::new(rel), text.as_bytes());
    let mut symbols = Vec::new();
    let mut file_refs = FileRefs::default();
    let chunks = match file_lang {
        FileLang::Code(l) => {
            // A Vue or Svelte component's tree is its code's alone; its chunks read the
            // whole text.
            let code =
                embedded::embedded_code(rel, &text).or_else(|| lang::text_for_grammar(l, &text));
            let code = code.as_deref().unwrap_or(&text);
            let parsed = PARSER.with(|p| defs::parse(&mut p.borrow_mut(), l, code, opts.refs));
            match parsed {
                Some(p) => {
                    if p.has_errors {
                        file_flags |= flags::SYNTAX_ERRORS;
                    }
                    if p.dropped > 0 || p.refs.deep_subtrees > 0 {
                        file_flags |= flags::TRUNCATED;
                    }
                    symbols = p.symbols;
                    file_refs = p.refs;
                    chunk::code_chunks(&text, &symbols, chunk_cfg)
                }
                None => {
                    file_flags |= flags::SYNTAX_ERRORS;
                    chunk::text_chunks(&text, chunk_cfg)
                }
            }
        }
        FileLang::Markdown => chunk::markdown_chunks(&text, chunk_cfg),
        FileLang::Text(_) => chunk::text_chunks(&text, chunk_cfg),
    };
    FileRows {
        lang: file_lang.name(),
        lines: line_count(&text),
        flags: file_flags,
        symbols,
        chunks,
        refs: file_refs,
    }
}

/// [`tree_sitter::Node::child_by_field_name`] with the field's id looked up once per
/// grammar and name. tree-sitter's own lookup compares the name with the grammar's field
/// names one by one on every call: 1.5 % of a cold index's CPU on the stdlib.
pub trait FieldExt<'t> {
    /// The first child in the field `name`.
    fn field(&self, name: &'static str) -> Option<tree_sitter::Node<'t>>;
}

impl<'t> FieldExt<'t> for tree_sitter::Node<'t> {
    #[inline]
    fn field(&self, name: &'static str) -> Option<tree_sitter::Node<'t>> {
        self.child_by_field_id(field_id(self, name)?.get())
    }
}

/// One remembered field id: the grammar, the name (a static string, known by its
/// address and length) and the id (`None`: the grammar has no such field).
struct FieldSlot {
    grammar: tree_sitter::Language,
    name: (usize, usize),
    id: Option<std::num::NonZeroU16>,
}

/// Sets of the per-thread field id cache, each of two slots (a name in two grammars
/// whose files alternate, TypeScript's and TSX's): the names the extraction asks for
/// fit with few collisions.
const FIELD_SETS: usize = 512;

thread_local! {
    static FIELD_IDS: RefCell<Vec<[Option<FieldSlot>; 2]>> =
        RefCell::new((0..FIELD_SETS).map(|_| [None, None]).collect());
}

/// The id of the field `name` in `node`'s grammar, from the thread's cache (a static
/// string's address never names another string, so address and length are its key).
fn field_id(node: &tree_sitter::Node, name: &'static str) -> Option<std::num::NonZeroU16> {
    let grammar = node.language();
    let key = (name.as_ptr() as usize, name.len());
    let set = ((key.0 >> 2) ^ key.1) % FIELD_SETS;
    FIELD_IDS.with_borrow_mut(|sets| {
        let set = &mut sets[set];
        // The slot used last comes first.
        if let Some(at) = set.iter().position(|s| {
            s.as_ref()
                .is_some_and(|s| s.name == key && s.grammar == *grammar)
        }) {
            set.swap(0, at);
            return set[0].as_ref().and_then(|s| s.id);
        }
        let id = grammar.field_id_for_name(name);
        set[1] = Some(FieldSlot {
            grammar: (*grammar).clone(),
            name: key,
            id,
        });
        set.swap(0, 1);
        id
    })
}

/// The number of lines `str::lines` gives, counted on the bytes (a newline search per
/// line costs more).
fn line_count(text: &str) -> u32 {
    let newlines = text.bytes().filter(|&b| b == b'\n').count();
    let unterminated = !text.is_empty() && !text.ends_with('\n');
    (newlines + usize::from(unterminated)) as u32
}

/// What a test parses a file with: chunks of up to 200 lines, windows of 40, call sites
/// and imports.
#[cfg(test)]
pub(crate) fn test_options() -> FileOptions {
    FileOptions {
        chunks: ChunkConfig {
            window_lines: 40,
            max_chunk_lines: 200,
            text: false,
        },
        refs: true,
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_file, test_options};

    /// In a `use` block of many lines, each import is on the line that names it, where
    /// a reader looks for it.
    #[test]
    fn a_rust_import_is_on_the_line_that_names_it() {
        let src = "use std::fs;\nuse {\n    semver::{Version, VersionReq},\n    std::{\n        io,\n        sync::Arc,\n    },\n};\n";
        let rows = parse_file("src/lib.rs", src.as_bytes().to_vec(), test_options());
        let lines: Vec<(String, u32)> = rows
            .refs
            .imports
            .iter()
            .map(|i| {
                let name = i.name.as_deref().unwrap_or("");
                (format!("{}::{name}", i.module), i.line)
            })
            .collect();
        assert_eq!(
            lines,
            [
                ("std::fs".to_string(), 1),
                ("semver::Version".to_string(), 3),
                ("semver::VersionReq".to_string(), 3),
                ("std::io".to_string(), 5),
                ("std::sync::Arc".to_string(), 6),
            ]
        );
    }

    /// The field cache tells grammars apart: `name` has a different id in Python's and
    /// JavaScript's, and files of both alternate on one thread (one name, one set of
    /// slots: each lookup checks the grammar), with a third grammar pushing one out.
    #[test]
    fn a_field_is_looked_up_in_the_nodes_own_grammar() {
        use super::FieldExt;
        use super::lang::Lang;
        let parse = |lang: Lang, src: &str| {
            let mut p = tree_sitter::Parser::new();
            p.set_language(&lang.grammar()).expect("grammar loads");
            p.parse(src, None).expect("parses")
        };
        let (py_src, js_src) = ("def f():\n    pass\n", "function g() {}\n");
        let (py, js) = (parse(Lang::Python, py_src), parse(Lang::JavaScript, js_src));
        let py_def = py.root_node().named_child(0).expect("a definition");
        let js_def = js.root_node().named_child(0).expect("a declaration");
        let id = |t: &tree_sitter::Tree| t.language().field_id_for_name("name");
        assert_ne!(id(&py), id(&js), "the test needs ids that differ");
        let rs_src = "fn h() {}\n";
        let rs = parse(Lang::Rust, rs_src);
        let rs_def = rs.root_node().named_child(0).expect("a function");
        for _ in 0..3 {
            for (def, src, name) in [
                (py_def, py_src, "f"),
                (js_def, js_src, "g"),
                (py_def, py_src, "f"),
                (rs_def, rs_src, "h"),
            ] {
                let child = def.field("name").expect("a name");
                assert_eq!(Some(child), def.child_by_field_name("name"));
                assert_eq!(&src[child.byte_range()], name);
                assert_eq!(def.field("no_such_field"), None);
            }
        }
    }

    #[test]
    fn line_count_agrees_with_str_lines() {
        for text in [
            "",
            "\n",
            "a",
            "a\n",
            "a\nb",
            "a\r\nb\r\n",
            "\n\n\nx",
            "é\nü",
        ] {
            assert_eq!(
                super::line_count(text) as usize,
                text.lines().count(),
                "{text:?}"
            );
        }
    }
}

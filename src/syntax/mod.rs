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
            let code = embedded::embedded_code(rel, &text);
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

/// The number of lines `str::lines` gives, counted on the bytes (a newline search per
/// line costs more).
fn line_count(text: &str) -> u32 {
    let newlines = text.bytes().filter(|&b| b == b'\n').count();
    let unterminated = !text.is_empty() && !text.ends_with('\n');
    (newlines + usize::from(unterminated)) as u32
}

#[cfg(test)]
mod tests {
    use super::{FileOptions, chunk::ChunkConfig, parse_file};

    /// In a `use` block of many lines, each import is on the line that names it, where
    /// a reader looks for it.
    #[test]
    fn a_rust_import_is_on_the_line_that_names_it() {
        let src = "use std::fs;\nuse {\n    semver::{Version, VersionReq},\n    std::{\n        io,\n        sync::Arc,\n    },\n};\n";
        let opts = FileOptions {
            chunks: ChunkConfig {
                window_lines: 40,
                max_chunk_lines: 200,
                text: false,
            },
            refs: true,
        };
        let rows = parse_file("src/lib.rs", src.as_bytes().to_vec(), opts);
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

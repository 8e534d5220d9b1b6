//! The layering written in ARCHITECTURE.md, checked on the source: every `crate::x` path
//! in a module's code (comments and `#[cfg(test)]` modules left out) must name a module
//! of a lower layer, or its own. Modules of one layer never import each other, so no
//! import cycle between modules is possible.

use std::collections::BTreeSet;
use std::path::Path;

/// Top-level modules by layer, lowest first (ARCHITECTURE.md, "Layers").
const LAYERS: &[&[&str]] = &[
    &["model", "progress", "alloc", "budget"],
    &["error"],
    &["source", "interrupt", "root", "config"],
    // llm is the network layer: search's Ollama embedder and ask's chat model sit on it.
    &["syntax", "store", "llm"],
    &["graph", "history", "search"],
    &["index"],
    &["ask"],
    &["eval"],
    &["cli"],
    &["docs"],
    &["app"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The code of a source file without comments, string literals and test modules.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    let mut out = String::new();
    for line in text.lines() {
        let l = line.trim_start();
        if l.starts_with("//") {
            continue;
        }
        // Drop string literals (a path written in a message is not an import).
        let mut in_str = false;
        let mut prev = ' ';
        for c in line.chars() {
            if c == '"' && prev != '\\' {
                in_str = !in_str;
            } else if !in_str {
                out.push(c);
            }
            prev = c;
        }
        out.push('\n');
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("read src") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn every_import_points_down_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut wrong = BTreeSet::new();
    let mut unknown = BTreeSet::new();
    for f in &files {
        let rel = f.strip_prefix(&src).expect("under src");
        let first = rel
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .unwrap_or_default()
            .trim_end_matches(".rs")
            .to_string();
        if matches!(first.as_str(), "lib" | "main") {
            continue;
        }
        let Some(own) = layer_of(&first) else {
            unknown.insert(first);
            continue;
        };
        let text = std::fs::read_to_string(f).expect("read source");
        let code = code(&text);
        for (i, _) in code.match_indices("crate::") {
            let target: String = code[i + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if target == first || target.is_empty() {
                continue;
            }
            match layer_of(&target) {
                Some(l) if l < own => {}
                Some(_) => {
                    wrong.insert(format!("{} -> {target}", rel.display()));
                }
                None => {
                    unknown.insert(target);
                }
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "modules missing from LAYERS (add them, and to ARCHITECTURE.md): {unknown:?}"
    );
    assert!(
        wrong.is_empty(),
        "imports against the layering (a module may use only lower layers):\n{}",
        wrong.into_iter().collect::<Vec<_>>().join("\n")
    );
}

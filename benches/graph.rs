//! Code-graph benchmark: `cargo bench --bench graph -- TREE [NAME...]`.
//!
//! On a copy of TREE (default: this machine's Python standard library):
//! - tree-sitter parse only, one thread (the baseline);
//! - call-site and import extraction (`syntax::refs`), one thread, on the same trees;
//! - cross-file resolution inside a cold `llmc index` (its `graph_seconds`);
//! - `llmc graph callers NAME` whole process next to `rg -w NAME` over the same tree,
//!   interleaved, median of 11 each, for each NAME (default: a few stdlib names).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::{copy_tree, median, ms, stdlib, time};
use llmc::config::IndexConfig;
use llmc::index::walk::{self, WalkConfig};
use llmc::syntax::lang::{self, FileLang};
use llmc::syntax::{defs as parse, refs};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let src = match args.first() {
        Some(t) => PathBuf::from(t),
        None => stdlib(),
    };
    let names: Vec<String> = if args.len() > 1 {
        args[1..].to_vec()
    } else {
        ["normpath", "getLogger", "urlparse", "_check_closed"]
            .map(String::from)
            .to_vec()
    };
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_llmc"));
    let tree = copy_tree(&src, "graph");
    println!("== {}", src.display());

    let (files, _) = walk::walk(
        &tree,
        &WalkConfig {
            max_file_size: IndexConfig::default().max_file_size,
            include_secrets: false,
            include_hidden: false,
            include_generated: false,
            threads: 2,
        },
    );
    let mut inputs = Vec::new();
    for f in &files {
        let Ok(bytes) = std::fs::read(&f.abs) else {
            continue;
        };
        if let FileLang::Code(l) = lang::detect(Path::new(&f.rel), &bytes)
            && let Ok(text) = String::from_utf8(bytes)
        {
            inputs.push((l, text));
        }
    }
    let mut parser = tree_sitter::Parser::new();
    let mut parse_time = Duration::ZERO;
    let mut refs_time = Duration::ZERO;
    let (mut calls, mut imports) = (0usize, 0usize);
    for (l, text) in &inputs {
        parser.set_language(&l.grammar()).expect("grammar loads");
        let t = Instant::now();
        let Some(tree) = parser.parse(text, None) else {
            continue;
        };
        parse_time += t.elapsed();
        let symbols = parse::parse(&mut parser, *l, text, false)
            .map(|p| p.symbols)
            .unwrap_or_default();
        let t = Instant::now();
        let r = refs::extract(*l, &tree, text, &symbols);
        refs_time += t.elapsed();
        calls += r.calls.len();
        imports += r.imports.len();
    }
    println!(
        "{} files: {calls} call sites, {imports} imports",
        inputs.len()
    );
    println!(
        "tree-sitter parse only, 1 thread: {:.2} s",
        parse_time.as_secs_f64()
    );
    println!(
        "call/import extraction, 1 thread: {:.2} s ({:.1}% of parse)",
        refs_time.as_secs_f64(),
        100.0 * refs_time.as_secs_f64() / parse_time.as_secs_f64()
    );

    let _ = std::fs::remove_dir_all(tree.join(".llmc"));
    let out = Command::new(&bin)
        .args(["index", "--json"])
        .current_dir(&tree)
        .output()
        .expect("llmc runs");
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).expect("index JSON");
    let graph = stats["graph_seconds"].as_f64().unwrap_or(0.0);
    let total = stats["seconds"].as_f64().unwrap_or(0.0);
    println!(
        "cold index {total:.2} s, of which resolution {graph:.2} s ({:.1}% of parse); extraction + resolution = {:.1}% of parse",
        100.0 * graph / parse_time.as_secs_f64(),
        100.0 * (graph + refs_time.as_secs_f64()) / parse_time.as_secs_f64()
    );

    println!("\nname                 llmc graph callers   rg -w   (median of 11, ms)");
    for name in &names {
        let mut ours = Vec::new();
        let mut rg = Vec::new();
        for _ in 0..11 {
            ours.push(time(
                Command::new(&bin)
                    .args(["graph", "callers", name, "--limit", "100000"])
                    .current_dir(&tree),
            ));
            rg.push(time(
                Command::new("rg")
                    .args(["-w", name, "."])
                    .current_dir(&tree),
            ));
        }
        println!(
            "{name:<20} {:>18.1} {:>7.1}",
            ms(median(&mut ours)),
            ms(median(&mut rg))
        );
    }
}

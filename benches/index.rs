//! Index benchmark: `cargo bench --bench index [-- TREE...]`.
//!
//! For each tree (default: this machine's Python standard library and the cargo registry
//! sources), copied to a scratch directory first:
//! - tree-sitter alone, single-threaded: parse every file llmc would parse, nothing else;
//! - cold index of the foundation (definitions and chunks: every memory of `[index]`
//!   switched off), then of each memory alone on top of it, then of everything (the
//!   default), in files/s and MB/s, with peak RSS, each against the parse-only time;
//! - no-change re-index and one-file-edit re-index (whole process, median of 7).
//!
//! Whole-process timings run the release binary; peak RSS comes from `/usr/bin/time`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::median;
use llmc::config::IndexConfig;
use llmc::index::walk::{self, WalkConfig};
use llmc::syntax::lang::{self, FileLang};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let trees: Vec<PathBuf> = if args.is_empty() {
        default_trees()
    } else {
        args.iter().map(PathBuf::from).collect()
    };
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_llmc"));
    println!(
        "llmc index benchmark on {} cores",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    for tree in trees {
        bench_tree(&bin, &tree);
    }
}

fn default_trees() -> Vec<PathBuf> {
    let mut trees = Vec::new();
    if let Ok(out) = Command::new("python3")
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['stdlib'])",
        ])
        .output()
    {
        let p = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if !p.is_empty() {
            trees.push(PathBuf::from(p));
        }
    }
    if let Some(home) = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
    {
        let src = home.join("registry").join("src");
        if let Ok(rd) = std::fs::read_dir(&src)
            && let Some(first) = rd.flatten().next()
        {
            trees.push(first.path());
        }
    }
    trees
}

/// A copy of `src` under git (no commit), so the walk honours `.gitignore` as in a repository.
fn copy_tree(src: &Path) -> PathBuf {
    let dst = common::copy_tree(src, "index");
    let _ = Command::new("git")
        .args(["init", "-q"])
        .current_dir(&dst)
        .status();
    dst
}

fn bench_tree(bin: &Path, src: &Path) {
    println!("\n== {}", src.display());
    let tree = copy_tree(src);
    let cfg = IndexConfig::default();
    let (files, _) = walk::walk(
        &tree,
        &WalkConfig {
            max_file_size: cfg.max_file_size,
            include_secrets: false,
            include_hidden: false,
            include_generated: false,
            threads: 2,
        },
    );
    // Parse-only baseline: every file llmc parses with tree-sitter, one thread.
    let mut inputs = Vec::new();
    let mut all_bytes = 0u64;
    for f in &files {
        let Ok(bytes) = std::fs::read(&f.abs) else {
            continue;
        };
        all_bytes += bytes.len() as u64;
        if let FileLang::Code(l) = lang::detect(Path::new(&f.rel), &bytes) {
            inputs.push((l, bytes));
        }
    }
    let code_bytes: u64 = inputs.iter().map(|(_, b)| b.len() as u64).sum();
    let mut parser = tree_sitter::Parser::new();
    let mut parse_only = || {
        let t = Instant::now();
        for (l, bytes) in &inputs {
            parser.set_language(&l.grammar()).expect("grammar loads");
            let tree = parser.parse(bytes, None);
            std::hint::black_box(tree);
        }
        t.elapsed()
    };
    println!(
        "files walked {}, parsed with tree-sitter {} ({:.1} MB code, {:.1} MB all text)",
        files.len(),
        inputs.len(),
        code_bytes as f64 / 1e6,
        all_bytes as f64 / 1e6
    );

    // Cold index: the foundation alone, each memory on top of it, then everything.
    let cold = |env: &[(&str, &str)], runs: usize| {
        let mut colds = Vec::new();
        let mut rss = 0u64;
        for _ in 0..runs {
            let _ = std::fs::remove_dir_all(tree.join(".llmc"));
            let (d, r) = run_timed(bin, &tree, env);
            colds.push(d);
            rss = rss.max(r);
        }
        (median(&mut colds), rss)
    };
    let off = |keep: &str| -> Vec<(&'static str, &'static str)> {
        MEMORIES
            .iter()
            .filter(|(name, _)| *name != keep)
            .map(|(_, var)| (*var, "false"))
            .collect()
    };
    // The machine's speed drifts by 10-20 % over minutes, and the baseline with it: the
    // parse-only runs alternate with the foundation's.
    let (mut parses, mut foundations, mut foundation_rss) = (Vec::new(), Vec::new(), 0);
    for _ in 0..3 {
        parses.push(parse_only());
        let (d, r) = cold(&off(""), 1);
        foundations.push(d);
        foundation_rss = foundation_rss.max(r);
    }
    let runs = |v: &[Duration]| {
        v.iter()
            .map(|d| format!("{:.2}", d.as_secs_f64()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (parse_runs, foundation_runs) = (runs(&parses), runs(&foundations));
    let parse = median(&mut parses);
    let foundation = median(&mut foundations);
    println!(
        "tree-sitter parse only, 1 thread: {:.2} s median of 3 ({parse_runs} s, alternating \
         with the foundation's cold index: {foundation_runs} s)",
        parse.as_secs_f64()
    );
    // The same parses on two threads (largest first, each thread taking the next file):
    // what the two cores give when parsing is all there is to do.
    let mut by_size: Vec<&(lang::Lang, Vec<u8>)> = inputs.iter().collect();
    by_size.sort_by_key(|(_, b)| std::cmp::Reverse(b.len()));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let t = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                let mut parser = tree_sitter::Parser::new();
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((l, bytes)) = by_size.get(i) else {
                        break;
                    };
                    parser.set_language(&l.grammar()).expect("grammar loads");
                    std::hint::black_box(parser.parse(bytes, None));
                }
            });
        }
    });
    let two = t.elapsed().as_secs_f64();
    println!(
        "tree-sitter parse only, 2 threads: {two:.2} s = {:.2} × (1 thread ÷ 2)",
        two / (parse.as_secs_f64() / 2.0)
    );
    let half = parse.as_secs_f64() / 2.0;
    // One cold configuration: its median, throughput, peak RSS and ratio to parse ÷ 2.
    let report = |label: &str, d: Duration, rss: u64| {
        let secs = d.as_secs_f64();
        println!(
            "cold index, {label}: {secs:.2} s median of 3 ({:.0} files/s, {:.1} MB/s), \
             peak RSS {} MB",
            files.len() as f64 / secs,
            all_bytes as f64 / 1e6 / secs,
            rss / 1024
        );
        println!("  / (parse-only ÷ 2 cores) = {:.2}", secs / half);
    };
    report(
        "foundation (definitions and chunks; graph, history, lexical, semantic off)",
        foundation,
        foundation_rss,
    );
    println!("  (target ≤ 1.5: {:.2} s)", half * 1.5);
    for (name, _) in MEMORIES {
        let (d, r) = cold(&off(name), 1);
        println!(
            "  + {name:<8} alone: {:.2} s, adds {:.2} s = {:.0}% of parse-only, peak RSS {} MB",
            d.as_secs_f64(),
            d.as_secs_f64() - foundation.as_secs_f64(),
            (d.as_secs_f64() - foundation.as_secs_f64()) / parse.as_secs_f64() * 100.0,
            r / 1024
        );
        if name == "history" {
            println!("    (the copy has no commits: the history benchmark measures ingestion)");
        }
    }
    let (full, mut rss) = cold(&[], 3);
    report("all four memories (the default)", full, rss);
    let mut nochange = Vec::new();
    for _ in 0..7 {
        let (d, r) = run_timed(bin, &tree, &[]);
        nochange.push(d);
        rss = rss.max(r);
    }
    println!(
        "no-change re-index: {:.3} s median of 7",
        median(&mut nochange).as_secs_f64()
    );
    // One-file edit: the largest parsed file gets a line appended, then indexed.
    let victim = files
        .iter()
        .filter(|f| matches!(lang::detect(Path::new(&f.rel), b""), FileLang::Code(_)))
        .max_by_key(|f| f.size)
        .map(|f| f.abs.clone());
    if let Some(victim) = victim {
        let original = std::fs::read(&victim).expect("victim readable");
        let mut edits = Vec::new();
        for i in 0..7 {
            let mut edited = original.clone();
            edited.extend_from_slice(format!("\n// edit {i}\n").as_bytes());
            std::fs::write(&victim, &edited).expect("victim writable");
            let (d, r) = run_timed(bin, &tree, &[]);
            edits.push(d);
            rss = rss.max(r);
        }
        std::fs::write(&victim, &original).expect("victim writable");
        println!(
            "one-file edit re-index ({}, {} KB): {:.3} s median of 7",
            victim.strip_prefix(&tree).unwrap_or(&victim).display(),
            original.len() / 1024,
            median(&mut edits).as_secs_f64()
        );
    }
    println!("peak RSS over all runs: {} MB", rss / 1024);
    let _ = std::fs::remove_dir_all(&tree);
}

/// The memories of `[index]` and the variables that switch them.
const MEMORIES: [(&str, &str); 4] = [
    ("graph", "LLMC_INDEX_GRAPH"),
    ("history", "LLMC_INDEX_HISTORY"),
    ("lexical", "LLMC_INDEX_LEXICAL"),
    ("semantic", "LLMC_INDEX_SEMANTIC"),
];

/// Runs `llmc index` (with `env` set) under `/usr/bin/time` when present; returns wall
/// time and peak RSS (KiB).
fn run_timed(bin: &Path, dir: &Path, env: &[(&str, &str)]) -> (Duration, u64) {
    let use_time = Path::new("/usr/bin/time").exists();
    let mut cmd = if use_time {
        let mut c = Command::new("/usr/bin/time");
        c.arg("-f").arg("%M").arg(bin);
        c
    } else {
        Command::new(bin)
    };
    cmd.args(["index", "--quiet"])
        .current_dir(dir)
        .envs(env.iter().copied());
    let t = Instant::now();
    let out = cmd.output().expect("llmc runs");
    let d = t.elapsed();
    assert!(
        out.status.success(),
        "llmc index failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rss = String::from_utf8_lossy(&out.stderr)
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or(0);
    (d, rss)
}

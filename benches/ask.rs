//! `llmc ask` benchmark: `cargo bench --bench ask -- [TREE]`.
//!
//! On a copy of TREE (default: this machine's Python standard library) put under git
//! with one commit and indexed:
//! - `llmc ask` whole process, without an LLM and without the cache, for a structural,
//!   a history and a concept question: median of 21 runs each, interleaved, next to
//!   `rg -w NAME` over the same tree (the grep a developer would otherwise run);
//! - the same questions answered from the cache;
//! - classify + route in process, over the labelled questions of `testdata/ask/`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::{copy_tree, median, ms, stdlib, time};
use llmc::ask::{classify, prototype, route};
use llmc::config::Config;

const RUNS: usize = 21;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let src = args.first().map_or_else(stdlib, PathBuf::from);
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_llmc"));
    let tree = copy_tree(&src, "ask");
    println!("== {} (copy at {})", src.display(), tree.display());
    git(&tree, &["init", "-q"]);
    git(&tree, &["add", "-A"]);
    git(&tree, &["commit", "-qm", "import the tree"]);
    let t = Instant::now();
    let out = Command::new(&bin)
        .args(["-q", "index"])
        .current_dir(&tree)
        .output()
        .expect("llmc runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    println!("cold index: {:.2} s", t.elapsed().as_secs_f64());

    let questions = [
        ("structural", "who calls urlparse?", Some("urlparse")),
        ("history", "who changed `urlparse` last?", Some("urlparse")),
        ("concept", "how does the json decoder scan strings?", None),
    ];
    let has_rg = Command::new("rg").arg("--version").output().is_ok();
    if !has_rg {
        println!("rg is not installed: the rg columns stay empty");
    }
    println!(
        "\n{:<11} {:>10} {:>10} {:>8} {:>8}  question",
        "kind", "ask ms", "cached ms", "rg ms", "ask/rg"
    );
    for (kind, q, word) in questions {
        let out = Command::new(&bin)
            .args(["ask", "--no-cache", "--json", q])
            .current_dir(&tree)
            .output()
            .expect("llmc runs");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        let status = v["status"].as_str().unwrap_or("error").to_string();
        let (mut ask, mut cached, mut rg) = (Vec::new(), Vec::new(), Vec::new());
        // Warm the cache entry once.
        let _ = time(Command::new(&bin).args(["-q", "ask", q]).current_dir(&tree));
        for _ in 0..RUNS {
            ask.push(time(
                Command::new(&bin)
                    .args(["-q", "ask", "--no-cache", q])
                    .current_dir(&tree),
            ));
            cached.push(time(
                Command::new(&bin).args(["-q", "ask", q]).current_dir(&tree),
            ));
            if let Some(w) = word
                && has_rg
            {
                rg.push(time(Command::new("rg").args(["-w", w]).current_dir(&tree)));
            }
        }
        let a = median(&mut ask);
        let rg_ms = if rg.is_empty() {
            f64::NAN
        } else {
            ms(median(&mut rg))
        };
        println!(
            "{kind:<11} {:>10.1} {:>10.1} {:>8.1} {:>8.2}  {q} ({status})",
            ms(a),
            ms(median(&mut cached)),
            rg_ms,
            ms(a) / rg_ms
        );
    }

    // classify + route, in process.
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/ask/questions.jsonl"),
    )
    .expect("labelled set");
    let qs: Vec<String> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["question"].as_str().map(str::to_string))
        .collect();
    let config = Config::default();
    // The prototypes are embedded once per process; time that apart.
    let t = Instant::now();
    let _ = prototype::vote("warm up");
    let warm = t.elapsed();
    let mut per = Vec::new();
    for q in &qs {
        let t = Instant::now();
        let mut c = classify::classify(q);
        let mut reasons = Vec::new();
        prototype::second_opinion(q, &mut c, &mut reasons);
        let _ = route::route(&c, &config.route);
        per.push(t.elapsed());
    }
    let total: Duration = per.iter().sum();
    println!(
        "\nclassify + prototypes + route: median {:.3} ms, mean {:.3} ms over {} questions (prototype set embedded once: {:.2} ms)",
        ms(median(&mut per)),
        ms(total) / qs.len() as f64,
        qs.len(),
        ms(warm)
    );
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "Bench")
        .env("GIT_AUTHOR_EMAIL", "bench@example.com")
        .env("GIT_COMMITTER_NAME", "Bench")
        .env("GIT_COMMITTER_EMAIL", "bench@example.com")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

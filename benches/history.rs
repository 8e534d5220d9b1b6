//! History benchmark: `cargo bench --bench history [-- REPO]`.
//!
//! Without REPO, builds a 2,400-commit history from real files first
//! (`benches/history/make_big_history.py` over tantivy's sources from the cargo registry)
//! in a scratch directory. Then, with the release binary:
//! - cold ingest: `llmc index` on a fresh `.llmc/` and `llmc index --history-only` for
//!   what its 2 s left, commits/s of their history stages;
//! - incremental ingest of one new commit (median of 7; history stage and whole process);
//! - `llmc log SYMBOL` whole process (median of 21, after 2 warm-ups), for the most
//!   changed definition and for one changed a typical number of times.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use llmc::store::Store;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_llmc"));
    let repo = match args.first() {
        Some(r) => PathBuf::from(r),
        None => build_history(),
    };
    let commits = git(&repo, &["rev-list", "--count", "HEAD"]);
    println!(
        "llmc history benchmark on {} ({} commits), {} cores",
        repo.display(),
        commits.trim(),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );

    let _ = std::fs::remove_dir_all(repo.join(".llmc"));
    // `llmc index` reads history for 2 s after the code's commit; the rest is read here
    // by `llmc index --history-only` in the foreground (not in the background, so the
    // runs below find it whole).
    let (v, mut wall) = index(&bin, &repo);
    let h = &v["history"];
    let mut n = h["new_commits"].as_f64().unwrap_or(0.0);
    let mut secs = h["seconds"].as_f64().unwrap_or(f64::NAN);
    if h["remaining"].as_u64().unwrap_or(0) > 0 {
        let (rest, rest_wall) = run(&bin, &repo, &["index", "--history-only", "--json"]);
        n += rest["new_commits"].as_f64().unwrap_or(0.0);
        secs += rest["seconds"].as_f64().unwrap_or(f64::NAN);
        wall += rest_wall;
    }
    println!(
        "cold ingest: {n} commits in {secs:.2}s = {:.0} commits/s (whole `llmc index`: {:.2}s, {} files)",
        n / secs,
        wall.as_secs_f64(),
        v["files"]
    );

    let mut stage = Vec::new();
    let mut whole = Vec::new();
    for i in 0..7 {
        let file = repo.join(format!("bench_incremental_{i}.rs"));
        std::fs::write(
            &file,
            format!("fn incremental_{i}() -> u32 {{\n    {i}\n}}\n"),
        )
        .expect("write");
        git(&repo, &["add", "-A"]);
        git(&repo, &["commit", "-q", "-m", &format!("Incremental {i}")]);
        let (v, wall) = index(&bin, &repo);
        assert_eq!(v["history"]["new_commits"], 1);
        stage.push(Duration::from_secs_f64(
            v["history"]["seconds"].as_f64().unwrap_or(0.0),
        ));
        whole.push(wall);
    }
    println!(
        "incremental ingest of 1 commit: history stage median {:.1} ms, whole `llmc index` median {:.1} ms",
        ms(median(&mut stage)),
        ms(median(&mut whole))
    );

    for (label, name) in pick_symbols(&repo) {
        let mut runs = Vec::new();
        for i in 0..23 {
            let t = Instant::now();
            let out = Command::new(&bin)
                .args(["log", &name])
                .current_dir(&repo)
                .output()
                .expect("llmc log");
            let d = t.elapsed();
            assert!(out.status.success(), "llmc log {name}");
            if i >= 2 {
                runs.push(d);
            }
        }
        println!(
            "`llmc log {name}` ({label}): median {:.1} ms over 21 runs",
            ms(median(&mut runs))
        );
    }
}

fn build_history() -> PathBuf {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .expect("CARGO_HOME or HOME");
    let src = std::fs::read_dir(home.join("registry/src"))
        .expect("cargo registry sources")
        .flatten()
        .flat_map(|d| std::fs::read_dir(d.path()).into_iter().flatten().flatten())
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("tantivy-0."))
        })
        .min()
        .expect("tantivy sources in the cargo registry (cargo fetch)")
        .join("src");
    let dest = std::env::temp_dir().join("llmc-bench-history");
    let _ = std::fs::remove_dir_all(&dest);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/history/make_big_history.py");
    let status = Command::new("python3")
        .arg(script)
        .arg(&src)
        .arg(&dest)
        .arg("2400")
        .status()
        .expect("python3 runs");
    assert!(status.success(), "building the history");
    dest
}

fn index(bin: &Path, repo: &Path) -> (serde_json::Value, Duration) {
    run(bin, repo, &["index", "--json"])
}

/// Runs `llmc ARGS` (never starting a background history run) and reads its JSON.
fn run(bin: &Path, repo: &Path, args: &[&str]) -> (serde_json::Value, Duration) {
    let t = Instant::now();
    let out = Command::new(bin)
        .args(args)
        .env("LLMCTEST_HISTORY_BACKGROUND", "0")
        .current_dir(repo)
        .output()
        .expect("llmc index");
    let wall = t.elapsed();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        serde_json::from_slice(&out.stdout).expect("index json"),
        wall,
    )
}

/// The most changed definition name, and one at the median number of changes.
fn pick_symbols(repo: &Path) -> Vec<(&'static str, String)> {
    let store = Store::open_existing(repo).expect("store");
    let names: Vec<(String, i64)> = store
        .read(|c| {
            let mut stmt = c.prepare(
                "SELECT name, count(*) AS n FROM commit_symbols
                 WHERE kind IN ('function', 'method') GROUP BY name ORDER BY n DESC, name",
            )?;
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
            rows.collect()
        })
        .expect("symbol counts");
    let mut out = Vec::new();
    if let Some((top, n)) = names.first() {
        println!("most changed definition name: {top} ({n} changes)");
        out.push(("most changed", top.clone()));
    }
    if let Some((mid, n)) = names.get(names.len() / 2) {
        println!("median definition name: {mid} ({n} changes)");
        out.push(("median", mid.clone()));
    }
    out
}

fn git(repo: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(repo)
        .env("GIT_AUTHOR_NAME", "Bench")
        .env("GIT_AUTHOR_EMAIL", "bench@example.com")
        .env("GIT_COMMITTER_NAME", "Bench")
        .env("GIT_COMMITTER_EMAIL", "bench@example.com")
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

//! History read after the code, newest first, in slices that are each committed: the
//! code answers at once, a history read in part says how far back it reaches, and a run
//! killed between (or inside) slices leaves a readable index whose history is a
//! newest-first prefix of the whole, which the next run completes to the same rows.
//!
//! The slices are made tiny and slow with the test-only knobs `LLMCTEST_HISTORY_SLICE`
//! (commits per slice), `LLMCTEST_HISTORY_PAUSE_MS` (a pause after each committed slice),
//! `LLMCTEST_HISTORY_BUDGET_MS` (the foreground budget) and
//! `LLMCTEST_HISTORY_BACKGROUND=0` (no background run), so each run is driven by the test.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::history::{fixture_history, repo_dir};
use crate::util::{json, llmc_env, stderr, stdout};

/// Commits of the scripted fixture history.
const FIXTURE_COMMITS: usize = 14;

/// The fixture history, copied fresh and not indexed yet.
fn fresh_history() -> crate::util::Scratch {
    let s = fixture_history();
    std::fs::remove_dir_all(repo_dir(&s).join(".llmc")).expect("drop the fixture's index");
    s
}

/// `git rev-list --topo-order HEAD`: the whole history, newest first.
fn topo_order(dir: &Path) -> Vec<String> {
    let out = Command::new("git")
        .args(["rev-list", "--topo-order", "HEAD"])
        .current_dir(dir)
        .output()
        .expect("git rev-list");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// The commits the index holds, newest first (by their ids, which keep git's order).
fn held(dir: &Path) -> Vec<String> {
    llmc::store::Store::open_existing(dir)
        .expect("the index opens")
        .read(|c| {
            let mut stmt = c.prepare("SELECT hash FROM commits ORDER BY id DESC")?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            rows.collect()
        })
        .expect("commits")
}

/// Every history row, ids included, in a stable order.
fn history_rows(dir: &Path) -> Vec<String> {
    llmc::store::Store::open_existing(dir)
        .expect("the index opens")
        .read(|c| {
            let mut out = Vec::new();
            for sql in [
                "SELECT id || ' ' || hash || ' ' || parents || ' ' || author || ' ' || author_time
                        || ' ' || subject || ' ' || boundary FROM commits ORDER BY id",
                "SELECT commit_id || ' ' || path || ' ' || coalesce(old_path, '') || ' ' || status
                        || ' ' || coalesce(added, -1) || ' ' || coalesce(removed, -1)
                 FROM commit_files ORDER BY commit_id, path, status",
                "SELECT commit_id || ' ' || path || ' ' || qualname || ' ' || kind || ' ' || change
                        || ' ' || added || ' ' || removed || ' ' || start_line || ' ' || end_line
                        || ' ' || hunks
                 FROM commit_symbols ORDER BY commit_id, path, qualname, start_line, change",
            ] {
                let mut stmt = c.prepare(sql)?;
                let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
                for r in rows {
                    out.push(r?);
                }
            }
            Ok(out)
        })
        .expect("history rows")
}

/// Knobs for a run that reads one commit per slice and then stops (no background run).
const ONE_SLICE: &[(&str, &str)] = &[
    ("LLMCTEST_HISTORY_SLICE", "2"),
    ("LLMCTEST_HISTORY_BUDGET_MS", "0"),
    ("LLMCTEST_HISTORY_BACKGROUND", "0"),
];

#[test]
fn the_code_answers_at_once_and_a_partial_history_says_how_far_back_it_reaches() {
    let s = fresh_history();
    let dir = repo_dir(&s);
    let out = llmc_env(&dir, ONE_SLICE, &["index", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["history"]["commits"], 2, "{v}");
    assert_eq!(v["history"]["remaining"], FIXTURE_COMMITS - 2, "{v}");
    assert_eq!(v["history"]["read_back_to"], "2024-01-12", "{v}");
    // What is held is the newest part.
    assert_eq!(held(&dir), topo_order(&dir)[..2]);

    // History answers say how far back they reach.
    let note = "history read back to 2024-01-12, 14 % of commits; ask again later for older";
    let out = llmc_env(&dir, ONE_SLICE, &["log", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["history"], note, "{v}");
    assert_eq!(v["commits"].as_array().expect("commits").len(), 2);
    let out = llmc_env(&dir, ONE_SLICE, &["log"]);
    assert!(stderr(&out).contains(note), "{}", stderr(&out));
    // A structural question is answered from the code, which is whole.
    let out = llmc_env(
        &dir,
        ONE_SLICE,
        &["ask", "--json", "--no-llm", "where is lerp defined?"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("util.py"), "{}", stdout(&out));

    let out = llmc_env(
        &dir,
        ONE_SLICE,
        &["ask", "--json", "--no-llm", "who changed util.py recently?"],
    );
    // (An ask may read a slice of its own first, when it re-indexes.)
    let v = json(&out);
    let warnings = v["warnings"].to_string();
    assert!(warnings.contains("history read back to 2024-01-"), "{v}");
    assert!(warnings.contains("ask again later for older"), "{v}");
    // "When was X added?" from a history read in part names the oldest commit read so
    // far as such, at Low, not as the introduction.
    let out = llmc_env(
        &dir,
        ONE_SLICE,
        &["ask", "--json", "--no-llm", "when was `lerp` added?"],
    );
    let v = json(&out);
    let text = v["answer"]["text"].as_str().unwrap_or("");
    assert!(
        text.starts_with("`lerp`'s oldest commit in the history read so far is ")
            && text.contains("the commit that introduced it may be older"),
        "{v}"
    );
    assert_eq!(v["confidence"]["label"], "Low", "{v}");
    assert!(v["history"][0]["partial"].is_string(), "{v}");
    let out = llmc_env(&dir, ONE_SLICE, &["status"]);
    assert!(
        stdout(&out).contains("commits not read yet; `llmc index --history-only` reads them now"),
        "{}",
        stdout(&out)
    );

    // `--history-only` reads the rest; then nothing is said any more.
    let out = llmc_env(&dir, &[], &["index", "--history-only", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["remaining"], 0, "{}", stdout(&out));
    assert_eq!(held(&dir), topo_order(&dir));
    let v = json(&llmc_env(&dir, &[], &["log", "--json"]));
    assert!(v.get("history").is_none(), "{v}");
    assert_eq!(v["total"], FIXTURE_COMMITS);
}

/// Waits until the index holds at least `n` commits (read while a run writes it).
fn wait_for_commits(dir: &Path, n: usize) {
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        if llmc::store::Store::exists(dir) && held(dir).len() >= n {
            return;
        }
        assert!(
            Instant::now() < until,
            "the history never reached {n} commits"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_killed_history_run_leaves_a_newest_first_prefix_and_the_next_run_completes_it() {
    // The whole history, read in one uninterrupted run.
    let whole = fresh_history();
    let out = llmc_env(&repo_dir(&whole), &[], &["index"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let expected = history_rows(&repo_dir(&whole));
    assert_eq!(held(&repo_dir(&whole)), topo_order(&repo_dir(&whole)));

    for kill_at in [1, 4, 9] {
        let s = fresh_history();
        let dir = repo_dir(&s);
        // The code and a first slice.
        let out = llmc_env(&dir, ONE_SLICE, &["index"]);
        assert!(out.status.success(), "{}", stderr(&out));
        // The rest, one commit a slice with a pause after each, killed on the way.
        let tmp = tempfile::tempdir().expect("temp dir");
        let mut child = Command::new(env!("CARGO_BIN_EXE_llmc"))
            .args(["-q", "index", "--history-only"])
            .current_dir(&dir)
            .env("LLMCTEST_HISTORY_SLICE", "1")
            .env("LLMCTEST_HISTORY_PAUSE_MS", "100")
            .env("TMPDIR", tmp.path())
            .spawn()
            .expect("llmc runs");
        wait_for_commits(&dir, 2 + kill_at);
        child.kill().expect("SIGKILL");
        let _ = child.wait();
        // Nothing left behind outside the index.
        let left: Vec<_> = std::fs::read_dir(tmp.path())
            .expect("temp dir")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert!(left.is_empty(), "{kill_at}: left in the temp dir: {left:?}");

        let order = topo_order(&dir);
        let got = held(&dir);
        assert!(got.len() >= 2 + kill_at, "{kill_at}: {}", got.len());
        assert!(
            got.len() < FIXTURE_COMMITS,
            "killed before the end: {}",
            got.len()
        );
        assert_eq!(got, order[..got.len()], "a newest-first prefix");
        let v = json(&llmc_env(&dir, &[], &["status", "--json"]));
        assert_eq!(
            v["history"]["remaining"],
            FIXTURE_COMMITS - got.len(),
            "{v}"
        );
        // The next run goes on from there to exactly the uninterrupted result.
        let out = llmc_env(&dir, &[], &["index"]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(history_rows(&dir), expected, "killed after {kill_at}");
    }
}

#[test]
fn a_writer_is_not_held_up_by_a_background_history_run() {
    let whole = fresh_history();
    assert!(
        llmc_env(&repo_dir(&whole), &[], &["index"])
            .status
            .success()
    );
    let expected = history_rows(&repo_dir(&whole));

    let s = fresh_history();
    let dir = repo_dir(&s);
    assert!(llmc_env(&dir, ONE_SLICE, &["index"]).status.success());
    let mut child = Command::new(env!("CARGO_BIN_EXE_llmc"))
        .args(["-q", "index", "--history-only"])
        .current_dir(&dir)
        .env("LLMCTEST_HISTORY_SLICE", "1")
        .env("LLMCTEST_HISTORY_PAUSE_MS", "200")
        .spawn()
        .expect("llmc runs");
    wait_for_commits(&dir, 4);
    // An edit indexed while the history run holds the lock: it lets the lock go after
    // its slice, the edit is indexed, and the history run goes on afterwards.
    std::fs::write(
        dir.join("util.py"),
        "def lerp(a, b, t):\n    return a\n\n\ndef brand_new():\n    return 1\n",
    )
    .expect("write");
    let out = llmc_env(
        &dir,
        &[("LLMCTEST_HISTORY_BACKGROUND", "0")],
        &["index", "--json"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["modified"], 1);
    let status = child.wait().expect("the history run ends");
    assert!(status.success());
    assert_eq!(held(&dir), topo_order(&dir));
    assert_eq!(history_rows(&dir), expected);
}

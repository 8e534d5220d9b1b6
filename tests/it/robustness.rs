//! Bad input never stops an index, and an index is never left unusable.

use std::collections::BTreeMap;

use llmc::config::IndexConfig;
use llmc::index::walk::SkipReason;

use crate::util::{Scratch, definitions, stderr, stdout};

#[test]
fn bad_files_are_counted_and_the_rest_is_indexed() {
    let repo = Scratch::fixture("rust");
    let clean = {
        let r = Scratch::fixture("rust");
        r.index();
        definitions(&r.store())
    };
    repo.write(
        "broken.rs",
        "fn ok_before() {}\nfn broken( {\n  let x = ;\n}\nfn ok_after() -> u8 { 1 }\n",
    );
    repo.write("latin1.py", b"# caf\xe9\ndef caf():\n    return 1\n");
    repo.write("empty.rs", "");
    repo.write("blob.dat", [0u8, 1, 2, 3, 0, 255].repeat(100));
    repo.write("sneaky.txt", b"text\0with a nul");
    repo.write("huge.txt", "x".repeat(2 * 1024 * 1024));
    repo.write(".env", "API_KEY=hunter2\n");
    repo.write("deploy/server.pem", "-----BEGIN PRIVATE KEY-----\n");
    repo.write("id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\n");
    std::os::unix::fs::symlink("loop", repo.path().join("loop")).expect("symlink loop");
    std::os::unix::fs::symlink("/etc/passwd", repo.path().join("outside")).expect("symlink out");
    std::os::unix::fs::symlink(repo.path(), repo.path().join("src/self")).expect("symlink dir");

    let stats = repo.index();
    let skipped: BTreeMap<SkipReason, u64> = stats.skipped.clone();
    assert_eq!(skipped.get(&SkipReason::Binary), Some(&2), "{skipped:?}");
    assert_eq!(skipped.get(&SkipReason::TooLarge), Some(&1), "{skipped:?}");
    // .env is hidden as well as secret; the other two are secret by name.
    assert_eq!(skipped.get(&SkipReason::Secret), Some(&2), "{skipped:?}");
    assert_eq!(skipped.get(&SkipReason::Symlink), Some(&3), "{skipped:?}");

    let store = repo.store();
    let defs = definitions(&store);
    for d in &clean {
        assert!(defs.contains(d), "fixture definition lost: {d}");
    }
    assert!(defs.iter().any(|d| d.contains("\tok_before\t")));
    assert!(defs.iter().any(|d| d.contains("\tok_after\t")));
    assert!(
        defs.iter()
            .any(|d| d.starts_with("latin1.py\tfunction\tcaf\t"))
    );
    let flagged = store.flag_counts().expect("flags");
    assert_eq!(flagged["syntax_errors"], 1);
    assert_eq!(flagged["invalid_utf8"], 1);
    assert_eq!(flagged["empty"], 1);
    let dump = store.dump().expect("dump");
    for secret in [
        ".env",
        "server.pem",
        "id_rsa",
        "huge.txt",
        "blob.dat",
        "outside",
    ] {
        assert!(!dump.contains(secret), "{secret} must not be indexed");
    }
}

#[test]
fn secrets_are_indexed_only_when_the_config_opts_in() {
    let repo = Scratch::empty();
    repo.write("config/credentials.json", "{\"token\": \"abc\"}\n");
    repo.write("main.py", "def main():\n    pass\n");
    let stats = repo.index();
    assert_eq!(stats.skipped.get(&SkipReason::Secret), Some(&1));
    assert_eq!(stats.files, 1);
    let cfg = IndexConfig {
        include_secrets: true,
        ..IndexConfig::default()
    };
    let stats = repo.index_with(&cfg, false);
    assert_eq!(stats.files, 2);
    assert_eq!(stats.skipped.get(&SkipReason::Secret), None);
}

#[test]
fn ignore_files_are_honoured() {
    let repo = Scratch::fixture("go");
    repo.git(&["init", "-q"]);
    repo.write(".gitignore", "generated/\n");
    repo.write(".llmcignore", "*.tmp.go\n");
    repo.write(".ignore", "vendor/\n");
    repo.write("generated/out.go", "package gen\nfunc Gen() {}\n");
    repo.write("scratch.tmp.go", "package main\nfunc Tmp() {}\n");
    repo.write("vendor/lib.go", "package lib\nfunc Lib() {}\n");
    repo.index();
    let dump = repo.store().dump().expect("dump");
    for ignored in ["generated/out.go", "scratch.tmp.go", "vendor/lib.go"] {
        assert!(!dump.contains(ignored), "{ignored} is ignored");
    }
}

#[test]
fn a_corrupt_or_outdated_store_exits_3_and_rebuild_recovers() {
    let repo = Scratch::fixture("c");
    assert!(repo.llmc(&["index", "-q"]).status.success());
    let db = repo.path().join(".llmc/index.db");
    for _ in repo.path().join(".llmc").read_dir().expect("store dir") {}
    std::fs::write(&db, b"this is not a database, it is garbage".repeat(200)).expect("corrupt");
    let _ = std::fs::remove_file(repo.path().join(".llmc/index.db-wal"));
    let _ = std::fs::remove_file(repo.path().join(".llmc/index.db-shm"));

    let status = repo.llmc(&["status"]);
    assert_eq!(status.status.code(), Some(3), "{}", stderr(&status));
    assert!(
        stderr(&status).contains("llmc index --rebuild"),
        "{}",
        stderr(&status)
    );
    let index = repo.llmc(&["index"]);
    assert_eq!(index.status.code(), Some(3));
    let json = repo.llmc(&["status", "--json"]);
    assert_eq!(json.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_str(&stdout(&json)).expect("JSON error");
    assert_eq!(v["error"]["kind"], "index_unusable");
    assert!(v["schema_version"].is_number());

    let rebuild = repo.llmc(&["index", "--rebuild", "-q"]);
    assert!(rebuild.status.success(), "{}", stderr(&rebuild));
    assert!(repo.llmc(&["status"]).status.success());

    // A store written by another format version.
    let conn = rusqlite::Connection::open(&db).expect("open");
    conn.pragma_update(None, "user_version", 999)
        .expect("set version");
    drop(conn);
    let status = repo.llmc(&["status"]);
    assert_eq!(status.status.code(), Some(3));
    assert!(
        stderr(&status).contains("format version 999"),
        "{}",
        stderr(&status)
    );
    // A newer format is never replaced unasked.
    let conn = rusqlite::Connection::open(&db).expect("open");
    conn.pragma_update(None, "user_version", 999)
        .expect("set version");
    drop(conn);
    assert_eq!(repo.llmc(&["index", "-q"]).status.code(), Some(3));
    assert!(repo.llmc(&["index", "--rebuild", "-q"]).status.success());
    assert!(repo.llmc(&["status"]).status.success());
}

/// An index an older llmc wrote (after an upgrade) is rebuilt by the next `llmc index`
/// or `llmc ask`, which say so; the question is answered.
#[test]
fn an_index_of_an_older_llmc_is_rebuilt_by_the_next_index_or_question() {
    let repo = Scratch::fixture("python");
    let db = repo.path().join(".llmc/index.db");
    let older = |repo: &Scratch| {
        assert!(repo.llmc(&["index", "-q"]).status.success());
        let conn = rusqlite::Connection::open(&db).expect("open");
        conn.pragma_update(None, "user_version", llmc::store::SCHEMA_VERSION - 1)
            .expect("set version");
    };
    older(&repo);
    let status = repo.llmc(&["status"]);
    assert_eq!(status.status.code(), Some(3), "a reader does not write");
    let ask = repo.llmc(&["ask", "who calls shelf_weight?"]);
    assert!(ask.status.success(), "{}", stderr(&ask));
    assert!(
        stderr(&ask).contains("written by an older llmc"),
        "{}",
        stderr(&ask)
    );
    assert!(stdout(&ask).contains("app/report.py"), "{}", stdout(&ask));
    assert!(repo.llmc(&["status"]).status.success());

    older(&repo);
    let index = repo.llmc(&["index"]);
    assert!(index.status.success(), "{}", stderr(&index));
    assert!(
        stderr(&index).contains("written by an older llmc"),
        "{}",
        stderr(&index)
    );
    assert!(repo.llmc(&["status"]).status.success());
}

/// Files an llmc that read code differently indexed (another extraction version, after
/// an upgrade) are read again by the next question: the answer comes from this llmc's
/// reading, not from the rows the index holds.
#[test]
fn an_index_read_by_an_llmc_that_reads_code_differently_is_read_again() {
    let repo = Scratch::fixture("python");
    assert!(repo.llmc(&["index", "-q"]).status.success());
    // A second run a second later, so that the tree looks unchanged since the last check
    // (which compares modification times in seconds).
    std::thread::sleep(std::time::Duration::from_millis(1100));
    assert!(repo.llmc(&["index", "-q"]).status.success());
    let db = repo.path().join(".llmc/index.db");
    let conn = rusqlite::Connection::open(&db).expect("open");
    // What an older llmc might have left: no call of shelf_weight read.
    conn.execute_batch(
        "DELETE FROM calls WHERE name = 'shelf_weight';
         UPDATE meta SET value = '2000-01-01' WHERE key = 'extraction';",
    )
    .expect("age the index");
    drop(conn);
    let ask = repo.llmc(&["ask", "who calls shelf_weight?"]);
    assert!(ask.status.success(), "{}", stderr(&ask));
    assert!(
        stdout(&ask).contains("app/report.py:19"),
        "{}",
        stdout(&ask)
    );
    let conn = rusqlite::Connection::open(&db).expect("open");
    let version: String = conn
        .query_row("SELECT value FROM meta WHERE key = 'extraction'", [], |r| {
            r.get(0)
        })
        .expect("extraction version");
    assert_eq!(version, llmc::index::EXTRACTION_VERSION);
}

#[test]
fn a_missing_index_exits_3() {
    let repo = Scratch::fixture("c");
    let out = repo.llmc(&["status"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stderr(&out).contains("run `llmc index` first"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn sigkill_during_an_index_leaves_the_previous_generation_readable() {
    let repo = Scratch::fixture("python");
    assert!(repo.llmc(&["index", "-q"]).status.success());
    let before = repo.store().dump().expect("dump");
    // Enough work that the second index is still running when it is killed.
    bulk(&repo, 800);
    kill_index_midway(&repo);

    let status = repo.llmc(&["status", "--json"]);
    assert!(status.status.success(), "{}", stderr(&status));
    let v: serde_json::Value = serde_json::from_str(&stdout(&status)).expect("json");
    assert_eq!(
        v["generation"], 1,
        "the reader sees the last complete generation"
    );
    assert_eq!(repo.store().dump().expect("dump"), before);
    assert!(v["changed"]["added"].as_array().expect("added").len() >= 800);

    let again = repo.llmc(&["index", "-q"]);
    assert!(again.status.success(), "{}", stderr(&again));
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&repo.llmc(&["status", "--json"]))).expect("json");
    assert_eq!(v["generation"], 2);
    assert_eq!(v["changed"]["added"].as_array().expect("added").len(), 0);
}

/// Starts `llmc index -q` in the repository.
fn spawn_index(repo: &Scratch) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_llmc"))
        .args(["index", "-q"])
        .current_dir(repo.path())
        .spawn()
        .expect("spawn")
}

/// Starts an index and SIGKILLs it in its parse-and-write phase (the walk takes
/// milliseconds, that phase seconds on a `bulk` repository).
fn kill_index_midway(repo: &Scratch) {
    let mut child = spawn_index(repo);
    std::thread::sleep(std::time::Duration::from_millis(700));
    let still_running = child.try_wait().expect("try_wait").is_none();
    child.kill().expect("kill");
    child.wait().expect("wait");
    assert!(
        still_running,
        "the index finished before it could be killed; make it bigger"
    );
}

/// A repository big enough that indexing it takes a while in a debug build.
fn bulk(repo: &Scratch, files: usize) {
    let body: String = (0..300)
        .map(|i| format!("def function_{i}(x):\n    \"\"\"Doc {i}.\"\"\"\n    return x + {i}\n\n"))
        .collect();
    for i in 0..files {
        repo.write(&format!("bulk/m{i}.py"), &body);
    }
}

#[test]
fn a_reader_during_an_index_sees_the_previous_generation() {
    let repo = Scratch::fixture("python");
    assert!(repo.llmc(&["index", "-q"]).status.success());
    bulk(&repo, 800);
    let mut child = spawn_index(&repo);
    std::thread::sleep(std::time::Duration::from_millis(500));
    let during = repo.llmc(&["status", "--json"]);
    let was_running = child.try_wait().expect("try_wait").is_none();
    assert!(child.wait().expect("wait").success());
    assert!(
        was_running,
        "the index finished before the reader ran; make it bigger"
    );
    assert!(during.status.success(), "{}", stderr(&during));
    let v: serde_json::Value = serde_json::from_str(&stdout(&during)).expect("json");
    assert_eq!(v["generation"], 1);
    let after: serde_json::Value =
        serde_json::from_str(&stdout(&repo.llmc(&["status", "--json"]))).expect("json");
    assert_eq!(after["generation"], 2);
}

#[test]
fn sigkill_during_the_first_index_leaves_no_half_store() {
    let repo = Scratch::fixture("python");
    bulk(&repo, 800);
    kill_index_midway(&repo);
    let status = repo.llmc(&["status"]);
    assert_eq!(
        status.status.code(),
        Some(3),
        "no index yet: {}",
        stderr(&status)
    );
    let again = repo.llmc(&["index", "-q"]);
    assert!(again.status.success(), "{}", stderr(&again));
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&repo.llmc(&["status", "--json"]))).expect("json");
    assert_eq!(v["generation"], 1);
    assert!(v["files"]["total"].as_u64().expect("files") > 800);
}

#[test]
fn two_index_runs_at_once_take_turns() {
    let repo = Scratch::fixture("python");
    bulk(&repo, 200);
    let spawn = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_llmc"))
            .args(["index"])
            .current_dir(repo.path())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn")
    };
    let (a, b) = (spawn(), spawn());
    let (a, b) = (
        a.wait_with_output().expect("a"),
        b.wait_with_output().expect("b"),
    );
    assert!(a.status.success(), "{}", stderr(&a));
    assert!(b.status.success(), "{}", stderr(&b));
    let notes = format!("{}{}", stderr(&a), stderr(&b));
    assert!(
        notes.contains("waiting for another `llmc index`"),
        "{notes}"
    );
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&repo.llmc(&["status", "--json"]))).expect("json");
    assert_eq!(
        v["generation"], 1,
        "the second run found nothing left to do"
    );
    assert_eq!(v["changed"]["added"].as_array().expect("added").len(), 0);
}

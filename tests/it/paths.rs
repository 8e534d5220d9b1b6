//! Paths on the command line are read from the directory llmc runs in (as git reads them)
//! and, failing that, from the root.

use crate::util::{Scratch, json, llmc_in, stdout};

/// The python fixture with one commit, indexed, plus a second `report.py` so that a bare
/// file name is ambiguous from the root.
fn repo() -> Scratch {
    let repo = Scratch::git_fixture("python");
    repo.write(
        "inventory/report.py",
        "def stock_report():\n    return []\n",
    );
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "the fixture"]);
    let out = repo.llmc(&["index", "-q"]);
    assert!(out.status.success(), "{}", crate::util::stderr(&out));
    repo
}

fn log_files(j: &serde_json::Value) -> Vec<String> {
    j["commits"]
        .as_array()
        .expect("commits")
        .iter()
        .flat_map(|c| c["files"].as_array().cloned().unwrap_or_default())
        .filter_map(|f| f["path"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn log_reads_a_path_from_the_subdirectory_then_from_the_root() {
    let repo = repo();
    let app = repo.path().join("app");
    for arg in [
        "report.py",
        "./report.py",
        "../app/report.py",
        "app/report.py",
    ] {
        let out = llmc_in(&app, &["log", arg, "--json"]);
        assert!(
            out.status.success(),
            "log {arg}: {}",
            crate::util::stderr(&out)
        );
        let j = json(&out);
        assert_eq!(j["resolved"]["path"], "app/report.py", "log {arg}: {j}");
    }
    // An absolute path inside the repository is a path too.
    let abs = repo.path().join("app/report.py");
    let j = json(&llmc_in(
        &app,
        &["log", abs.to_str().expect("utf-8"), "--json"],
    ));
    assert_eq!(j["resolved"]["path"], "app/report.py", "{j}");
    // `.` is the directory itself.
    let j = json(&llmc_in(&app, &["log", ".", "--json"]));
    assert!(
        !log_files(&j).is_empty() && log_files(&j).iter().all(|p| p.starts_with("app/")),
        "{j}"
    );
}

#[test]
fn graph_targets_are_read_from_the_subdirectory_then_from_the_root() {
    let repo = repo();
    let inventory = repo.path().join("inventory");
    // From the root a bare `report.py` names both files; from inventory/ only its own.
    let j = json(&repo.llmc(&["graph", "imports", "report.py", "--json"]));
    assert_eq!(j["candidates"].as_array().map(Vec::len), Some(2), "{j}");
    let j = json(&llmc_in(
        &inventory,
        &["graph", "importers", "report.py", "--json"],
    ));
    let paths: Vec<&str> = j["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .filter_map(|c| c["path"].as_str())
        .collect();
    assert_eq!(paths, ["inventory/report.py"], "{j}");
    let out = llmc_in(&inventory, &["graph", "imports", "../app/report.py"]);
    assert!(
        stdout(&out).contains("app/report.py:4  inventory.models Item"),
        "{}",
        stdout(&out)
    );
    // `path:name` too, and a root-relative path still works from anywhere.
    for target in ["models.py:shelf_weight", "inventory/models.py:shelf_weight"] {
        let j = json(&llmc_in(
            &inventory,
            &["graph", "callers", target, "--json"],
        ));
        assert_eq!(j["total"], 2, "{target}: {j}");
    }
}

#[test]
fn a_path_glob_is_read_from_the_subdirectory_and_from_the_root() {
    let repo = repo();
    let app = repo.path().join("app");
    let hits = |dir: &std::path::Path, glob: &str| -> Vec<String> {
        let j = json(&llmc_in(
            dir,
            &["search", "shelf", "--path", glob, "--json"],
        ));
        j["hits"]
            .as_array()
            .expect("hits")
            .iter()
            .filter_map(|h| h["path"].as_str().map(str::to_string))
            .collect()
    };
    let from_app = hits(&app, "report.py");
    assert!(
        !from_app.is_empty(),
        "report.py from app/ names app/report.py"
    );
    assert!(
        from_app.iter().all(|p| p == "app/report.py"),
        "{from_app:?}"
    );
    let from_root = hits(&app, "inventory/*.py");
    assert!(
        !from_root.is_empty() && from_root.iter().all(|p| p.starts_with("inventory/")),
        "{from_root:?}"
    );
    // At the root, `report.py` is a path from the root: no file is there.
    let out = repo.llmc(&["search", "shelf", "--path", "report.py"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    // ask takes the same reading.
    let j = json(&llmc_in(
        &app,
        &[
            "ask",
            "where is the shelf report built?",
            "--path",
            "report.py",
            "--json",
        ],
    ));
    let sources: Vec<&str> = j["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .filter_map(|s| s["path"].as_str())
        .collect();
    assert!(
        !sources.is_empty() && sources.iter().all(|p| *p == "app/report.py"),
        "{j}"
    );
}

//! The history memory and `llmc log`, on the scripted fixture history
//! (`testdata/history/make_history.sh`): exact rows for definitions and paths, filters,
//! JSON, exit codes, incremental ingestion and rewritten history.

use std::process::Command;

use crate::util::{Scratch, stderr, stdout, testdata};

/// A fresh copy of the fixture history, built by its script in a temp dir, and indexed.
pub fn fixture_history() -> Scratch {
    let s = Scratch::empty();
    let dest = s.path().join("repo");
    let out = Command::new("sh")
        .arg(testdata().join("history/make_history.sh"))
        .arg(&dest)
        .output()
        .expect("sh runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let repo = Scratch { dir: s.dir };
    let out = crate::util::llmc_in(&repo.path().join("repo"), &["index", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
    repo
}

pub fn repo_dir(s: &Scratch) -> std::path::PathBuf {
    s.path().join("repo")
}

/// `llmc log ARGS --json` as rows: `date author | subject | what changed`, one per
/// changed symbol (for a symbol target) or file (for a path target).
fn rows(s: &Scratch, args: &[&str]) -> Vec<String> {
    let mut full = vec!["log", "--json"];
    full.extend_from_slice(args);
    let out = crate::util::llmc_in(&repo_dir(s), &full);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    let symbol = v["resolved"]["kind"] == "symbol";
    let mut rows = Vec::new();
    for c in v["commits"].as_array().expect("commits") {
        let head = format!(
            "{} {} | {}",
            &c["date"].as_str().expect("date")[..10],
            c["author"].as_str().expect("author"),
            c["subject"].as_str().expect("subject")
        );
        assert_eq!(c["commit"].as_str().expect("hash").len(), 40);
        if symbol {
            for sym in c["symbols"].as_array().expect("symbols") {
                rows.push(format!(
                    "{head} | {}:{} {} +{} -{}",
                    sym["path"].as_str().expect("path"),
                    sym["symbol"].as_str().expect("symbol"),
                    sym["change"].as_str().expect("change"),
                    sym["added"],
                    sym["removed"]
                ));
            }
        } else {
            for f in c["files"].as_array().expect("files") {
                let name = match f["old_path"].as_str() {
                    Some(o) => format!("{o} -> {}", f["path"].as_str().expect("path")),
                    None => f["path"].as_str().expect("path").to_string(),
                };
                let syms: Vec<String> = c["symbols"]
                    .as_array()
                    .expect("symbols")
                    .iter()
                    .filter(|s| s["path"] == f["path"])
                    .map(|s| {
                        format!(
                            "{} {}",
                            s["symbol"].as_str().expect("symbol"),
                            s["change"].as_str().expect("change")
                        )
                    })
                    .collect();
                rows.push(format!(
                    "{head} | {} {name} +{} -{} | {}",
                    f["status"].as_str().expect("status"),
                    f["added"],
                    f["removed"],
                    syms.join(", ")
                ));
            }
        }
    }
    rows
}

#[test]
fn symbol_logs_follow_renames_moves_reverts_and_merges() {
    let repo = fixture_history();
    assert_eq!(
        rows(&repo, &["add"]),
        [
            "2024-01-06 Alice | Revert \"Make add off by one\" | calc/arith.py:add modified +1 -1",
            "2024-01-05 Bob | Make add off by one | calc/arith.py:add modified +1 -1",
            "2024-01-02 Bob | Document add and sub | calc/ops.py:add modified +1 -0",
            "2024-01-01 Alice | Add calculator and helpers | calc/ops.py:add added +2 -0",
        ]
    );
    // Changed on main while feature added mul; the merge itself carries no change.
    assert_eq!(
        rows(&repo, &["sub"]),
        [
            "2024-01-08 Bob | Handle negative differences in sub | calc/arith.py:sub modified +1 -1",
            "2024-01-02 Bob | Document add and sub | calc/ops.py:sub modified +1 -0",
            "2024-01-01 Alice | Add calculator and helpers | calc/ops.py:sub added +2 -0",
        ]
    );
    assert_eq!(
        rows(&repo, &["mul"]),
        ["2024-01-07 Carol | Add mul | calc/arith.py:mul added +2 -0"]
    );
    // Moved between files: deleted from one, added to the other, in one commit.
    assert_eq!(
        rows(&repo, &["clamp"]),
        [
            "2024-01-04 Carol | Move clamp into calc | calc/arith.py:clamp added +2 -0",
            "2024-01-04 Carol | Move clamp into calc | util.py:clamp deleted +0 -2",
            "2024-01-01 Alice | Add calculator and helpers | util.py:clamp added +2 -0",
        ]
    );
    // The file deleted and added again; a merge resolving a conflict inside lerp.
    assert_eq!(
        rows(&repo, &["lerp"]),
        [
            "2024-01-14 Alice | Merge branch hotfix | util.py:lerp modified +2 -0",
            "2024-01-13 Carol | Check t in lerp | util.py:lerp modified +1 -0",
            "2024-01-12 Bob | Clamp t in lerp | util.py:lerp modified +1 -0",
            "2024-01-11 Carol | Bring util back with a stable lerp | util.py:lerp added +3 -0",
            "2024-01-10 Bob | Drop util | util.py:lerp deleted +0 -2",
            "2024-01-01 Alice | Add calculator and helpers | util.py:lerp added +2 -0",
        ]
    );
    // path:name narrows to one file (followed across its rename).
    assert_eq!(
        rows(&repo, &["util.py:clamp"]),
        [
            "2024-01-04 Carol | Move clamp into calc | util.py:clamp deleted +0 -2",
            "2024-01-01 Alice | Add calculator and helpers | util.py:clamp added +2 -0",
        ]
    );
    assert_eq!(rows(&repo, &["calc/arith.py:add"]).len(), 4);
}

#[test]
fn path_logs_follow_renames_and_list_the_definitions_touched() {
    let repo = fixture_history();
    let arith = [
        "2024-01-08 Bob | Handle negative differences in sub | M calc/arith.py +1 -1 | sub modified",
        "2024-01-07 Carol | Add mul | M calc/arith.py +4 -0 | mul added",
        "2024-01-06 Alice | Revert \"Make add off by one\" | M calc/arith.py +1 -1 | add modified",
        "2024-01-05 Bob | Make add off by one | M calc/arith.py +1 -1 | add modified",
        "2024-01-04 Carol | Move clamp into calc | M calc/arith.py +4 -0 | clamp added",
        "2024-01-03 Alice | Rename ops to arith | R calc/ops.py -> calc/arith.py +0 -0 | ",
        // A commit touching two functions in one file.
        "2024-01-02 Bob | Document add and sub | M calc/ops.py +2 -0 | add modified, sub modified",
        "2024-01-01 Alice | Add calculator and helpers | A calc/ops.py +9 -0 | add added, sub added",
    ];
    assert_eq!(rows(&repo, &["calc/arith.py"]), arith);
    assert_eq!(rows(&repo, &["./calc/"]), arith, "a directory");

    // The user's git configuration does not change what llmc reads.
    let dir = repo_dir(&repo);
    for (k, v) in [
        ("log.showRoot", "false"),
        ("diff.interHunkContext", "20"),
        ("diff.noprefix", "true"),
        ("color.ui", "always"),
        ("diff.renames", "false"),
        ("core.quotePath", "true"),
    ] {
        let ok = Command::new("git")
            .args(["config", k, v])
            .current_dir(&dir)
            .status()
            .expect("git config");
        assert!(ok.success());
    }
    let out = crate::util::llmc_in(&dir, &["index", "-q", "--rebuild"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        rows(&repo, &["calc/arith.py"]),
        arith,
        "under odd git config"
    );
    assert_eq!(
        rows(&repo, &["util.py"]),
        [
            "2024-01-14 Alice | Merge branch hotfix | M util.py +2 -2 | lerp modified",
            "2024-01-13 Carol | Check t in lerp | M util.py +1 -0 | lerp modified",
            "2024-01-12 Bob | Clamp t in lerp | M util.py +1 -0 | lerp modified",
            "2024-01-11 Carol | Bring util back with a stable lerp | A util.py +3 -0 | lerp added",
            "2024-01-10 Bob | Drop util | D util.py +0 -2 | lerp deleted",
            "2024-01-04 Carol | Move clamp into calc | M util.py +0 -4 | clamp deleted",
            "2024-01-01 Alice | Add calculator and helpers | A util.py +6 -0 | clamp added, lerp added",
        ]
    );
}

#[test]
fn filters_json_and_exit_codes() {
    let repo = fixture_history();
    let dir = repo_dir(&repo);
    assert_eq!(
        rows(&repo, &["add", "--author", "ALICE"]).len(),
        2,
        "author, any case"
    );
    assert_eq!(
        rows(
            &repo,
            &["add", "--since", "2024-01-02", "--until", "2024-01-05"]
        ),
        [
            "2024-01-05 Bob | Make add off by one | calc/arith.py:add modified +1 -1",
            "2024-01-02 Bob | Document add and sub | calc/ops.py:add modified +1 -0",
        ]
    );
    assert_eq!(
        rows(&repo, &["add", "--limit", "1"]),
        ["2024-01-06 Alice | Revert \"Make add off by one\" | calc/arith.py:add modified +1 -1"]
    );

    // The whole history, by message.
    let out = crate::util::llmc_in(&dir, &["log", "--grep", "REVERT", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    let commits = v["commits"].as_array().expect("commits");
    assert_eq!(commits.len(), 1);
    for key in [
        "commit", "date", "author", "email", "subject", "files", "symbols",
    ] {
        assert!(!commits[0][key].is_null(), "{key}");
    }
    assert_eq!(commits[0]["date"], "2024-01-06T12:00:00Z");
    assert_eq!(commits[0]["email"], "alice@example.com");
    assert!(v["schema_version"].is_number());
    assert_eq!(v["target"], "");

    // Every commit, the merge included, newest first.
    let out = crate::util::llmc_in(&dir, &["log", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    let subjects: Vec<&str> = v["commits"]
        .as_array()
        .expect("commits")
        .iter()
        .map(|c| c["subject"].as_str().expect("subject"))
        .collect();
    assert_eq!(subjects.len(), 14);
    assert_eq!(subjects[0], "Merge branch hotfix");
    assert_eq!(subjects[5], "Merge branch feature");

    // Human rows: the first answers "when did X last change, and why".
    let out = crate::util::llmc_in(&dir, &["log", "sub"]);
    assert!(!stderr(&out).contains("HEAD moved"), "{}", stderr(&out));
    let text = stdout(&out);
    let first = text.lines().next().expect("a row");
    assert!(first.starts_with("2024-01-08  "), "{text}");
    assert!(
        first.ends_with("  Bob  Handle negative differences in sub"),
        "{text}"
    );
    assert!(
        text.contains("calc/arith.py:9-11  function sub  modified +1 -1"),
        "{text}"
    );

    // Nothing found: exit 1, still a JSON document.
    let out = crate::util::llmc_in(&dir, &["log", "no_such_function", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(v["commits"].as_array().map(Vec::len), Some(0));
    // A date it cannot read: usage error.
    let out = crate::util::llmc_in(&dir, &["log", "add", "--since", "the day after never"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    // Relative dates parse (the fixture is long past).
    let out = crate::util::llmc_in(&dir, &["log", "add", "--since", "3 months ago"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let out = crate::util::llmc_in(&dir, &["log", "add", "--until", "last week"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn new_commits_are_ingested_incrementally_and_rewrites_drop_the_old_ones() {
    let repo = fixture_history();
    let dir = repo_dir(&repo);
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(args)
            .current_dir(&dir)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_AUTHOR_NAME", "Dana")
            .env("GIT_AUTHOR_EMAIL", "dana@example.com")
            .env("GIT_COMMITTER_NAME", "Dana")
            .env("GIT_COMMITTER_EMAIL", "dana@example.com")
            .env("GIT_AUTHOR_DATE", "2024-02-01T12:00:00+00:00")
            .env("GIT_COMMITTER_DATE", "2024-02-01T12:00:00+00:00")
            .output()
            .expect("git");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let index = || {
        let out = crate::util::llmc_in(&dir, &["index", "--json"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
        v["history"].clone()
    };
    let h = index();
    assert_eq!(
        (h["commits"].as_u64(), h["new_commits"].as_u64()),
        (Some(14), Some(0))
    );

    let arith = dir.join("calc/arith.py");
    let text = std::fs::read_to_string(&arith).expect("read");
    std::fs::write(&arith, text.replace("return a * b", "return b * a")).expect("write");
    git(&["commit", "-q", "-am", "Commute mul"]);
    let out = crate::util::llmc_in(&dir, &["log", "mul"]);
    assert!(stderr(&out).contains("HEAD moved"), "{}", stderr(&out));
    let h = index();
    assert_eq!(
        (h["commits"].as_u64(), h["new_commits"].as_u64()),
        (Some(15), Some(1))
    );
    assert_eq!(
        rows(&repo, &["mul"])[0],
        "2024-02-01 Dana | Commute mul | calc/arith.py:mul modified +1 -1"
    );

    // HEAD read from packed refs: still up to date.
    git(&["pack-refs", "--all"]);
    let out = crate::util::llmc_in(&dir, &["log", "mul"]);
    assert!(!stderr(&out).contains("HEAD moved"), "{}", stderr(&out));

    // Amend: the old commit is dropped, the new one ingested, the rest kept.
    git(&["commit", "-q", "--amend", "-m", "Commute mul, amended"]);
    let h = index();
    assert_eq!(
        (
            h["commits"].as_u64(),
            h["new_commits"].as_u64(),
            h["dropped_commits"].as_u64()
        ),
        (Some(15), Some(1), Some(1))
    );
    let mul = rows(&repo, &["mul"]);
    assert_eq!(mul.len(), 2);
    assert_eq!(
        mul[0],
        "2024-02-01 Dana | Commute mul, amended | calc/arith.py:mul modified +1 -1"
    );

    // Reset back past the conflict merge: nothing new; the merge, the amended commit and
    // the merged branch's own commit are dropped.
    git(&["reset", "-q", "--hard", "HEAD~2"]);
    let h = index();
    assert_eq!(
        (
            h["commits"].as_u64(),
            h["new_commits"].as_u64(),
            h["dropped_commits"].as_u64()
        ),
        (Some(12), Some(0), Some(3))
    );
    let lerp = rows(&repo, &["lerp"]);
    assert_eq!(
        lerp[0],
        "2024-01-13 Carol | Check t in lerp | util.py:lerp modified +1 -0"
    );
    assert!(lerp.iter().all(|r| !r.contains("Clamp t")));
}

#[test]
fn shallow_clones_stop_at_their_boundary_and_status_says_so() {
    let repo = fixture_history();
    let clone = repo.path().join("shallow");
    let url = format!("file://{}", repo_dir(&repo).display());
    let out = Command::new("git")
        .args(["clone", "-q", "--depth", "3", &url])
        .arg(&clone)
        .output()
        .expect("git clone");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = crate::util::llmc_in(&clone, &["index", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(v["history"]["shallow"], true);
    assert!(v["history"]["commits"].as_u64().expect("commits") < 14);
    let out = crate::util::llmc_in(&clone, &["status"]);
    assert!(stdout(&out).contains("shallow"), "{}", stdout(&out));
    // The boundary commit is listed, but what it changed is unknown: not "added".
    let out = crate::util::llmc_in(&clone, &["log", "util.py", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    for c in v["commits"].as_array().expect("commits") {
        assert_ne!(c["subject"], "Add calculator and helpers");
    }
}

/// `llmc ask --json --no-llm QUESTION` in `dir`: the answer's text, confidence label
/// and first history fact.
fn ask_history(dir: &std::path::Path, question: &str) -> (String, String, serde_json::Value) {
    let out = crate::util::llmc_in(dir, &["ask", "--json", "--no-llm", question]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v = crate::util::json(&out);
    (
        v["answer"]["text"].as_str().unwrap_or("").to_string(),
        v["confidence"]["label"].as_str().unwrap_or("").to_string(),
        v["history"][0].clone(),
    )
}

#[test]
fn a_shallow_clone_names_an_introduction_only_where_its_commits_add_it() {
    let src = Scratch::empty();
    src.git(&["init", "-q"]);
    let mut text = String::new();
    for name in ["load_config", "save_config", "parse_args", "print_help"] {
        text.push_str(&format!("def {name}(x):\n    return x\n\n\n"));
        src.write("app.py", &text);
        src.git(&["add", "app.py"]);
        src.git(&["commit", "-qm", &format!("Add {name}")]);
    }
    src.write("app.py", text.replacen("return x", "return x.strip()", 1));
    src.git(&["commit", "-qam", "Make load_config strip whitespace"]);
    // The three newest commits: "Add parse_args" is the boundary, which git reads as if
    // it added the whole file.
    let dst = Scratch::empty();
    let url = format!("file://{}", src.path().display());
    crate::util::git_in(dst.path(), &["clone", "-q", "--depth", "3", &url, "repo"]);
    let repo = dst.path().join("repo");
    let out = crate::util::llmc_in(&repo, &["index", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));

    // Added inside the clone's history: the introduction, as in a full clone.
    let (text, label, fact) = ask_history(&repo, "when was print_help introduced?");
    assert!(
        text.starts_with("`print_help` was introduced in ") && text.contains("Add print_help"),
        "{text}"
    );
    assert_eq!(label, "High", "{text}");
    assert!(fact["partial"].is_null(), "{fact}");

    // Older than the boundary, changed after it: its oldest commit held, not its
    // introduction.
    let (text, label, fact) = ask_history(&repo, "when was load_config introduced?");
    assert!(
        text.starts_with("`load_config`'s oldest commit in the history read so far is ")
            && text.contains("Make load_config strip whitespace")
            && text.contains("shallow clone: the history stops at ")
            && text.contains("the commit that introduced it may be older"),
        "{text}"
    );
    assert_eq!(label, "Low", "{text}");
    assert!(
        fact["partial"]
            .as_str()
            .unwrap_or("")
            .contains("git fetch --unshallow"),
        "{fact}"
    );

    // `llmc log` lists the commits held and says on stderr where they stop.
    let out = crate::util::llmc_in(&repo, &["log", "--reverse", "load_config"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("llmc: shallow clone: the history stops at "),
        "{}",
        stderr(&out)
    );

    // Untouched since before the boundary: git's pickaxe names the boundary, which only
    // holds it.
    for name in ["save_config", "parse_args"] {
        let (text, label, _) = ask_history(&repo, &format!("when was {name} added?"));
        assert!(!text.contains("was introduced in"), "{text}");
        assert!(text.contains("may be older"), "{text}");
        assert_eq!(label, "Low", "{text}");
    }
}

#[test]
fn a_rare_word_the_code_writes_is_the_subject_not_a_folder_another_word_names() {
    let s = Scratch::empty();
    s.git(&["init", "-q"]);
    s.write(
        "tests/support/helpers.py",
        "def make_client():\n    return object()\n",
    );
    s.write("app.py", "def main(data):\n    return data\n");
    s.git(&["add", "."]);
    s.git(&["commit", "-qm", "Start the app and its test helpers"]);
    s.write(
        "app.py",
        "import zstandard\n\n\ndef main(data):\n    return zstandard.compress(data)\n",
    );
    s.git(&["commit", "-qam", "Compress responses"]);
    s.write(
        "tests/support/helpers.py",
        "def make_client(name=None):\n    return object()\n",
    );
    s.git(&["commit", "-qam", "Name test clients"]);
    let out = crate::util::llmc_in(s.path(), &["index", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));

    // "support" names the folder of test helpers; "zstandard" names no file or
    // definition but is written in the code: the commit that wrote it.
    let (text, _, fact) = ask_history(s.path(), "when was zstandard support introduced?");
    assert!(
        text.starts_with("`zstandard` was introduced in ") && text.contains("Compress responses"),
        "{text}"
    );
    assert_eq!(fact["pickaxe"], true, "{fact}");

    // A file the words name that holds the rare word still stands for the subject.
    let (text, _, fact) = ask_history(s.path(), "when was the zstandard app added?");
    assert_eq!(fact["target"], "app.py", "{text}");
}

#[test]
fn a_feature_is_introduced_where_its_code_came_not_where_its_tests_or_a_word_did() {
    let s = Scratch::empty();
    s.git(&["init", "-q"]);
    s.write(
        "tests/support/helpers.py",
        "def make_client():\n    return object()\n",
    );
    s.write("client.py", "def get(url):\n    return url\n");
    s.git(&["add", "."]);
    s.git(&["commit", "-qm", "Start the client and its test helpers"]);
    s.write(
        "client.py",
        "HTTP3_ENABLED = False\n\n\ndef get(url):\n    return url\n",
    );
    s.git(&["commit", "-qam", "Experimental protocol switch"]);
    s.write("cache.py", "def lookup(key):\n    return None\n");
    s.git(&["add", "."]);
    s.git(&["commit", "-qm", "Keep responses"]);
    s.write(
        "cache.py",
        "def lookup(key, max_age=None):\n    return None\n",
    );
    s.git(&["commit", "-qam", "Support cache expiry"]);
    // The protocol's tests come later, with a helper named as the protocol is.
    s.write(
        "tests/test_http3.py",
        "class Http3Server:\n    pass\n\n\ndef test_get():\n    assert Http3Server()\n",
    );
    s.write(
        "tests/support/helpers.py",
        "def make_client(http3=False):\n    return object()\n",
    );
    s.git(&["add", "."]);
    s.git(&["commit", "-qm", "Test http3 and support it in the helpers"]);
    let out = crate::util::llmc_in(s.path(), &["index", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));

    // "HTTP/3" is no path, "support" no subject, the test file and its helper no
    // stand-in: the commit that first wrote the protocol's name, in any case.
    let (text, _, fact) = ask_history(s.path(), "when was HTTP/3 support added?");
    assert!(text.contains("Experimental protocol switch"), "{text}");
    assert_eq!(fact["pickaxe"], true, "{fact}");

    // "support" is no word its messages must hold: the cache's first commit.
    let (text, _, fact) = ask_history(s.path(), "when was cache support added?");
    assert_eq!(fact["target"], "cache.py", "{text}");
    assert!(text.contains("Keep responses"), "{text}");
}

#[test]
fn a_removal_is_the_commit_whose_message_says_so() {
    let s = Scratch::empty();
    s.git(&["init", "-q"]);
    s.write(
        "codegen.py",
        "def generator(rows):\n    return [r for r in rows]\n",
    );
    s.write("config.py", "USE_KAPT = True\nDEBUG = False\n");
    s.git(&["add", "."]);
    s.git(&["commit", "-qm", "Add the code generator"]);
    s.write(
        "codegen.py",
        "def generator(rows, custom=None):\n    return [r for r in rows]\n",
    );
    s.git(&[
        "commit",
        "-qam",
        "Allow custom generators",
        "-m",
        "They work with kapt too.",
    ]);
    s.write("config.py", "DEBUG = False\n");
    s.git(&["commit", "-qam", "Remove KAPT support"]);
    s.write(
        "codegen.py",
        "def generator(rows, custom=None):\n    return list(rows)\n",
    );
    s.git(&["commit", "-qam", "Speed up the generator"]);
    let out = crate::util::llmc_in(s.path(), &["index", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));

    // `generator` names a definition, never removed; "kapt" is in no code now. The
    // commit whose message says the removal, not the newest change to `generator`, nor
    // the one whose message only mentions both words.
    let (text, _, fact) = ask_history(s.path(), "when was the kapt code generator removed?");
    let first = fact["commits"][0]["subject"].as_str().unwrap_or("");
    assert_eq!(first, "Remove KAPT support", "{text}");
}

#[test]
fn no_repository_or_an_empty_one_means_no_history_not_an_error() {
    let plain = Scratch::fixture("python");
    let out = plain.llmc(&["index"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no history (not a git repository)"),
        "{}",
        stderr(&out)
    );
    let out = plain.llmc(&["log", "anything"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("not a git repository"),
        "{}",
        stderr(&out)
    );

    let empty = Scratch::git_fixture("python");
    let out = empty.llmc(&["index"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("no commits yet"), "{}", stderr(&out));

    // The first commit arrives: the next index ingests it.
    empty.git(&["add", "-A"]);
    empty.git(&["commit", "-q", "-m", "First"]);
    let out = empty.llmc(&["index", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(v["history"]["new_commits"], 1);
    assert!(v["history"]["note"].is_null());
}

/// git run in `dir` as the author and committer Eve.
fn git_as_eve(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "Eve")
        .env("GIT_AUTHOR_EMAIL", "eve@example.com")
        .env("GIT_COMMITTER_NAME", "Eve")
        .env("GIT_COMMITTER_EMAIL", "eve@example.com")
        .output()
        .expect("git")
}

#[test]
fn a_lost_blob_keeps_the_history_it_had_and_reads_the_new_commits_without_definitions() {
    let repo = fixture_history();
    let dir = repo_dir(&repo);
    let out = crate::util::llmc_in(&dir, &["index", "--rebuild", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(v["history"]["new_commits"], 14);

    // A new commit whose blob is then lost: git log cannot diff it, so the new commits
    // are read as a partial clone's are (commits and files, not definitions).
    std::fs::write(dir.join("calc/arith.py"), "def add(a, b):\n    return 0\n").expect("write");
    let git = |args: &[&str]| git_as_eve(&dir, args);
    assert!(git(&["commit", "-q", "-am", "Break"]).status.success());
    let blob = String::from_utf8_lossy(&git(&["rev-parse", "HEAD:calc/arith.py"]).stdout)
        .trim()
        .to_string();
    std::fs::remove_file(dir.join(".git/objects").join(&blob[..2]).join(&blob[2..]))
        .expect("remove the loose blob");
    let out = crate::util::llmc_in(&dir, &["index", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert!(v["history"]["error"].is_null(), "{v}");
    assert_eq!(v["history"]["partial"], true, "{v}");
    assert_eq!(
        v["history"]["commits"], 15,
        "the old history is kept, the new read"
    );
    assert_eq!(rows(&repo, &["add"]).len(), 4, "what `add` was is kept");
    let out = crate::util::llmc_in(&dir, &["log", "calc/arith.py", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(v["commits"][0]["author"], "Eve", "{v}");
}

#[test]
fn a_lost_version_of_a_text_file_keeps_the_definitions_each_commit_touched() {
    let repo = fixture_history();
    let dir = repo_dir(&repo);
    // A commit that changes code and adds a text file whose blob is then lost: git log
    // cannot diff that file, but the code's versions are all there.
    std::fs::write(dir.join("calc/arith.py"), "def add(a, b):\n    return 0\n").expect("write");
    std::fs::write(dir.join("notes.txt"), "a note\n").expect("write");
    let git = |args: &[&str]| git_as_eve(&dir, args);
    assert!(git(&["add", "-A"]).status.success());
    assert!(
        git(&["commit", "-q", "-m", "Zero add, with a note"])
            .status
            .success()
    );
    let blob = String::from_utf8_lossy(&git(&["rev-parse", "HEAD:notes.txt"]).stdout)
        .trim()
        .to_string();
    std::fs::remove_file(dir.join(".git/objects").join(&blob[..2]).join(&blob[2..]))
        .expect("remove the loose blob");
    let out = crate::util::llmc_in(&dir, &["index", "--rebuild", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert!(v["history"]["error"].is_null(), "{v}");
    assert_eq!(v["history"]["partial"], false, "{v}");
    assert_eq!(v["history"]["commits"], 15, "{v}");
    // Every commit's definitions are read, the new one's and the oldest's.
    let add = rows(&repo, &["add"]);
    assert!(
        add.first().is_some_and(
            |r| r.ends_with("Eve | Zero add, with a note | calc/arith.py:add modified +1 -2")
        ),
        "{add:?}"
    );
    assert_eq!(add.len(), 5, "{add:?}");
    assert!(
        add.last()
            .is_some_and(|r| r.contains("Alice | Add calculator and helpers")),
        "{add:?}"
    );
    // The text file is listed, with no line counts (as a binary file's).
    let files = rows(&repo, &["notes.txt"]);
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(files[0].contains("A notes.txt +null -null"), "{files:?}");
}

/// The history's rows: every commit's files and touched definitions, in a stable order.
fn history_rows(store: &llmc::store::Store) -> Vec<String> {
    store
        .read(|c| {
            let mut stmt = c.prepare(
                "SELECT k.hash, s.path, s.qualname, s.kind, s.change, s.added, s.removed,
                        s.start_line, s.end_line, s.hunks
                 FROM commit_symbols s JOIN commits k ON k.id = s.commit_id
                 ORDER BY k.hash, s.path, s.qualname, s.start_line",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok((0..10)
                    .map(|i| {
                        r.get::<_, rusqlite::types::Value>(i)
                            .map(|v| format!("{v:?}"))
                            .unwrap_or_default()
                    })
                    .collect::<Vec<_>>()
                    .join("\t"))
            })?;
            rows.collect()
        })
        .expect("history rows")
}

#[test]
fn history_reuses_the_index_runs_parse_and_reads_the_same_definitions() {
    let s = fixture_history();
    let root = repo_dir(&s);
    // The fixture's cold index took the definitions of the file versions it had just
    // parsed (HEAD's) from that parse.
    let cold = llmc::index::run(
        &root,
        &llmc::config::IndexConfig::default(),
        &llmc::index::IndexOptions {
            rebuild: true,
            ..Default::default()
        },
        &llmc::progress::NoProgress,
    )
    .expect("index");
    assert!(cold.history.reused_parses > 0, "{:?}", cold.history);
    let seeded = history_rows(&llmc::store::Store::open_existing(&root).expect("store"));
    assert!(!seeded.is_empty());
    // The same history read again with nothing to reuse parses every version itself: the
    // rows are identical.
    let mut store = llmc::store::Store::open_for_write(&root, false).expect("store");
    let stats = llmc::history::ingest(
        &root,
        &mut store,
        llmc::history::IngestOptions {
            rebuild: true,
            ..Default::default()
        },
        &llmc::history::Seed::default(),
        &llmc::progress::NoProgress,
        &|| false,
    )
    .expect("ingest");
    assert_eq!(stats.reused_parses, 0);
    assert!(stats.error.is_none(), "{stats:?}");
    let parsed = history_rows(&llmc::store::Store::open_existing(&root).expect("store"));
    assert_eq!(seeded, parsed);
}

#[test]
fn a_long_history_says_what_it_costs_and_how_to_skip_it() {
    let s = Scratch::empty();
    s.git(&["init", "-q"]);
    // 1,000 commits of one file, written by fast-import in one go.
    let mut stream = String::new();
    for i in 1..=1000 {
        let body = format!("def f():\n    return {i}\n");
        stream.push_str(&format!(
            "commit refs/heads/main\ncommitter T <t@e> {} +0000\ndata 2\nc\n",
            1_600_000_000 + i
        ));
        stream.push_str(&format!("M 644 inline a.py\ndata {}\n{body}\n", body.len()));
    }
    let mut child = Command::new("git")
        .args(["fast-import", "--quiet"])
        .current_dir(s.path())
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("git fast-import");
    {
        use std::io::Write as _;
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(stream.as_bytes())
            .expect("stream");
    }
    assert!(child.wait().expect("fast-import").success());
    s.git(&["checkout", "-q", "main"]);
    let out = s.llmc(&["index"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("reading 1000 commits of history") && err.contains("index.history = false"),
        "{err}"
    );
    // Quiet means quiet; a short history says nothing.
    let quiet = s.llmc(&["index", "--rebuild", "-q"]);
    assert!(!stderr(&quiet).contains("commits of history"));
    let short = fixture_history();
    let out = crate::util::llmc_in(&repo_dir(&short), &["index", "--rebuild"]);
    assert!(
        !stderr(&out).contains("commits of history"),
        "{}",
        stderr(&out)
    );
}

/// `git log --numstat -M` as `commit path +added -removed` rows (`-` for a binary file),
/// a rename under its new path.
fn numstat_rows(dir: &std::path::Path) -> Vec<String> {
    let out = Command::new("git")
        .args(["log", "--numstat", "-M", "--format=@%H"])
        .current_dir(dir)
        .output()
        .expect("git log");
    let mut rows = Vec::new();
    let mut commit = String::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        if let Some(h) = line.strip_prefix('@') {
            commit = h.to_string();
            continue;
        }
        let mut f = line.splitn(3, '\t');
        let (Some(a), Some(r), Some(path)) = (f.next(), f.next(), f.next()) else {
            continue;
        };
        // `old => new`, or `dir/{old => new}/rest`.
        let path = match (path.find('{'), path.find('}')) {
            (Some(o), Some(c)) => {
                let inner = &path[o + 1..c];
                let new = inner.split(" => ").nth(1).unwrap_or(inner);
                format!("{}{new}{}", &path[..o], &path[c + 1..]).replace("//", "/")
            }
            _ => path.rsplit(" => ").next().unwrap_or(path).to_string(),
        };
        rows.push(format!("{commit} {path} +{a} -{r}"));
    }
    rows.sort();
    rows
}

#[test]
fn a_code_files_line_counts_and_touched_definitions_are_those_git_diffs_give() {
    // History diffs the versions of code files itself (git log shows them as binary):
    // each commit's counts must be git's own, whatever the edit.
    let s = Scratch::empty();
    s.git(&["init", "-q"]);
    let body = |name: &str, n: usize| {
        let mut t = format!("def {name}(x):\n");
        for i in 0..n {
            t.push_str(&format!("    x = x + {i}\n"));
        }
        t.push_str("    return x\n");
        t
    };
    let funcs = |names: &[(&str, usize)]| {
        let parts: Vec<String> = names.iter().map(|(n, k)| body(n, *k)).collect();
        parts.join("\n\n")
    };
    s.write(
        "app.py",
        funcs(&[("alpha", 3), ("beta", 12), ("gamma", 2), ("delta", 20)]),
    );
    s.write("notes.txt", "one\ntwo\n");
    s.write(
        "win.py",
        "def w():\r\n    return 1\r\n\r\ndef v():\r\n    return 2\r\n",
    );
    s.git(&["add", "-A"]);
    s.git(&["commit", "-qm", "start"]);
    // A body changed, a function added between two (its blank lines can slide), the
    // file's last newline dropped; a CRLF file edited; a text file edited.
    let mut app = funcs(&[
        ("alpha", 3),
        ("beta", 12),
        ("between", 1),
        ("gamma", 2),
        ("delta", 20),
    ])
    .replace("    x = x + 7\n", "    x = x * 7\n");
    app.pop();
    s.write("app.py", app);
    s.write(
        "win.py",
        "def w():\r\n    return 10\r\n\r\ndef v():\r\n    return 2\r\n",
    );
    s.write("notes.txt", "one\nthree\n");
    s.git(&["add", "-A"]);
    s.git(&["commit", "-qm", "edit"]);
    // A rename with an edit, and a code file that is binary.
    s.git(&["mv", "app.py", "core.py"]);
    let core = std::fs::read_to_string(s.path().join("core.py")).expect("read");
    s.write(
        "core.py",
        core.replace("    x = x + 1\n", "    x = x - 1\n"),
    );
    s.write("blob.py", b"\x00\x01binary\n".as_slice());
    s.git(&["add", "-A"]);
    s.git(&["commit", "-qm", "move"]);
    // A code file turned into a link, and one deleted.
    std::fs::remove_file(s.path().join("win.py")).expect("rm");
    std::os::unix::fs::symlink("core.py", s.path().join("win.py")).expect("symlink");
    std::fs::remove_file(s.path().join("blob.py")).expect("rm");
    s.git(&["add", "-A"]);
    s.git(&["commit", "-qm", "link"]);
    s.index();

    let held: Vec<String> = {
        let mut rows = s
            .store()
            .read(|c| {
                let mut stmt = c.prepare(
                    "SELECT k.hash || ' ' || f.path || ' +' || coalesce(f.added, '-')
                            || ' -' || coalesce(f.removed, '-')
                     FROM commit_files f JOIN commits k ON k.id = f.commit_id",
                )?;
                let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
                rows.collect::<rusqlite::Result<Vec<String>>>()
            })
            .expect("rows");
        rows.sort();
        rows
    };
    let git = numstat_rows(s.path());
    assert_eq!(held, git);
    assert_eq!(held.len(), 10, "{held:?}");

    // Only what the edit changed is touched: the new function and the two changed
    // bodies (the last also lost its final newline), not the neighbours of the insertion.
    let touched = rows_of_commit(&s, "edit");
    assert_eq!(
        touched,
        [
            "app.py beta modified +1 -1",
            "app.py between added +3 -0",
            "app.py delta modified +2 -2",
            "win.py w modified +1 -1",
        ]
    );
}

/// The definitions a commit (by subject) touched: `path name change +added -removed`.
fn rows_of_commit(s: &Scratch, subject: &str) -> Vec<String> {
    let mut rows = s
        .store()
        .read(|c| {
            let mut stmt = c.prepare(
                "SELECT s.path || ' ' || s.qualname || ' ' || s.change || ' +' || s.added
                        || ' -' || s.removed
                 FROM commit_symbols s JOIN commits k ON k.id = s.commit_id
                 WHERE k.subject = ?1",
            )?;
            let rows = stmt.query_map([subject], |r| r.get::<_, String>(0))?;
            rows.collect::<rusqlite::Result<Vec<String>>>()
        })
        .expect("rows");
    rows.sort();
    rows
}

//! The binary as a user meets it: root discovery, output streams, JSON, exit codes.

use crate::util::{Scratch, llmc_in, stderr, stdout};

#[test]
fn index_then_status_from_a_subdirectory_of_a_git_repository() {
    let repo = Scratch::git_fixture("java");
    let sub = repo.path().join("src");
    let sub = if sub.is_dir() {
        sub
    } else {
        repo.path().to_path_buf()
    };
    let out = llmc_in(&sub, &["index"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).is_empty(),
        "index prints its summary on stderr, not stdout"
    );
    assert!(stderr(&out).contains("symbols"), "{}", stderr(&out));
    assert!(
        repo.path().join(".llmc/index.db").is_file(),
        "the store sits at the root"
    );

    let out = llmc_in(&sub, &["status"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("generation   1"), "{text}");
    assert!(text.contains("java"), "{text}");
    assert!(text.contains("changed      none"), "{text}");

    let exclude = std::fs::read_to_string(repo.path().join(".git/info/exclude")).expect("exclude");
    assert!(exclude.contains("/.llmc/"), "{exclude}");
    // Running again does not add a second line.
    assert!(llmc_in(&sub, &["index", "-q"]).status.success());
    let again = std::fs::read_to_string(repo.path().join(".git/info/exclude")).expect("exclude");
    assert_eq!(again.matches(".llmc").count(), 1);
    // The store does not show up as untracked: git ignores it.
    let git = std::process::Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=all"])
        .current_dir(repo.path())
        .output()
        .expect("git");
    let porcelain = String::from_utf8_lossy(&git.stdout);
    assert!(!porcelain.contains(".llmc"), "{porcelain}");
}

#[test]
fn a_directory_outside_any_repository_is_indexed_as_it_is() {
    let dir = Scratch::fixture("javascript");
    let out = dir.llmc(&["index", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json on stdout");
    assert!(v["files"].as_u64().expect("files") > 0);
    assert!(v["symbols"].as_u64().expect("symbols") > 0);
    assert_eq!(v["generation"], 1);
    assert!(v["schema_version"].is_number());
    assert!(
        !dir.path().join(".git").exists(),
        "no git directory is created"
    );
}

#[test]
fn status_json_reports_languages_skips_and_changes() {
    let repo = Scratch::git_fixture("typescript");
    repo.write(".env.production", "SECRET=1\n");
    repo.write("keys/server.key", "k\n");
    assert!(repo.llmc(&["index", "-q"]).status.success());
    repo.write(
        "src/new_file.ts",
        "export function fresh(): number { return 1; }\n",
    );
    let first_ts = std::fs::read_dir(repo.path().join("src"))
        .expect("src")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "ts") && !p.ends_with("new_file.ts"))
        .expect("a ts file");
    let mut text = std::fs::read_to_string(&first_ts).expect("read");
    text.push_str("\n// edited\n");
    std::fs::write(&first_ts, text).expect("write");

    let out = repo.llmc(&["status", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(v["generation"], 1);
    assert!(v["indexed_at"].as_str().expect("indexed_at").ends_with('Z'));
    assert!(
        v["files"]["by_language"]["typescript"]
            .as_u64()
            .expect("ts files")
            >= 3
    );
    assert!(
        v["definitions"]["by_language"]["typescript"]
            .as_u64()
            .expect("ts defs")
            > 10
    );
    assert!(v["chunks"].as_u64().expect("chunks") > 10);
    assert_eq!(
        v["skipped"]["secret"], 1,
        "only keys/server.key: .env* is also hidden"
    );
    assert_eq!(
        v["changed"]["added"],
        serde_json::json!(["src/new_file.ts"])
    );
    assert_eq!(
        v["changed"]["modified"].as_array().expect("modified").len(),
        1
    );
    assert!(v["size_bytes"].as_u64().expect("size") > 0);
    assert!(v["root"].as_str().expect("root").len() > 1);
}

#[test]
fn configuration_errors_name_the_key_and_exit_2() {
    let repo = Scratch::fixture("c");
    repo.write("llmc.toml", "[index]\nmax_file_sise = 10\n");
    let out = repo.llmc(&["index"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("`index.max_file_sise`"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("llmc.toml"), "{}", stderr(&out));

    let out = repo.llmc(&["index", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json error");
    assert_eq!(v["error"]["kind"], "config");

    repo.write("llmc.toml", "[index]\nmax_file_size = 10\n");
    let out = repo.llmc(&["index", "--config", "index.nope=1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("`index.nope`"), "{}", stderr(&out));
    assert!(
        !repo.path().join(".llmc").exists(),
        "a bad configuration writes nothing"
    );

    let out = repo.llmc(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn configuration_layers_reach_the_index() {
    let repo = Scratch::fixture("c");
    repo.write("big.txt", "y\n".repeat(5000));
    // llmc.toml says 1000 bytes: big.txt is skipped.
    repo.write("llmc.toml", "[index]\nmax_file_size = 1000\n");
    let v = index_json(&repo, &[], &[]);
    assert!(v["skipped"]["too_large"].as_u64().expect("too_large") >= 1);
    // The environment raises it: nothing is too large.
    let v = index_json(&repo, &[("LLMC_INDEX_MAX_FILE_SIZE", "1000000")], &[]);
    assert!(v["skipped"].get("too_large").is_none(), "{v}");
    // A flag beats the environment.
    let v = index_json(
        &repo,
        &[("LLMC_INDEX_MAX_FILE_SIZE", "1000000")],
        &["--config", "index.max_file_size=1000"],
    );
    assert!(v["skipped"]["too_large"].as_u64().expect("too_large") >= 1);
}

fn index_json(repo: &Scratch, env: &[(&str, &str)], args: &[&str]) -> serde_json::Value {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_llmc"));
    cmd.arg("index")
        .arg("--json")
        .args(args)
        .current_dir(repo.path());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("llmc");
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).expect("json")
}

#[test]
fn a_closed_stdout_pipe_is_a_quiet_success() {
    let repo = Scratch::fixture("go");
    assert!(repo.llmc(&["index", "-q"]).status.success());
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_llmc"))
        .args(["status"])
        .current_dir(repo.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
}

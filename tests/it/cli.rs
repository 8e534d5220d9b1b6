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
    assert!(v["indexed_at_unix"].as_i64().expect("indexed_at_unix") > 1_700_000_000);
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

/// A build's output, a copy of sources the repository keeps elsewhere, is skipped and
/// counted: axios commits `dist/` bundles of `lib/` (each ending with a
/// `sourceMappingURL` comment), their source maps and minified copies, and every answer
/// cited them; the callers of `mergeConfig` listed each call four times. Their history
/// holds no definition either. `index.include_generated = true` indexes them.
#[test]
fn a_builds_output_is_skipped_and_counted() {
    let repo = Scratch::empty();
    repo.write(
        "lib/merge.js",
        "export function merge(a, b) {\n  return Object.assign({}, a, b);\n}\n",
    );
    repo.write(
        "lib/app.js",
        "import { merge } from './merge.js';\n\nexport function make(config) {\n  return merge({ timeout: 0 }, config);\n}\n",
    );
    let bundle = "function merge(a, b) {\n  return Object.assign({}, a, b);\n}\n\nfunction make(config) {\n  return merge({ timeout: 0 }, config);\n}\n\nmodule.exports = make;\n//# sourceMappingURL=app.js.map\n";
    repo.write("dist/app.js", bundle);
    repo.write(
        "dist/app.min.js",
        "function merge(a,b){return Object.assign({},a,b)}\n",
    );
    repo.write(
        "dist/app.js.map",
        "{\"version\":3,\"sources\":[\"../lib/merge.js\"],\"sourcesContent\":[\"export function merge(a, b) {}\"]}\n",
    );
    repo.git(&["init", "-q"]);
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "lib and its build"]);
    let callers = |repo: &Scratch| -> Vec<String> {
        let out = repo.llmc(&["graph", "callers", "merge", "--json"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
        v["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|r| format!("{}:{}", r["path"].as_str().unwrap_or(""), r["line"]))
            .collect()
    };
    let v = index_json(&repo, &[], &[]);
    assert_eq!(v["skipped"]["generated"], 3, "{v}");
    assert_eq!(callers(&repo), ["lib/app.js:4"]);
    // The history read the commit's definitions of lib/ alone.
    let out = repo.llmc(&["log", "merge", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let log = stdout(&out);
    assert!(log.contains("lib/merge.js"), "{log}");
    assert!(!log.contains("dist/"), "{log}");
    // Asked for, they are indexed.
    let v = index_json(&repo, &[], &["--config", "index.include_generated=true"]);
    assert!(v["skipped"].get("generated").is_none(), "{v}");
    assert_eq!(callers(&repo), ["dist/app.js:6", "lib/app.js:4"]);
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

/// A repository whose `llmc log`, `llmc graph callers target` and `llmc search target`
/// each print far more than a pipe holds (64 KiB on Linux), so a reader that stops early
/// leaves llmc writing into a closed pipe.
fn chatty_repo() -> Scratch {
    let repo = Scratch::empty();
    repo.git(&["init", "-q"]);
    repo.git(&["symbolic-ref", "HEAD", "refs/heads/main"]);
    let mut py = String::from("def target():\n    return 0\n\n");
    for i in 0..5000 {
        py.push_str(&format!(
            "def caller_{i}():\n    \"\"\"Calls target, number {i}.\"\"\"\n    return target()\n\n"
        ));
    }
    repo.write("many.py", py);
    // 1,200 commits through fast-import (each continues the branch): seconds with git
    // commit, milliseconds this way.
    let mut stream = String::new();
    for i in 0..1200 {
        let msg = format!(
            "change {i}: a subject long enough to make every row of the log take some room"
        );
        let body = format!("line {i}\n");
        stream.push_str(&format!(
            "commit refs/heads/main\nauthor Test <test@example.com> {} +0000\ncommitter Test <test@example.com> {} +0000\ndata {}\n{msg}\n",
            1_600_000_000 + i * 60,
            1_600_000_000 + i * 60,
            msg.len() + 1
        ));
        stream.push_str(&format!(
            "M 100644 inline notes/{}.txt\ndata {}\n{body}\n",
            i % 7,
            body.len()
        ));
    }
    let mut child = std::process::Command::new("git")
        .args(["fast-import", "--quiet"])
        .current_dir(repo.path())
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("git fast-import");
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(stream.as_bytes())
            .expect("feed fast-import");
    }
    assert!(child.wait().expect("fast-import").success());
    repo.git(&["reset", "-q", "--hard", "main"]);
    let out = repo.llmc(&["index", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
    repo
}

/// Runs llmc with stdout into a pipe, reads one line, closes the pipe and waits.
fn read_one_line_then_close(repo: &Scratch, args: &[&str]) -> (String, std::process::Output) {
    use std::io::BufRead as _;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_llmc"))
        .args(args)
        .current_dir(repo.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut first = String::new();
    {
        let mut reader = std::io::BufReader::new(child.stdout.take().expect("stdout"));
        reader.read_line(&mut first).expect("first line");
    }
    (first, child.wait_with_output().expect("wait"))
}

#[test]
fn a_reader_that_stops_after_one_line_is_a_quiet_success() {
    let repo = chatty_repo();
    for args in [
        &["log"][..],
        &["graph", "callers", "target", "--limit", "100000"],
        &["search", "target", "--mode", "lexical", "-k", "3000"],
        &["--color", "always", "log"],
    ] {
        // The whole answer is much larger than a pipe: the early close is felt.
        let full = repo.llmc(args);
        assert!(full.status.success(), "{args:?}: {}", stderr(&full));
        assert!(
            full.stdout.len() > 128 * 1024,
            "{args:?} prints only {} bytes",
            full.stdout.len()
        );
        let (first, out) = read_one_line_then_close(&repo, args);
        assert!(!first.is_empty(), "{args:?}: no first line");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).is_empty(), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn colour_only_where_asked_and_never_in_json() {
    let repo = Scratch::git_fixture("python");
    repo.git(&["add", "."]);
    repo.git(&["commit", "-q", "-m", "init"]);
    assert!(repo.llmc(&["index", "-q"]).status.success());
    let esc = |o: &std::process::Output| o.stdout.contains(&0x1b) || o.stderr.contains(&0x1b);
    for args in [
        &["status"][..],
        &["log"],
        &["search", "shelf"],
        &["graph", "defs", "describe"],
    ] {
        // Under auto, a pipe gets no colour.
        let out = repo.llmc(args);
        assert!(out.status.code().is_some_and(|c| c < 2), "{}", stderr(&out));
        assert!(!esc(&out), "{args:?}: colour into a pipe");
        let always = [&["--color", "always"][..], args].concat();
        let out = repo.llmc(&always);
        assert!(
            stdout(&out).contains("\x1b["),
            "{args:?}: --color always has no colour: {}",
            stdout(&out)
        );
        let never = [&["--color", "never"][..], args].concat();
        assert!(!esc(&repo.llmc(&never)), "{args:?}: colour under never");
        let json = [&["--color", "always"][..], args, &["--json"]].concat();
        let out = repo.llmc(&json);
        assert!(!esc(&out), "{args:?}: colour in JSON");
        serde_json::from_str::<serde_json::Value>(&stdout(&out)).expect("JSON parses");
    }
    // Colour is only decoration: without it the text is the same.
    let plain = stdout(&repo.llmc(&["status"]));
    let coloured = stdout(&repo.llmc(&["--color", "always", "status"]));
    assert_eq!(strip_ansi(&coloured), plain);
    // An error's JSON is never coloured either.
    let out = repo.llmc(&["--color", "always", "log", "--since", "someday", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!esc(&out), "{}", stdout(&out));
}

fn strip_ansi(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn verbose_says_where_the_configuration_came_from_and_where_the_time_went() {
    let repo = Scratch::fixture("go");
    repo.write("llmc.toml", "[search]\nk = 3\n");
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_llmc"));
    let out = cmd
        .args(["index", "-v", "--config", "index.threads=1"])
        .env("LLMC_INDEX_WINDOW_LINES", "40")
        .current_dir(repo.path())
        .output()
        .expect("llmc");
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("llmc.toml (search.k)"), "{err}");
    assert!(
        err.contains("environment LLMC_INDEX_WINDOW_LINES (index.window_lines)"),
        "{err}"
    );
    assert!(err.contains("--config index.threads=1"), "{err}");
    assert!(err.contains("index timings: files "), "{err}");
    assert!(err.contains("history "), "{err}");
    // Without -v none of it.
    let out = repo.llmc(&["index"]);
    assert!(!stderr(&out).contains("timings"), "{}", stderr(&out));
    // -q and -v contradict each other.
    let out = repo.llmc(&["-q", "-v", "status"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--verbose"), "{}", stderr(&out));
}

#[test]
fn flag_value_errors_name_the_flag_and_say_what_to_write() {
    let repo = Scratch::git_fixture("rust");
    repo.git(&["add", "."]);
    repo.git(&["commit", "-q", "-m", "init"]);
    assert!(repo.llmc(&["index", "-q"]).status.success());
    let cases: [(&[&str], &[&str]); 6] = [
        (
            &["-C", "no/such/dir", "status"],
            &["-C no/such/dir", "no such directory"],
        ),
        (&["-C", "Cargo.toml", "status"], &["not a directory"]),
        (
            &["search", "x", "--path", "src/[a"],
            &["--path \"src/[a\"", "not a valid glob", "src/**/*.rs"],
        ),
        (
            &["log", "--since", "blursday"],
            &["--since \"blursday\"", "2024-03-01"],
        ),
        (
            &["search", "x", "-k", "0"],
            &["--k", "0 is not in 1..=10000"],
        ),
        (
            &["--color", "sometimes", "status"],
            &["--color", "auto, always, never"],
        ),
    ];
    for (args, needles) in cases {
        if !repo.path().join("Cargo.toml").exists() && args.contains(&"Cargo.toml") {
            repo.write("Cargo.toml", "[package]\n");
        }
        let out = repo.llmc(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        for n in needles {
            assert!(
                stderr(&out).contains(n),
                "{args:?}: no {n:?} in {}",
                stderr(&out)
            );
        }
    }
    let out = repo.llmc(&["-C", "no/such/dir", "status", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json error");
    assert_eq!(v["error"]["kind"], "usage");
    // A language nothing is in is named, with those that are.
    let out = repo.llmc(&["search", "stack", "--lang", "rsut"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("--lang rsut: no indexed file is in that language"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("rust"), "{}", stderr(&out));
}

#[test]
fn configuration_file_errors_say_where_and_what_to_do() {
    let repo = Scratch::fixture("c");
    for (toml, needles) in [
        (
            "[index]\nthreads = 2\nmax_file_size = = 3\n",
            &["llmc.toml:3:", "not valid TOML", "`llmc config example`"][..],
        ),
        (
            "[index]\nmax_filesize = 10\n",
            &[
                "`index.max_filesize`",
                "did you mean `index.max_file_size`?",
            ],
        ),
        ("threads = 2\n", &["outside any section", "[index]"]),
        (
            "[search]\nmode = \"fuzzy\"\n",
            &["`search.mode`", "lexical, semantic or hybrid"],
        ),
    ] {
        repo.write("llmc.toml", toml);
        let args: &[&str] = if toml.contains("fuzzy") {
            &["search", "x"]
        } else {
            &["status"]
        };
        if toml.contains("fuzzy") {
            std::fs::remove_file(repo.path().join("llmc.toml")).expect("rm");
            assert!(repo.llmc(&["index", "-q"]).status.success());
            repo.write("llmc.toml", toml);
        }
        let out = repo.llmc(args);
        assert_eq!(out.status.code(), Some(2), "{toml}: {}", stderr(&out));
        for n in needles {
            assert!(
                stderr(&out).contains(n),
                "{toml}: no {n:?} in {}",
                stderr(&out)
            );
        }
    }
}

#[test]
fn every_reader_without_an_index_exits_3_and_says_to_index() {
    let repo = Scratch::fixture("go");
    for args in [
        &["status"][..],
        &["log"],
        &["search", "x"],
        &["graph", "callers", "x"],
    ] {
        let out = repo.llmc(args);
        assert_eq!(out.status.code(), Some(3), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("run `llmc index` first"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(stderr(&out).contains(&repo.path().display().to_string()));
    }
}

//! What an adversarial test battery found (issue [hardening]), one test or more per
//! finding: nothing leaves the machine, one file never breaks the index, a reader never
//! sees two generations, and bad input of every kind gets a clear answer.

use std::process::Command;

use crate::fake_ollama::{FakeOllama, Sink};
use crate::util::{Scratch, stderr};

const MODEL: &str = "fake-embed";

/// The built binary in `dir` with a clean `LLMC_*` environment plus `env`.
fn llmc_env(dir: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_llmc"));
    cmd.args(args).current_dir(dir);
    for (k, _) in std::env::vars() {
        if k.starts_with("LLMC_") || k.to_ascii_lowercase().ends_with("_proxy") {
            cmd.env_remove(k);
        }
    }
    cmd.envs(env.iter().copied());
    cmd.output().expect("llmc runs")
}

// 1a. A loopback server answering `307` to another host is never followed: not by the
// embedder during an index, not by the chat model during an ask.
#[test]
fn redirects_from_the_ollama_server_are_never_followed() {
    let elsewhere = Sink::start();
    let to = format!("{}/api/embed", elsewhere.url);
    let server = FakeOllama::builder()
        .model(MODEL)
        .model("chat-model")
        .redirect("/api/embed", &to)
        .redirect("/api/chat", &format!("{}/api/chat", elsewhere.url))
        .start();
    let s = Scratch::fixture("python");
    let embed = [
        ("LLMC_EMBED_PROVIDER", "ollama"),
        ("LLMC_EMBED_OLLAMA_URL", server.url.as_str()),
        ("LLMC_EMBED_OLLAMA_MODEL", MODEL),
    ];
    let out = llmc_env(s.path(), &["index"], &embed);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("redirect") && stderr(&out).contains("never follows"),
        "{}",
        stderr(&out)
    );
    assert!(server.requests("/api/embed") >= 1);

    // The chat model: the index is built without Ollama, then the question's synthesis
    // is redirected; the answer comes without the LLM.
    let out = llmc_env(s.path(), &["index"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let chat = [
        ("LLMC_LLM_PROVIDER", "ollama"),
        ("LLMC_LLM_OLLAMA_URL", server.url.as_str()),
        ("LLMC_LLM_MODEL", "chat-model"),
    ];
    let out = llmc_env(
        s.path(),
        &["ask", "--json", "how is the shelf weight computed?"],
        &chat,
    );
    assert!(server.requests("/api/chat") >= 1, "{}", stderr(&out));
    assert_eq!(
        elsewhere.received(),
        (0, 0),
        "a redirect was followed: {}",
        stderr(&out)
    );
}

// 1b. Proxy variables never carry a request to a loopback server elsewhere.
#[test]
fn proxy_variables_are_ignored_for_a_loopback_server() {
    let proxy = Sink::start();
    let server = FakeOllama::builder().model(MODEL).start();
    let s = Scratch::fixture("python");
    let mut env = vec![
        ("LLMC_EMBED_PROVIDER", "ollama"),
        ("LLMC_EMBED_OLLAMA_URL", server.url.as_str()),
        ("LLMC_EMBED_OLLAMA_MODEL", MODEL),
    ];
    for var in [
        "HTTP_PROXY",
        "http_proxy",
        "HTTPS_PROXY",
        "https_proxy",
        "ALL_PROXY",
        "all_proxy",
    ] {
        env.push((var, proxy.url.as_str()));
    }
    let out = llmc_env(s.path(), &["index"], &env);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(server.requests("/api/embed") >= 1);
    let out = llmc_env(s.path(), &["search", "--mode", "semantic", "shelf"], &env);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(proxy.received(), (0, 0), "a request went through the proxy");
}

/// Files built to be deep: one expression nested thousands of levels, in each language.
fn deep_files() -> Vec<(String, String)> {
    let n = 7_000;
    let parens = |inner: &str| format!("{}{inner}{}", "(".repeat(n), ")".repeat(n));
    let mut files = vec![
        ("deep.py".to_string(), format!("x = {}\n", parens("1"))),
        (
            "deep.js".to_string(),
            format!("const x = {};\n", parens("1")),
        ),
        (
            "deep.ts".to_string(),
            format!("const x = {};\n", parens("1")),
        ),
        (
            "deep.rs".to_string(),
            format!("fn f() {{ let x = {}; }}\n", parens("1")),
        ),
        (
            "deep.go".to_string(),
            format!("package p\nfunc f() {{ x := {}; _ = x }}\n", parens("1")),
        ),
        (
            "deep.java".to_string(),
            format!("class A {{ void f() {{ int x = {}; }} }}\n", parens("1")),
        ),
        (
            "deep.c".to_string(),
            format!("void f(void) {{ int x = {}; }}\n", parens("1")),
        ),
        (
            "deep.cpp".to_string(),
            format!("void f() {{ auto x = {}; }}\n", parens("1")),
        ),
    ];
    for (name, op) in [("not", "!"), ("amp", "&"), ("neg", "-"), ("try", "?")] {
        let v = if op == "?" {
            format!("g(){}", "?".repeat(50_000))
        } else {
            format!("{}g()", op.repeat(50_000))
        };
        files.push((
            format!("unary_{name}.rs"),
            format!("fn f() {{ let x = {v}; }}\n"),
        ));
    }
    files.push((
        "awaits.js".to_string(),
        format!(
            "async function f() {{ const x = {}g(); }}\n",
            "await ".repeat(20_000)
        ),
    ));
    files.push((
        "awaits.py".to_string(),
        format!("async def f():\n    x = {}g()\n", "await ".repeat(20_000)),
    ));
    files.push((
        "uses.rs".to_string(),
        format!("use {}x{};\n", "a::{".repeat(7_000), "}".repeat(7_000)),
    ));
    files
}

// 2. No input depth overflows the stack: deep expressions are indexed (or flagged), and
// the index and every question after it succeed.
#[test]
fn deeply_nested_files_never_abort_the_index() {
    let s = Scratch::fixture("python");
    for (name, text) in deep_files() {
        s.write(&format!("deep/{name}"), text);
    }
    let out = llmc_env(s.path(), &["index", "--json"], &[]);
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status.code(),
        stderr(&out)
    );
    let out = llmc_env(s.path(), &["ask", "who calls g?"], &[]);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "exit {:?}: {}",
        out.status.code(),
        stderr(&out)
    );
}

// 5, 10. What is not a regular file is never opened as one: a FIFO (a read would block
// the index forever, holding the write lock) and a symlink out of the repository are
// skipped and counted.
#[cfg(unix)]
#[test]
fn fifos_and_symlinks_out_are_skipped_and_counted() {
    let s = Scratch::fixture("python");
    let outside = tempfile::tempdir().expect("dir");
    std::fs::write(outside.path().join("secret.py"), "TOKEN = 'zqxoutsidezq'\n").expect("write");
    std::os::unix::fs::symlink(outside.path().join("secret.py"), s.path().join("link.py"))
        .expect("symlink");
    let made = Command::new("mkfifo")
        .arg(s.path().join("pipe.py"))
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let out = llmc_env(s.path(), &["index", "--json"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stats = crate::util::json(&out);
    assert_eq!(stats["skipped"]["special"], 1, "{stats}");
    assert_eq!(stats["skipped"]["symlink"], 1, "{stats}");
    let out = llmc_env(
        s.path(),
        &["search", "--json", "--mode", "lexical", "zqxoutsidezq"],
        &[],
    );
    assert_eq!(out.status.code(), Some(1), "{}", crate::util::stdout(&out));
}

// 8. Numbers are bounded where they are read, each error naming its key or flag.
#[test]
fn numbers_in_config_and_flags_are_bounded() {
    let s = Scratch::fixture("python");
    let out = llmc_env(s.path(), &["index"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    for (args, needle) in [
        (
            &["--config", "index.threads=100000", "status"][..],
            "`index.threads` is 100000",
        ),
        (
            &["--config", "search.k=9223372036854775807", "search", "x"],
            "`search.k`",
        ),
        (
            &[
                "--config",
                "search.candidates=9223372036854775807",
                "search",
                "x",
            ],
            "`search.candidates`",
        ),
        (&["search", "--k", "1152921504606846976", "x"], "--k"),
        (&["ask", "-k", "0", "x"], "--k"),
        (
            &["graph", "callers", "shelf_weight", "--limit", "0"],
            "--limit",
        ),
    ] {
        let out = llmc_env(s.path(), args, &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
    }
    // A name longer than SQLite's LIKE limit is just a name nobody defined.
    let long = "x".repeat(60_000);
    let out = llmc_env(s.path(), &["graph", "callers", &long], &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let out = llmc_env(s.path(), &["log", &format!("{long}.py")], &[]);
    assert!(!stderr(&out).contains("LIKE"), "{}", stderr(&out));
    // A question of 20,000 names is cut and says so; it does not run for seconds.
    let words: Vec<String> = (0..20_000).map(|i| format!("ident_{i}")).collect();
    let mut args = vec!["ask", "--json"];
    args.extend(words.iter().map(String::as_str));
    let t = std::time::Instant::now();
    let out = llmc_env(s.path(), &args, &[]);
    assert!(t.elapsed() < std::time::Duration::from_secs(10));
    let doc = crate::util::json(&out);
    let warnings = doc["warnings"].to_string();
    assert!(warnings.contains("only the first 2000"), "{warnings}");
}

// 10. Usage errors under --json are JSON; an empty query is refused like an empty
// question.
#[test]
fn usage_errors_under_json_are_json_and_empty_queries_are_refused() {
    let s = Scratch::fixture("python");
    for args in [
        &["search", "--json", "--mode", "sideways", "x"][..],
        &["ask", "--json", "-k", "0", "x"],
        &["graph", "--json", "callers"],
        &["search", "--json", ""],
        &["ask", "--json", "  "],
    ] {
        let out = llmc_env(s.path(), args, &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let doc = crate::util::json(&out);
        assert!(doc["error"]["message"].is_string(), "{args:?}: {doc}");
        assert_eq!(doc["schema_version"], 1, "{args:?}");
    }
}

// 10. Control characters in file names, code and commit text reach the terminal as
// escapes; CR-only files are lines; binary without NUL bytes is binary.
#[test]
fn terminals_see_escapes_and_odd_files_are_read_as_editors_read_them() {
    let s = Scratch::fixture("python");
    s.write(
        "evil\u{1b}]0;pwned\u{7}\nname.py",
        "def osc_title():\n    return '\u{1b}]52;c;ZXZpbA==\u{7}'\n",
    );
    s.write(
        "mac.py",
        "def first():\r    return 1\r\rdef second():\r    return first()\r",
    );
    let noise: Vec<u8> = (0..20_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8 | 1)
        .collect();
    s.write("blob.py", noise);
    let out = llmc_env(s.path(), &["index", "--json"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stats = crate::util::json(&out);
    assert_eq!(stats["skipped"]["binary"], 1, "{stats}");

    let out = llmc_env(s.path(), &["graph", "defs", "second", "--json"], &[]);
    let doc = crate::util::json(&out);
    assert_eq!(doc["results"][0]["line"], 4, "{doc}");
    let out = llmc_env(s.path(), &["graph", "callers", "first"], &[]);
    assert!(
        crate::util::stdout(&out).contains("mac.py:5"),
        "{}",
        crate::util::stdout(&out)
    );

    for args in [
        &["search", "osc_title"][..],
        &["ask", "--no-cache", "where is osc_title defined?"],
        &["status"],
    ] {
        let out = llmc_env(s.path(), args, &[]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{7}'),
            "{args:?}: {text:?}"
        );
    }
    let out = llmc_env(s.path(), &["search", "osc_title"], &[]);
    let text = crate::util::stdout(&out);
    assert!(text.contains("evil\\x1b]0;pwned\\x07\\nname.py"), "{text}");
}

/// Files that hold secrets, by name or only by content.
fn write_secrets(s: &Scratch) -> usize {
    let pem = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUtc2VjcmV0\n-----END OPENSSH PRIVATE KEY-----\n";
    let files: Vec<(&str, String)> = vec![
        ("config/prod.env", "DB_PASSWORD=hunter2zq\n".into()),
        (
            "deploy/gcp.json",
            "{\"type\": \"service_account\", \"private_key_id\": \"ab12\", \"private_key\": \"zqkey\"}\n"
                .into(),
        ),
        ("notes/private_key.txt", pem.into()),
        ("notes/todo.txt", format!("remember to rotate hunter2zq\n{pem}")),
        ("ops/deploy_key", pem.into()),
        ("ops/ssh_host_ed25519_key", pem.into()),
        ("ops/putty.ppk", "PuTTY-User-Key-File-3: ssh-ed25519\nhunter2zq\n".into()),
        ("infra/terraform.tfstate", "{\"password\": \"hunter2zq\"}\n".into()),
        ("infra/kubeconfig", "users:\n- name: zq\n  token: hunter2zq\n".into()),
        ("infra/docker-config.json", "{\"auths\": {\"r\": {\"auth\": \"aHVudGVyMnpx\"}}}\n".into()),
        ("infra/htpasswd", "admin:$apr1$hunter2zq\n".into()),
        (
            "app/settings.py",
            "AWS_KEY = 'AKIAIOSFODNN7EXAMPLE'  # hunter2zq\n".into(),
        ),
    ];
    for (path, text) in &files {
        s.write(path, text);
    }
    files.len()
}

// 9. Secrets are recognised by content as well as by name, never printed, and `.llmc/`
// is private to its user; with secrets included, no answer citing them is cached.
#[test]
fn secrets_are_found_by_content_and_nothing_of_them_is_shown_or_kept() {
    let s = Scratch::fixture("python");
    let n = write_secrets(&s);
    let out = llmc_env(s.path(), &["index", "--json"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stats = crate::util::json(&out);
    assert_eq!(stats["skipped"]["secret"], n, "{stats}");
    // Nor does status call them new, as if the next run would index them.
    let out = llmc_env(s.path(), &["status", "--json"], &[]);
    let status = crate::util::json(&out);
    assert_eq!(
        status["changed"]["added"],
        serde_json::json!([]),
        "{status}"
    );
    for args in [
        &["search", "hunter2zq"][..],
        &["ask", "where is hunter2zq?"],
        &["ask", "what is the AWS key?"],
    ] {
        let out = llmc_env(s.path(), args, &[]);
        let all = format!("{}{}", crate::util::stdout(&out), stderr(&out));
        for secret in [
            "prod.env",
            "gcp.json",
            "private_key.txt",
            "todo.txt",
            "deploy_key",
            "ssh_host",
            "putty.ppk",
            "tfstate",
            "kubeconfig",
            "docker-config",
            "htpasswd",
            "settings.py",
            "PRIVATE KEY",
            "AKIAIOSFODNN7EXAMPLE",
            "DB_PASSWORD",
        ] {
            assert!(!all.contains(secret), "{args:?} shows {secret}: {all}");
        }
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = |p: &str| {
            std::fs::metadata(s.path().join(p))
                .expect("exists")
                .permissions()
                .mode()
                & 0o777
        };
        assert_eq!(mode(".llmc"), 0o700);
        assert_eq!(mode(".llmc/index.db"), 0o600);
        let out = llmc_env(s.path(), &["ask", "who calls shelf_weight?"], &[]);
        assert!(out.status.success(), "{}", stderr(&out));
        let cache = s.path().join(".llmc/cache/ask");
        let entries: Vec<_> = std::fs::read_dir(&cache)
            .expect("cache")
            .flatten()
            .collect();
        assert!(!entries.is_empty());
        for e in entries {
            assert_eq!(
                e.metadata().expect("meta").permissions().mode() & 0o777,
                0o600
            );
        }
    }

    // Included on purpose: indexed and shown, flagged, and never cached.
    let inc = [("LLMC_INDEX_INCLUDE_SECRETS", "true")];
    let out = llmc_env(s.path(), &["index", "--json"], &inc);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = llmc_env(s.path(), &["status", "--json"], &inc);
    let status = crate::util::json(&out);
    assert_eq!(status["flagged"]["secrets_included"], n, "{status}");
    let _ = std::fs::remove_dir_all(s.path().join(".llmc/cache"));
    let out = llmc_env(
        s.path(),
        &["ask", "--json", "where is the AWS_KEY setting?"],
        &inc,
    );
    let doc = crate::util::json(&out);
    assert!(
        doc["sources"].to_string().contains("app/settings.py"),
        "{doc}"
    );
    let cached = std::fs::read_dir(s.path().join(".llmc/cache/ask"))
        .map(|d| d.flatten().count())
        .unwrap_or(0);
    assert_eq!(cached, 0, "an answer citing a secret was cached");
}

/// The two states the crash loop switches a repository between: A has `old_x.py`, B
/// has `new_y.py` instead (SQLite reuses the ids A's chunks had), and `common.py` says
/// which state it is in.
fn set_state(s: &Scratch, b: bool) {
    let (add, remove, word) = if b {
        ("new_y.py", "old_x.py", "zqstateb")
    } else {
        ("old_x.py", "new_y.py", "zqstatea")
    };
    let _ = std::fs::remove_file(s.path().join(remove));
    let handler = add.trim_end_matches(".py").replace('_', "");
    s.write(
        add,
        format!(
            "from common import helper\n\n\ndef zq_{handler}_handler():\n    return helper(1)\n"
        ),
    );
    s.write(
        "common.py",
        format!("def helper(x):\n    \"\"\"Marks {word}.\"\"\"\n    return x\n"),
    );
}

/// Bulk so that an index run lasts long enough to be cut at many points.
fn crash_repo() -> Scratch {
    let s = Scratch::fixture("python");
    for i in 0..120 {
        let body: String = (0..12)
            .map(|j| format!("def f{i}_{j}(x):\n    \"\"\"Step {j} of module {i}.\"\"\"\n    return helper(x) + {j}\n\n\n"))
            .collect();
        s.write(
            &format!("bulk/m{i}.py"),
            format!("from common import helper\n\n\n{body}"),
        );
    }
    set_state(&s, false);
    s.git(&["init", "-q"]);
    s.git(&["add", "-A"]);
    s.git(&["commit", "-qm", "bulk"]);
    s
}

/// What the three readers answer, reduced to what identifies a generation.
#[derive(Debug, Clone, PartialEq)]
struct Answers {
    search: Vec<String>,
    graph: Vec<String>,
    ask: (Option<i32>, Vec<String>),
}

fn answers(dir: &std::path::Path) -> Answers {
    let out = llmc_env(
        dir,
        &[
            "search",
            "--json",
            "--mode",
            "lexical",
            "zqstatea zqstateb zq_oldx_handler zq_newy_handler",
        ],
        &[],
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let mut search: Vec<String> = doc["hits"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|h| format!("{}:{}-{}", h["path"], h["start_line"], h["end_line"]))
        .collect();
    search.sort();
    let out = llmc_env(
        dir,
        &["graph", "callers", "helper", "--json", "--limit", "5000"],
        &[],
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let mut graph: Vec<String> = doc["results"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| format!("{}:{} {}", r["path"], r["line"], r["symbol"]))
        .collect();
    graph.sort();
    let out = llmc_env(
        dir,
        &[
            "ask",
            "--json",
            "--no-refresh",
            "--no-cache",
            "--no-llm",
            "where is zq_newy_handler defined?",
        ],
        &[],
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let sources: Vec<String> = doc["sources"]
        .as_array()
        .into_iter()
        .flatten()
        .take(1)
        .map(|s| format!("{}:{}", s["path"], s["start_line"]))
        .collect();
    Answers {
        search,
        graph,
        ask: (out.status.code(), sources),
    }
}

/// A small deterministic generator (the seed is printed on failure).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
}

// 3, 4. Runs killed (SIGKILL) or interrupted (SIGINT) at random points, incremental and
// --rebuild: after each, search, graph and ask answer from one complete generation, the
// one before the run or the one after it; the run after the loop equals --rebuild.
#[cfg(unix)]
#[test]
fn killed_and_interrupted_runs_leave_one_whole_generation() {
    use std::time::Instant;
    let s = crash_repo();
    // The answers of each state, from indexes built whole.
    let reference = |b: bool| {
        let r = crash_repo();
        set_state(&r, b);
        let out = llmc_env(r.path(), &["index"], &[]);
        assert!(out.status.success(), "{}", stderr(&out));
        answers(r.path())
    };
    let (ref_a, ref_b) = (reference(false), reference(true));
    assert_ne!(ref_a, ref_b);
    assert!(
        ref_b.search.iter().any(|h| h.contains("new_y.py")),
        "{ref_b:?}"
    );

    let t = Instant::now();
    let out = llmc_env(s.path(), &["index", "--rebuild"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let full = t.elapsed();
    assert_eq!(answers(s.path()), ref_a);
    // An incremental run's length (to B and back to A): kills land within each kind.
    let mut inc = std::time::Duration::ZERO;
    for b in [true, false] {
        set_state(&s, b);
        let t = Instant::now();
        let out = llmc_env(s.path(), &["index"], &[]);
        assert!(out.status.success(), "{}", stderr(&out));
        inc = inc.max(t.elapsed());
    }

    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(7, |d| d.as_nanos() as u64);
    let mut rng = Lcg(seed);
    let mut state_b = false;
    let mut cut = 0;
    for i in 0..30 {
        state_b = !state_b;
        set_state(&s, state_b);
        let rebuild = i % 4 == 3;
        let sigint = i % 2 == 1;
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_llmc"));
        cmd.arg("index").current_dir(s.path());
        if rebuild {
            cmd.arg("--rebuild");
        }
        cmd.stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        let mut child = cmd.spawn().expect("spawn");
        let span = if rebuild { full } else { inc };
        let delay = span.mul_f64((rng.next() % 1000) as f64 / 1000.0 * 1.1);
        std::thread::sleep(delay);
        let signal = if sigint { "-INT" } else { "-KILL" };
        let _ = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status();
        let status = child.wait().expect("wait");
        if !status.success() {
            cut += 1;
        }
        if sigint && status.code().is_some() && !status.success() {
            assert_eq!(status.code(), Some(130), "seed {seed}, run {i}");
        }
        let got = answers(s.path());
        assert!(
            got == ref_a || got == ref_b,
            "seed {seed}, run {i} ({signal} after {delay:?}, rebuild {rebuild}): \
             answers of no single generation: {got:#?}\nA: {ref_a:#?}\nB: {ref_b:#?}"
        );
    }
    assert!(
        cut >= 8,
        "seed {seed}: only {cut} of 30 runs were cut short"
    );
    // The next run completes what was cut, incrementally (a cut run never forces a full
    // re-index), and equals a rebuild.
    let out = llmc_env(s.path(), &["index", "--json"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stats = crate::util::json(&out);
    assert!(stats["search"]["rebuilt"].is_null(), "seed {seed}: {stats}");
    assert_eq!(
        answers(s.path()),
        if state_b {
            ref_b.clone()
        } else {
            ref_a.clone()
        }
    );
    let incremental = s.store().dump().expect("dump");
    for dir in ["lexical", "vectors"] {
        let names: Vec<String> = std::fs::read_dir(s.path().join(".llmc").join(dir))
            .expect("dir")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            names
                .iter()
                .all(|n| n.starts_with('g') && !n.contains("scratch")),
            "{dir}: {names:?}"
        );
    }
    let out = llmc_env(s.path(), &["index", "--rebuild"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(incremental, s.store().dump().expect("dump"), "seed {seed}");
}

// 7. An index this user cannot write (another owner, a read-only mount) answers, says so
// once, and is neither refreshed nor written.
#[cfg(unix)]
#[test]
fn a_read_only_index_answers_and_says_so_once() {
    use std::os::unix::fs::PermissionsExt as _;
    let s = Scratch::fixture("python");
    let out = llmc_env(s.path(), &["index"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let root_user = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    // Readable by everyone, writable by no one but root; as root, run as `nobody`.
    let mut stack = vec![s.path().to_path_buf()];
    while let Some(p) = stack.pop() {
        let meta = std::fs::metadata(&p).expect("meta");
        let mode = if meta.is_dir() { 0o555 } else { 0o444 };
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).expect("chmod");
        if meta.is_dir() {
            stack.extend(
                std::fs::read_dir(&p)
                    .expect("dir")
                    .flatten()
                    .map(|e| e.path()),
            );
        }
    }
    let run = |args: &[&str]| {
        let mut cmd = if root_user {
            let mut c = Command::new("setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                .arg(env!("CARGO_BIN_EXE_llmc"));
            c
        } else {
            Command::new(env!("CARGO_BIN_EXE_llmc"))
        };
        cmd.args(args).current_dir(s.path()).env("HOME", "/tmp");
        for (k, _) in std::env::vars() {
            if k.starts_with("LLMC_") {
                cmd.env_remove(k);
            }
        }
        cmd.output().expect("llmc runs")
    };
    for args in [
        &["status"][..],
        &["search", "shelf weight"],
        &["graph", "callers", "shelf_weight"],
        &["ask", "who calls shelf_weight?"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert_eq!(
            stderr(&out).matches("read-only").count(),
            1,
            "{args:?}: {}",
            stderr(&out)
        );
    }
    let out = run(&["index"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("read-only"), "{}", stderr(&out));
    // Writable again, so the scratch directory can be removed.
    let mut stack = vec![s.path().to_path_buf()];
    while let Some(p) = stack.pop() {
        let is_dir = p.is_dir();
        let mode = if is_dir { 0o755 } else { 0o644 };
        let _ = std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode));
        if is_dir {
            stack.extend(
                std::fs::read_dir(&p)
                    .into_iter()
                    .flatten()
                    .flatten()
                    .map(|e| e.path()),
            );
        }
    }
}

/// A source repository of `n` commits, each adding a function to `a.py`, served to
/// clones with filters allowed.
fn history_source(n: usize) -> Scratch {
    let s = Scratch::empty();
    s.git(&["init", "-q"]);
    s.git(&["config", "uploadpack.allowFilter", "true"]);
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!("def f{i}():\n    return {i}\n\n\n"));
        s.write("a.py", &text);
        s.git(&["add", "a.py"]);
        s.git(&["commit", "-qm", &format!("add f{i}")]);
    }
    s
}

fn git_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs")
}

fn commits_in_log(dir: &std::path::Path) -> usize {
    let out = llmc_env(dir, &["log", "--json", "-n", "1000"], &[]);
    crate::util::json(&out)["commits"]
        .as_array()
        .map_or(0, Vec::len)
}

// 6. Deepening or unshallowing a shallow clone brings the commits behind the old
// boundary into the history.
#[test]
fn deepening_a_shallow_clone_reads_the_older_commits() {
    let src = history_source(20);
    let dst = Scratch::empty();
    let url = format!("file://{}", src.path().display());
    let clone = git_in(dst.path(), &["clone", "-q", "--depth", "3", &url, "repo"]);
    assert!(clone.status.success(), "{}", stderr(&clone));
    let repo = dst.path().join("repo");
    let out = llmc_env(&repo, &["index"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(commits_in_log(&repo), 3);

    let deepen = git_in(&repo, &["fetch", "-q", "--deepen", "10"]);
    assert!(deepen.status.success(), "{}", stderr(&deepen));
    let out = llmc_env(&repo, &["index"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(commits_in_log(&repo), 13);
    // The function added behind the old boundary has its commit.
    let out = llmc_env(&repo, &["log", "--json", "f9"], &[]);
    let doc = crate::util::json(&out);
    assert_eq!(doc["commits"][0]["subject"], "add f9", "{doc}");

    let unshallow = git_in(&repo, &["fetch", "-q", "--unshallow"]);
    assert!(unshallow.status.success(), "{}", stderr(&unshallow));
    let out = llmc_env(&repo, &["index"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(commits_in_log(&repo), 20);
    let out = llmc_env(&repo, &["status", "--json"], &[]);
    assert_eq!(crate::util::json(&out)["history"]["shallow"], false);
}

// 10. A partial clone's missing objects are never fetched: history reads commits and
// files, says what it skipped, and the clone is as partial afterwards as before.
#[test]
fn a_partial_clone_is_read_without_fetching() {
    let src = history_source(6);
    let old_blob =
        String::from_utf8_lossy(&git_in(src.path(), &["rev-parse", "HEAD~3:a.py"]).stdout)
            .trim()
            .to_string();
    let dst = Scratch::empty();
    let url = format!("file://{}", src.path().display());
    let clone = git_in(
        dst.path(),
        &["clone", "-q", "--filter=blob:none", &url, "repo"],
    );
    assert!(clone.status.success(), "{}", stderr(&clone));
    let repo = dst.path().join("repo");
    // Asked without fetching (cat-file would fetch a missing object itself).
    let missing = |blob: &str| {
        !Command::new("git")
            .args(["cat-file", "-e", blob])
            .current_dir(&repo)
            .env("GIT_NO_LAZY_FETCH", "1")
            .output()
            .expect("git runs")
            .status
            .success()
    };
    assert!(
        missing(&old_blob),
        "the old version should not be local yet"
    );
    let out = llmc_env(&repo, &["index", "--json"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(crate::util::json(&out)["history"]["partial"], true);
    let out = llmc_env(&repo, &["index"], &[]);
    assert!(stderr(&out).contains("partial clone"), "{}", stderr(&out));
    assert!(missing(&old_blob), "llmc fetched an object from the remote");
    assert_eq!(commits_in_log(&repo), 6);
    let out = llmc_env(&repo, &["status", "--json"], &[]);
    assert_eq!(crate::util::json(&out)["history"]["partial"], true);
}

// A plain clone of a partial clone keeps its `.promisor` packs but is not partial (no
// promisor remote): its history is read in full, definitions included.
#[test]
fn a_promisor_pack_without_a_promisor_remote_is_not_a_partial_clone() {
    let src = history_source(6);
    let gc = git_in(src.path(), &["gc", "-q"]);
    assert!(gc.status.success(), "{}", stderr(&gc));
    let pack_dir = src.path().join(".git/objects/pack");
    let pack = std::fs::read_dir(&pack_dir)
        .expect("pack dir")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "pack"))
        .expect("a pack after gc");
    std::fs::write(pack.with_extension("promisor"), "").expect("promisor file");
    let out = llmc_env(src.path(), &["index", "--json"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(crate::util::json(&out)["history"]["partial"], false);
    let out = llmc_env(src.path(), &["log", "f2", "--json"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let commits = crate::util::json(&out)["commits"]
        .as_array()
        .map_or(0, Vec::len);
    assert!(commits > 0, "{}", String::from_utf8_lossy(&out.stdout));
}

// A history read as a partial clone's is read again, definitions included, once the
// repository is no longer one.
#[test]
fn a_history_read_as_partial_is_read_again_when_the_clone_is_whole() {
    let src = history_source(6);
    let git = |args: &[&str]| {
        let out = git_in(src.path(), args);
        assert!(out.status.success(), "{}", stderr(&out));
    };
    git(&["config", "extensions.partialClone", "origin"]);
    let out = llmc_env(src.path(), &["index", "--json"], &[]);
    assert_eq!(crate::util::json(&out)["history"]["partial"], true);
    let out = llmc_env(src.path(), &["log", "f2", "--json"], &[]);
    assert!(!out.status.success(), "no definitions in a partial history");
    git(&["config", "--unset", "extensions.partialClone"]);
    let out = llmc_env(src.path(), &["index", "--json"], &[]);
    let v = crate::util::json(&out);
    assert_eq!(v["history"]["partial"], false, "{v}");
    assert_eq!(v["history"]["new_commits"], 6, "{v}");
    let out = llmc_env(src.path(), &["log", "f2", "--json"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
}

// A repository that lacks an old file version (no promisor remote to say so) still has
// its history read: commits and files, as a partial clone's, and said so.
#[test]
fn a_missing_old_object_reads_the_history_as_a_partial_clone() {
    let src = history_source(6);
    let blob = String::from_utf8_lossy(&git_in(src.path(), &["rev-parse", "HEAD~3:a.py"]).stdout)
        .trim()
        .to_string();
    let loose = src
        .path()
        .join(".git/objects")
        .join(&blob[..2])
        .join(&blob[2..]);
    std::fs::remove_file(&loose).expect("the old blob is a loose object");
    let out = llmc_env(src.path(), &["index", "--json"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v = crate::util::json(&out);
    assert_eq!(v["history"]["partial"], true, "{v}");
    assert!(v["history"]["error"].is_null(), "{v}");
    assert_eq!(commits_in_log(src.path()), 6);
}

// 3. A damaged lexical index (a segment file gone) is found and rebuilt by the next run.
#[test]
fn a_damaged_lexical_index_is_rebuilt_by_the_next_run() {
    let s = Scratch::fixture("python");
    let out = llmc_env(s.path(), &["index"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let g = s.store().generation().expect("generation");
    let dir = s.path().join(format!(".llmc/lexical/g{g}"));
    let victim = std::fs::read_dir(&dir)
        .expect("dir")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "term"))
        .expect("a term dictionary");
    std::fs::remove_file(&victim).expect("rm");
    let out = llmc_env(
        s.path(),
        &["search", "--mode", "lexical", "shelf_weight"],
        &[],
    );
    assert_ne!(out.status.code(), Some(0));
    let out = llmc_env(s.path(), &["index", "--json"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stats = crate::util::json(&out);
    let why = stats["search"]["rebuilt"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(why.contains("damaged"), "{stats}");
    let out = llmc_env(
        s.path(),
        &["search", "--mode", "lexical", "shelf_weight"],
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

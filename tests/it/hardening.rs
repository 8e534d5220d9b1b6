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

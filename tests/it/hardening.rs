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

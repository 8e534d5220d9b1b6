//! The LLM path of `ask` through the real `ollama-rs` client against a scripted
//! Ollama-compatible server on 127.0.0.1: grounded and ungrounded answers, the call
//! budget, timeouts, the loopback rule and a missing model.

use std::net::TcpListener;
use std::time::{Duration, Instant};

use llmc::config::{LlmConfig, LlmProvider};
use llmc::llm::{self, Budget, LlmError, OllamaLlm, Source, check_grounding, classify, synthesize};

use crate::fake_ollama::FakeOllama;

const MODEL: &str = "qwen2.5-coder:1.5b";

fn cfg(url: &str) -> LlmConfig {
    LlmConfig {
        provider: LlmProvider::Ollama,
        ollama_url: url.into(),
        timeout_secs: 1,
        ..LlmConfig::default()
    }
}

fn sources() -> Vec<Source> {
    let src = |n: usize, path: &str, symbol: &str, text: &str| Source {
        n,
        path: path.into(),
        start_line: 10,
        end_line: 20,
        symbol: Some(symbol.into()),
        text: text.into(),
    };
    vec![
        src(
            1,
            "src/retry.rs",
            "with_backoff",
            "pub fn with_backoff(attempts: u32) -> Duration {\n    BASE_DELAY * 2u32.pow(attempts)\n}",
        ),
        src(
            2,
            "src/client.rs",
            "Client::send",
            "fn send(&self, req: Request) -> Result<Response> {\n    retry(|| self.http.call(&req), with_backoff)\n}",
        ),
        src(
            3,
            "docs/retry.md",
            "Retries",
            "Requests are retried up to five times.",
        ),
    ]
}

fn ollama(server: &FakeOllama) -> OllamaLlm {
    OllamaLlm::new(&cfg(&server.url)).expect("connects")
}

#[test]
fn a_cited_answer_is_grounded() {
    let server = FakeOllama::builder()
        .model(MODEL)
        .reply(
            "`Client::send` retries the call through `retry` [2]. The delay doubles with \
             each attempt in `with_backoff`, starting from `BASE_DELAY` [1].",
        )
        .start();
    let llm = llm::from_config(&cfg(&server.url))
        .expect("connects")
        .expect("provider ollama");
    assert_eq!(llm.name(), format!("ollama/{MODEL}"));
    let mut budget = Budget::new(8);
    let s = synthesize(
        llm.as_ref(),
        &mut budget,
        "how are requests retried?",
        &sources(),
    )
    .expect("answers");
    assert!(s.grounded, "{s:?}");
    assert_eq!(s.cited, vec![1, 2]);
    assert!(s.problems.is_empty());
    assert_eq!((s.calls, budget.used()), (1, 1));
    assert!(s.text.starts_with("`Client::send` retries"), "{}", s.text);

    // One chat request, carrying the numbered sources and the question.
    assert_eq!(server.requests("/api/chat"), 1);
    let chat = &server.chats()[0];
    assert_eq!(chat["model"], MODEL);
    assert_eq!(chat["messages"][0]["role"], "system");
    let prompt = chat["messages"][1]["content"]
        .as_str()
        .expect("user prompt");
    assert!(prompt.contains("how are requests retried?"), "{prompt}");
    assert!(
        prompt.contains("[2] src/client.rs:10-20 Client::send\n"),
        "{prompt}"
    );
    assert!(prompt.contains("Requests are retried up to five times."));
}

#[test]
fn an_answer_citing_a_missing_source_or_naming_an_absent_identifier_is_flagged() {
    let server = FakeOllama::builder()
        .model(MODEL)
        .reply("Requests are retried five times [3], with a growing delay [7].")
        .reply("Requests are retried five times [3], with a growing delay [9].")
        .reply("`Client::send` retries with `ExponentialBackoff::jitter` [1][2].")
        .start();
    let llm = ollama(&server);

    // Budget 2: the answer, then one rewrite that fails too; the first answer stands.
    let mut budget = Budget::new(2);
    let s = synthesize(&llm, &mut budget, "how many retries?", &sources()).expect("answers");
    assert!(!s.grounded);
    assert_eq!(s.cited, vec![3]);
    assert_eq!(s.calls, 2);
    assert!(s.text.contains("[7]"), "{}", s.text);
    assert_eq!(s.problems.len(), 1, "{:?}", s.problems);
    assert!(
        s.problems[0].starts_with("[7] cites no source"),
        "{:?}",
        s.problems
    );
    // The rewrite request showed the model its problem.
    let rewrite = server.chats()[1]["messages"][1]["content"]
        .as_str()
        .expect("prompt")
        .to_string();
    assert!(rewrite.contains("[7] cites no source"), "{rewrite}");

    let mut budget = Budget::new(1);
    let s =
        synthesize(&llm, &mut budget, "how is the delay computed?", &sources()).expect("answers");
    assert!(!s.grounded);
    assert_eq!(s.cited, vec![1, 2]);
    assert_eq!(
        s.problems,
        vec!["`ExponentialBackoff::jitter` occurs in none of the cited sources".to_string()]
    );
    assert_eq!(
        check_grounding(&s.text, &sources()),
        (s.cited.clone(), s.problems.clone())
    );
}

#[test]
fn a_spent_budget_makes_no_call() {
    let server = FakeOllama::builder()
        .model(MODEL)
        .reply("Retries happen.")
        .reply("callers")
        .start();
    let llm = ollama(&server);
    let mut budget = Budget::new(1);
    let s = synthesize(&llm, &mut budget, "q", &sources()).expect("answers");
    // Ungrounded (no citation), but no call is left for a rewrite.
    assert_eq!((s.grounded, s.calls), (false, 1));
    assert_eq!(budget.used(), 1);
    let err = classify(
        &llm,
        &mut budget,
        "who calls send?",
        &["callers", "definition"],
    )
    .expect_err("budget spent");
    assert!(matches!(err, LlmError::BudgetExhausted), "{err:?}");
    let err = synthesize(&llm, &mut budget, "q", &sources()).expect_err("budget spent");
    assert!(matches!(err, LlmError::BudgetExhausted), "{err:?}");
    assert_eq!(server.requests("/api/chat"), 1);

    // With a call left, the fallback classifier reads the reply.
    let mut budget = Budget::new(1);
    let intents = classify(
        &llm,
        &mut budget,
        "who calls send?",
        &["callers", "definition"],
    )
    .expect("classifies");
    assert_eq!(intents, vec!["callers".to_string()]);
    assert_eq!(server.requests("/api/chat"), 2);
}

#[test]
fn a_server_that_never_answers_times_out() {
    // Silent from the start: the model check gives up.
    let silent = FakeOllama::builder().model(MODEL).silent().start();
    let t = Instant::now();
    let err = OllamaLlm::new(&cfg(&silent.url)).expect_err("times out");
    assert!(
        matches!(err, LlmError::Timeout { after, section: "llm", .. } if after == Duration::from_secs(1)),
        "{err:?}"
    );
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    assert!(err.to_string().contains("llm.timeout_secs"), "{err}");
    assert_eq!(silent.requests("/api/tags"), 1);

    // Answers the model check, then hangs on the chat.
    let server = FakeOllama::builder().model(MODEL).hang().start();
    let llm = ollama(&server);
    let t = Instant::now();
    let err = synthesize(&llm, &mut Budget::new(8), "q", &sources()).expect_err("times out");
    assert!(matches!(err, LlmError::Timeout { .. }), "{err:?}");
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    assert_eq!(server.requests("/api/chat"), 1);
}

#[test]
fn an_unreachable_server_is_named_in_one_line() {
    let dead = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", dead.local_addr().expect("addr"));
    drop(dead);
    let err = OllamaLlm::new(&cfg(&url)).expect_err("unreachable");
    assert!(matches!(err, LlmError::Unreachable(_)), "{err:?}");
    let msg = err.to_string();
    assert!(
        msg.starts_with(&format!("cannot reach Ollama at {url} (")),
        "{msg}"
    );
    assert!(
        msg.ends_with("start it or set `llm.provider = \"none\"`"),
        "{msg}"
    );
    assert!(!msg.contains('\n'), "{msg}");
}

#[test]
fn a_remote_host_is_refused_without_allow_remote() {
    let err = OllamaLlm::new(&cfg("http://192.0.2.10:11434")).expect_err("refused");
    assert!(matches!(err, LlmError::RemoteRefused(_)), "{err:?}");
    assert!(
        err.to_string().contains("set `llm.allow_remote = true`"),
        "{err}"
    );
    // Allowed, it is tried (and is not there): the refusal was the rule, not the address.
    let mut allowed = cfg("http://192.0.2.10:11434");
    allowed.allow_remote = true;
    let err = OllamaLlm::new(&allowed).expect_err("no such server");
    assert!(
        matches!(err, LlmError::Timeout { .. } | LlmError::Unreachable(_)),
        "{err:?}"
    );
}

#[test]
fn a_missing_model_is_named_with_the_pull_command() {
    let server = FakeOllama::builder().model("llama3.2:1b").start();
    let err = OllamaLlm::new(&cfg(&server.url)).expect_err("no model");
    assert!(
        matches!(&err, LlmError::ModelMissing { model, url } if model == MODEL && *url == server.url),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(msg.contains(&format!("ollama pull {MODEL}")), "{msg}");
    assert_eq!(server.requests("/api/chat"), 0);

    // A model removed after the check: the chat's 404 says the same.
    let server = FakeOllama::builder()
        .model(MODEL)
        .reply_error(
            404,
            &format!("model \"{MODEL}\" not found, try pulling it first"),
        )
        .start();
    let err =
        synthesize(&ollama(&server), &mut Budget::new(8), "q", &sources()).expect_err("no model");
    assert!(matches!(err, LlmError::ModelMissing { .. }), "{err:?}");
}

//! `llmc mcp` benchmark: `cargo bench --bench mcp -- [TREE]`.
//!
//! 1. Warm-server latency. On a copy of TREE (default: this machine's Python standard
//!    library) put under git with one commit and indexed, `llmc mcp` is started once and
//!    driven over its stdin/stdout by the minimal JSON-RPC client below (so the figures
//!    are the server's, not a client library's): three warm-up calls, then 50 calls of
//!    each kind, median and 90th percentile; beside them the same question as a whole
//!    `llmc` process (median of 25), one process after every other call so that both see
//!    the same load. Every server call checks the files for changes first (one stat per
//!    indexed file); `llmc graph` and `llmc log` do not.
//! 2. Budgets. On a clone of this repository (its code and its real history), ten real
//!    questions through `ask`, and `callers`, `history` and `search`, at `max_tokens`
//!    500, 2,000 and 8,000: every page within the budget by the documented estimate
//!    (bytes / 4 of the JSON text), and the pages reached through `omitted.next`,
//!    concatenated list by list (an item shown cut replaced by its `whole` call's), equal
//!    to the answer at an unlimited budget.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use common::{copy_tree, median, ms, stdlib, time};

const CALLS: usize = 50;
const CLI_RUNS: usize = 25;

/// A minimal MCP client over a child's stdin/stdout: one JSON-RPC message per line.
struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    id: u64,
}

impl Client {
    fn start(bin: &Path, dir: &Path) -> Client {
        let mut child = Command::new(bin)
            .args(["-q", "mcp"])
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("llmc mcp starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut c = Client {
            child,
            stdin,
            stdout,
            id: 0,
        };
        let init = c.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "llmc-bench", "version": "0"},
            }),
        );
        assert_eq!(init["serverInfo"]["name"], "llmc", "{init}");
        c.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        c
    }

    fn send(&mut self, msg: &Value) {
        writeln!(self.stdin, "{msg}").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// Sends a request and returns its result (panics on a JSON-RPC error).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.id += 1;
        let id = self.id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let mut line = String::new();
        loop {
            line.clear();
            let n = self.stdout.read_line(&mut line).expect("read");
            assert!(n > 0, "llmc mcp closed its output");
            let v: Value = serde_json::from_str(&line).expect("a JSON-RPC message");
            if v["id"] == id {
                assert!(v.get("error").is_none(), "{method}: {v}");
                return v["result"].clone();
            }
        }
    }

    /// A tool call: its result (`structuredContent`, the text) and how long it took.
    fn call(&mut self, tool: &str, args: &Value) -> (Value, String, Duration) {
        let t = Instant::now();
        let r = self.request("tools/call", json!({"name": tool, "arguments": args}));
        let took = t.elapsed();
        assert_ne!(r["isError"], true, "{tool} {args}: {r}");
        let text = r["content"][0]["text"].as_str().unwrap_or("").to_string();
        (r["structuredContent"].clone(), text, took)
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "Bench")
        .env("GIT_AUTHOR_EMAIL", "bench@example.com")
        .env("GIT_COMMITTER_NAME", "Bench")
        .env("GIT_COMMITTER_EMAIL", "bench@example.com")
        .status()
        .expect("git runs")
        .success();
    assert!(ok, "git {args:?}");
}

fn index(bin: &Path, dir: &Path) -> f64 {
    let t = Instant::now();
    let out = Command::new(bin)
        .args(["-q", "index"])
        .current_dir(dir)
        .output()
        .expect("llmc runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    t.elapsed().as_secs_f64()
}

fn percentile(v: &mut [Duration], p: f64) -> Duration {
    v.sort();
    v[((v.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let src = args.first().map_or_else(stdlib, PathBuf::from);
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_llmc"));
    latency(&bin, &src);
    budgets(&bin);
}

fn latency(bin: &Path, src: &Path) {
    let tree = copy_tree(src, "mcp");
    println!("== {} (copy at {})", src.display(), tree.display());
    git(&tree, &["init", "-q"]);
    git(&tree, &["add", "-A"]);
    git(&tree, &["commit", "-qm", "import the tree"]);
    println!("cold index: {:.2} s", index(bin, &tree));

    // (label, tool, arguments, the same question as a command line, target)
    let kinds: [(&str, &str, Value, Vec<&str>, &str); 7] = [
        (
            "callers",
            "callers",
            json!({"target": "urlparse"}),
            vec!["graph", "callers", "urlparse", "--json"],
            "<= 3 ms",
        ),
        (
            "history",
            "history",
            json!({"target": "urlparse"}),
            vec!["log", "urlparse", "--json"],
            "<= 5 ms",
        ),
        (
            "ask structural",
            "ask",
            json!({"question": "who calls urlparse?", "no_cache": true}),
            vec!["ask", "--no-cache", "--json", "who calls urlparse?"],
            "<= 10 ms",
        ),
        (
            "ask concept",
            "ask",
            json!({"question": "how does the json decoder scan strings?", "no_cache": true}),
            vec![
                "ask",
                "--no-cache",
                "--json",
                "how does the json decoder scan strings?",
            ],
            "<= 30 ms",
        ),
        (
            "definition",
            "definition",
            json!({"target": "urlparse"}),
            vec!["graph", "defs", "urlparse", "--json"],
            "",
        ),
        (
            "search",
            "search",
            json!({"query": "json decoder scan strings"}),
            vec!["search", "--json", "json decoder scan strings"],
            "",
        ),
        (
            "ask cached",
            "ask",
            json!({"question": "who calls urlparse?"}),
            vec!["ask", "--json", "who calls urlparse?"],
            "",
        ),
    ];
    let mut client = Client::start(bin, &tree);
    println!(
        "\n{:<15} {:>11} {:>11} {:>11} {:>8}  {:<9} answer",
        "tool", "server p50", "server p90", "CLI p50", "CLI/srv", "target"
    );
    for (label, tool, args, cli, target) in &kinds {
        for _ in 0..3 {
            client.call(tool, args);
        }
        let _ = time(Command::new(bin).args(cli).current_dir(&tree));
        let (mut server, mut process) = (Vec::new(), Vec::new());
        for i in 0..CALLS {
            server.push(client.call(tool, args).2);
            if i % 2 == 0 {
                process.push(time(
                    Command::new(bin).arg("-q").args(cli).current_dir(&tree),
                ));
            }
        }
        let (v, _, _) = client.call(tool, args);
        let said = match *tool {
            "ask" => v["status"].as_str().unwrap_or("?").to_string(),
            "history" => format!("{} commits", v["total"]),
            "search" => format!("{} hits", v["hits"].as_array().map_or(0, Vec::len)),
            _ => format!("{} rows", v["total"]),
        };
        assert_eq!(process.len(), CLI_RUNS);
        let p50 = ms(median(&mut server));
        let p90 = ms(percentile(&mut server, 0.9));
        let cli_p50 = ms(median(&mut process));
        println!(
            "{label:<15} {p50:>11.2} {p90:>11.2} {cli_p50:>11.2} {:>8.1}  {target:<9} {said}",
            cli_p50 / p50
        );
    }
    println!(
        "(ms; server: {CALLS} calls on one warm `llmc mcp`, CLI: {CLI_RUNS} whole processes \
         interleaved with them)"
    );
}

/// Ten questions about llmc's own code and history, as an agent would ask them.
const QUESTIONS: [&str; 10] = [
    "who calls open_existing?",
    "what does ask_once call?",
    "where is FreshnessCheck defined?",
    "who changed src/store/mod.rs last?",
    "when was retry_changed added?",
    "why was is_test_path moved?",
    "how does the lexical index split identifiers into tokens?",
    "what does src/app/graph.rs import?",
    "where are secrets detected in file contents?",
    "how are the search indexes kept per generation?",
];

/// The lists of an answer, as JSON pointers, read from the whole answer.
fn lists_of(tool: &str, whole: &Value) -> Vec<String> {
    match tool {
        "ask" => {
            let mut l = vec!["/answer/text".to_string()];
            for i in 0..whole["graph"].as_array().map_or(0, Vec::len) {
                for f in ["definitions", "rows", "references", "through_trait"] {
                    l.push(format!("/graph/{i}/{f}"));
                }
            }
            for i in 0..whole["history"].as_array().map_or(0, Vec::len) {
                l.push(format!("/history/{i}/commits"));
            }
            l.extend(["/abstention/nearest", "/sources", "/refine"].map(String::from));
            l
        }
        "callers" => [
            "/candidates",
            "/results",
            "/references",
            "/through_trait",
            "/also_named",
            "/by_file",
        ]
        .map(String::from)
        .to_vec(),
        "history" => vec!["/commits".into()],
        _ => vec!["/hits".into()],
    }
}

fn pointer_of(name: &str) -> String {
    format!(
        "/{}",
        name.replace('[', "/")
            .replace("].", "/")
            .replace(']', "")
            .replace('.', "/")
    )
}

/// What one answer did at one budget.
#[derive(Default)]
struct Paged {
    pages: usize,
    most_tokens: usize,
    cut: usize,
    over: usize,
    same: bool,
}

fn paged(client: &mut Client, tool: &str, args: &Value, max: usize) -> Paged {
    let mut whole_args = args.clone();
    whole_args["max_tokens"] = json!(100_000_000);
    let (whole, _, _) = client.call(tool, &whole_args);
    let lists = lists_of(tool, &whole);
    let mut got: Vec<Value> = lists
        .iter()
        .map(|l| {
            if l.ends_with("/text") {
                json!("")
            } else {
                json!([])
            }
        })
        .collect();
    let mut out = Paged::default();
    let mut a = args.clone();
    a["max_tokens"] = json!(max);
    loop {
        let (mut v, text, _) = client.call(tool, &a);
        out.pages += 1;
        let tokens = llmc::budget::tokens(&text);
        out.most_tokens = out.most_tokens.max(tokens);
        let m = v["omitted"].clone();
        if m["over_budget"] == true {
            out.over += 1;
        } else {
            assert!(tokens <= max, "{tool} {a}: {tokens} > {max}");
        }
        if let Some(cut) = m.get("cut") {
            out.cut += 1;
            let whole_call = &cut["whole"];
            let (w, _, _) = client.call(tool, &whole_call["arguments"]);
            let p = pointer_of(cut["list"].as_str().unwrap_or(""));
            let item = w.pointer(&p).and_then(|l| l.get(0)).cloned();
            if let (Some(slot), Some(item)) = (v.pointer_mut(&p).and_then(|l| l.get_mut(0)), item) {
                *slot = item;
            }
        }
        for (i, l) in lists.iter().enumerate() {
            match (v.pointer(l), &mut got[i]) {
                (Some(Value::String(s)), Value::String(acc)) => acc.push_str(s),
                (Some(Value::Array(x)), Value::Array(acc)) => acc.extend(x.iter().cloned()),
                _ => {}
            }
        }
        match m.get("next") {
            Some(n) if !n.is_null() => a = n["arguments"].clone(),
            _ => break,
        }
        assert!(out.pages < 2_000, "{tool} {args}: too many pages");
    }
    out.same = lists.iter().enumerate().all(|(i, l)| {
        let want = whole.pointer(l).cloned().unwrap_or_else(|| got[i].clone());
        let want = if want.is_null() { json!([]) } else { want };
        want == got[i]
    });
    out
}

fn budgets(bin: &Path) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"));
    let repo = std::env::temp_dir().join("llmc-mcp-bench-llmc");
    let _ = std::fs::remove_dir_all(&repo);
    let ok = Command::new("git")
        .args(["clone", "-q", "--no-hardlinks"])
        .arg(src)
        .arg(&repo)
        .status()
        .expect("git runs")
        .success();
    assert!(ok, "cloning {}", src.display());
    let head = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(&repo)
        .output()
        .expect("git runs");
    println!(
        "\n== budgets: a clone of this repository at {} ({}), cold index {:.2} s",
        String::from_utf8_lossy(&head.stdout).trim(),
        repo.display(),
        index(bin, &repo)
    );
    let mut client = Client::start(bin, &repo);
    let mut cases: Vec<(String, &str, Value)> = QUESTIONS
        .iter()
        .map(|q| (format!("ask {q:?}"), "ask", json!({"question": q})))
        .collect();
    cases.push((
        "callers print_out".into(),
        "callers",
        json!({"target": "print_out"}),
    ));
    cases.push(("history (every commit)".into(), "history", json!({})));
    cases.push((
        "search \"freshness check\" k=30".into(),
        "search",
        json!({"query": "freshness check", "k": 30}),
    ));
    println!(
        "\n{:<64} {:>30} {:>30} {:>30}",
        "answer", "500: pages max cut same", "2000: pages max cut same", "8000: pages max cut same"
    );
    let mut all_same = true;
    let mut over = 0;
    for (label, tool, args) in &cases {
        let mut row = format!("{label:<64}");
        for max in [500, 2_000, 8_000] {
            let p = paged(&mut client, tool, args, max);
            all_same &= p.same;
            over += p.over;
            row.push_str(&format!(
                " {:>13} {:>6} {:>4} {:>4}",
                p.pages,
                p.most_tokens,
                p.cut,
                if p.same { "yes" } else { "NO" }
            ));
        }
        println!("{row}");
    }
    println!(
        "(pages: calls to reach the end through omitted.next; max: the largest page in tokens; \
         cut: pages showing one item cut; same: the pages, list by list, equal the answer at \
         an unlimited budget)"
    );
    // A page over its budget without saying so fails an assertion above.
    println!(
        "every page within its budget; pages over budget (head alone too large): {over}; \
         every answer concatenates to the whole: {}",
        if all_same { "yes" } else { "NO" }
    );
}

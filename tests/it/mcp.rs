//! `llmc mcp` driven through a real MCP client: the official Python SDK
//! (`tests/mcp_client.py`), which also checks every structured result against the tool's
//! output schema. `.ci/run` installs the SDK into `<target>/mcp-venv`; elsewhere the test
//! looks for it there, in `$MCP_PYTHON`, then in `python3`, and without it prints a note
//! and passes, except under `CI=true`, where it fails with the install command.
//! `MCP_TEST_DUMP=FILE` writes the client's results there (to see what a failing run got).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::util::{Scratch, testdata};

const INSTALL: &str = "python3 -m venv target/mcp-venv && target/mcp-venv/bin/python -m pip install 'mcp>=1.0' (or run .ci/run)";

/// A Python that can `import mcp`, if there is one.
fn python() -> Option<PathBuf> {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_llmc"));
    // <target>/debug/llmc → <target>/mcp-venv/bin/python
    let venv = bin
        .parent()
        .and_then(Path::parent)
        .map(|t| t.join("mcp-venv/bin/python"));
    let candidates = std::env::var_os("MCP_PYTHON")
        .map(PathBuf::from)
        .into_iter()
        .chain(venv)
        .chain([PathBuf::from("python3")]);
    for p in candidates {
        let ok = Command::new(&p)
            .args(["-c", "import mcp"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            return Some(p);
        }
    }
    None
}

/// The SDK, or why the test does not run: a failure under CI, a note elsewhere.
fn sdk() -> Option<PathBuf> {
    let found = python();
    if found.is_none() {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        assert!(
            !ci,
            "the MCP Python SDK is not installed; install it with: {INSTALL}"
        );
        eprintln!("note: the MCP Python SDK is not installed, the MCP test is skipped: {INSTALL}");
    }
    found
}

/// Runs `plan` through `tests/mcp_client.py` against `llmc mcp SERVER_ARGS` in `repo`:
/// the results, one per step (the first is `initialize`).
fn drive(python: &Path, repo: &Path, server_args: &[&str], plan: &Value) -> Vec<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_client.py");
    let mut child = Command::new(python)
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_llmc"))
        .arg(repo)
        .args(server_args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python runs");
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(plan.to_string().as_bytes())
            .expect("plan written");
    }
    let out = child.wait_with_output().expect("client finishes");
    assert!(
        out.status.success(),
        "mcp_client.py failed: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn call(tool: &str, args: Value) -> Value {
    json!({"op": "call", "tool": tool, "args": args})
}

/// The structured result of a call that succeeded.
fn ok(r: &Value) -> &Value {
    assert!(r.get("exception").is_none(), "{r}");
    assert_eq!(r["is_error"], false, "{r}");
    let s = &r["structured"];
    assert_eq!(s["schema_version"], 1, "{r}");
    assert!(s["freshness"]["generation"].as_u64() >= Some(1), "{r}");
    assert!(s["omitted"].is_object(), "{r}");
    // The text the model reads is the same document, and fits the budget.
    let text = r["text"].as_str().expect("text");
    assert_eq!(
        serde_json::from_str::<Value>(text).expect("the text is JSON"),
        *s
    );
    let max = s["omitted"]["max_tokens"].as_u64().expect("max_tokens") as usize;
    assert!(llmc::budget::tokens(text) <= max || s["omitted"]["over_budget"] == true);
    s
}

/// `path:line` of each row of a graph answer.
fn rows(s: &Value, list: &str) -> Vec<String> {
    s[list]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| format!("{}:{}", r["path"].as_str().unwrap_or(""), r["line"]))
        .collect()
}

/// The python fixture, committed (so it has a history), and indexed.
fn fixture() -> Scratch {
    let repo = Scratch::git_fixture("python");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "the inventory app"]);
    repo.index();
    repo
}

const VAT: &str =
    "from inventory.pricing import apply_vat\n\n\ndef gross(x):\n    return apply_vat(x)\n";

#[test]
fn an_agent_drives_every_tool_through_the_python_sdk() {
    let Some(python) = sdk() else { return };
    let repo = fixture();
    let plan = json!([
        {"op": "list_tools"},
        call("ask", json!({"question": "who calls apply_vat?"})),
        call("callers", json!({"target": "apply_vat"})),
        call("callees", json!({"target": "shelf_total"})),
        call("definition", json!({"target": "apply_vat"})),
        call("imports", json!({"path": "inventory/pricing.py"})),
        call("importers", json!({"path": "inventory/models.py"})),
        call("history", json!({"target": "inventory/pricing.py"})),
        call("search", json!({"query": "add VAT to a net amount"})),
        call("status", json!({})),
        // Bad arguments: each names the argument and why.
        call("callers", json!({"target": "apply_vat", "depth": 0})),
        call("callers", json!({"tagret": "apply_vat"})),
        call("ask", json!({"question": "   "})),
        call("search", json!({"query": "vat", "mode": "fuzzy"})),
        call("history", json!({"target": "apply_vat", "max_tokens": 20})),
        // Unknown names: the nearest ones.
        call("callers", json!({"target": "aply_vat"})),
        call("importers", json!({"path": "inventory/model.py"})),
        // A file edited between two calls: the second answer sees the edit.
        {"op": "write", "path": "app/vat.py", "text": VAT},
        call("callers", json!({"target": "apply_vat"})),
        // Two calls in flight at once.
        {"op": "parallel", "calls": [
            {"tool": "callers", "args": {"target": "line_total"}},
            {"tool": "ask", "args": {"question": "who calls apply_vat?", "no_cache": true}},
            {"tool": "search", "args": {"query": "shelf weight"}},
        ]},
        // Pages: the next calls return exactly the rest.
        {"op": "pages", "tool": "ask", "args": {"question": "who calls apply_vat?", "max_tokens": 100}},
        call("ask", json!({"question": "who calls apply_vat?", "max_tokens": 100000})),
        call("history", json!({"target": "aply_vat"})),
        call("status", json!({})),
        // Another process rebuilds the index under the server: the next call reads the
        // new store.
        {"op": "run", "argv": [env!("CARGO_BIN_EXE_llmc"), "-q", "index", "--rebuild"]},
        call("callers", json!({"target": "apply_vat"})),
        // An edit, then two calls at once: both see it (one re-indexes, the other waits).
        {"op": "write", "path": "app/vat2.py", "text": VAT.replace("gross", "gross2")},
        {"op": "parallel", "calls": [
            {"tool": "callers", "args": {"target": "apply_vat"}},
            {"tool": "callers", "args": {"target": "apply_vat", "max_tokens": 3000}},
        ]},
        // An unknown tool is a protocol error.
        call("nope", json!({})),
    ]);
    let r = drive(&python, repo.path(), &[], &plan);
    if let Ok(dump) = std::env::var("MCP_TEST_DUMP") {
        let _ = std::fs::write(dump, serde_json::to_string_pretty(&r).unwrap_or_default());
    }
    assert_eq!(r.len(), plan.as_array().expect("plan").len() + 1);

    let init = &r[0];
    assert_eq!(init["server"], "llmc");
    assert_eq!(init["tools"], true);
    assert!(
        init["instructions"]
            .as_str()
            .is_some_and(|i| i.contains("max_tokens"))
    );

    let tools = r[1]["tools"].as_array().expect("tools");
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(
        names,
        [
            "ask",
            "callers",
            "callees",
            "definition",
            "imports",
            "importers",
            "history",
            "search",
            "status"
        ]
    );
    for t in tools {
        let props = &t["input_schema"]["properties"];
        assert!(
            props["max_tokens"].is_object() && props["offset"].is_object(),
            "{t}"
        );
        assert!(
            t["output_schema"]["properties"]["omitted"].is_object(),
            "{t}"
        );
        assert!(
            t["description"].as_str().is_some_and(|d| d.len() > 80),
            "{t}"
        );
    }

    let ask = ok(&r[2]);
    assert_eq!(ask["status"], "answered");
    assert!(
        ask["answer"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("apply_vat"))
    );
    assert_eq!(rows(&ask["graph"][0], "rows"), ["inventory/pricing.py:16"]);
    assert!(ask.get("trace").is_none(), "no trace unless asked");
    assert!(ask["omitted"]["next"].is_null());

    let callers = ok(&r[3]);
    assert_eq!(rows(callers, "results"), ["inventory/pricing.py:16"]);
    assert_eq!(callers["results"][0]["symbol"], "shelf_total");
    assert_eq!(callers["freshness"]["refreshed_files"], 0);

    let callees = ok(&r[4]);
    let called: Vec<&str> = callees["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter_map(|x| x["symbol"].as_str())
        .collect();
    assert!(
        called.contains(&"apply_vat") && called.contains(&"line_total"),
        "{called:?}"
    );

    let def = ok(&r[5]);
    assert_eq!(def["candidates"][0]["path"], "inventory/pricing.py");
    assert_eq!(def["candidates"][0]["line"], 19);
    assert_eq!(def["candidates"][0]["kind"], "function");

    let imports = ok(&r[6]);
    assert!(
        imports["results"]
            .as_array()
            .expect("results")
            .iter()
            .any(|x| x["defined_at"] == "inventory/models.py"),
        "{imports}"
    );
    let importers = ok(&r[7]);
    assert!(rows(importers, "results").contains(&"inventory/pricing.py:3".to_string()));

    let history = ok(&r[8]);
    assert_eq!(history["total"], 1);
    assert_eq!(history["commits"][0]["subject"], "the inventory app");

    let search = ok(&r[9]);
    assert!(
        search["hits"]
            .as_array()
            .expect("hits")
            .iter()
            .any(|h| h["path"] == "inventory/pricing.py"),
        "{search}"
    );

    let status = ok(&r[10]);
    assert!(status["files"]["total"].as_u64() > Some(3));

    // Bad arguments.
    let bad = |i: usize, argument: &str, says: &str| {
        let x = &r[i];
        assert_eq!(x["is_error"], true, "{x}");
        let e = &x["structured"]["error"];
        assert_eq!(e["kind"], "bad_argument", "{x}");
        assert_eq!(e["argument"], argument, "{x}");
        let m = x["text"].as_str().expect("message");
        assert!(m.contains(argument) && m.contains(says), "{m}");
    };
    bad(11, "depth", "from 1 to 64");
    bad(12, "tagret", "did you mean `target`");
    bad(13, "question", "is required");
    bad(14, "mode", "not one of lexical, semantic, hybrid");
    bad(15, "max_tokens", "from 100");

    // Unknown names.
    let unknown = &r[16];
    assert_eq!(unknown["is_error"], true);
    assert_eq!(unknown["structured"]["error"]["kind"], "unknown_symbol");
    assert_eq!(unknown["structured"]["error"]["nearest"][0], "apply_vat");
    assert!(
        unknown["text"]
            .as_str()
            .is_some_and(|t| t.contains("`apply_vat`"))
    );
    let unknown_path = &r[17];
    assert_eq!(unknown_path["structured"]["error"]["kind"], "unknown_path");
    assert_eq!(
        unknown_path["structured"]["error"]["nearest"][0],
        "inventory/models.py"
    );

    // The edit between two calls.
    let edited = ok(&r[19]);
    assert_eq!(
        rows(edited, "results"),
        ["app/vat.py:5", "inventory/pricing.py:16"]
    );
    assert!(edited["freshness"]["refreshed_files"].as_u64() >= Some(1));
    assert!(
        edited["freshness"]["generation"].as_u64() > callers["freshness"]["generation"].as_u64()
    );

    // Two calls in flight.
    let both = r[20]["results"].as_array().expect("results");
    assert_eq!(
        rows(ok(&both[0]), "results"),
        ["inventory/pricing.py:15", "inventory/pricing.py:26"]
    );
    let asked = ok(&both[1]);
    assert_eq!(
        rows(&asked["graph"][0], "rows"),
        ["app/vat.py:5", "inventory/pricing.py:16"]
    );
    assert!(!ok(&both[2])["hits"].as_array().expect("hits").is_empty());

    // Pages at 100 tokens, concatenated, are the answer at 100,000.
    let pages = r[21]["pages"].as_array().expect("pages");
    assert!(pages.len() > 2, "{}", pages.len());
    let whole = ok(&r[22]);
    assert!(whole["omitted"]["next"].is_null());
    let mut text = String::new();
    let (mut graph_rows, mut sources) = (Vec::new(), Vec::new());
    let mut at = 0;
    for p in pages {
        let s = ok(p);
        assert_eq!(s["omitted"]["offset"], at);
        at += s["omitted"]["shown"].as_u64().expect("shown");
        text.push_str(s["answer"]["text"].as_str().unwrap_or(""));
        graph_rows.extend(
            s["graph"][0]["rows"]
                .as_array()
                .into_iter()
                .flatten()
                .cloned(),
        );
        sources.extend(s["sources"].as_array().into_iter().flatten().cloned());
    }
    assert_eq!(text, whole["answer"]["text"]);
    assert_eq!(Value::Array(graph_rows), whole["graph"][0]["rows"]);
    assert_eq!(Value::Array(sources), whole["sources"]);

    let unknown = &r[23];
    assert_eq!(
        unknown["structured"]["error"]["kind"], "unknown_symbol",
        "{unknown}"
    );
    assert_eq!(unknown["structured"]["error"]["nearest"][0], "apply_vat");

    // The server is still up after every error.
    ok(&r[24]);

    assert_eq!(r[25]["code"], 0, "the rebuild ran");
    let after_rebuild = ok(&r[26]);
    assert_eq!(
        rows(after_rebuild, "results"),
        ["app/vat.py:5", "inventory/pricing.py:16"]
    );
    let both = r[28]["results"].as_array().expect("results");
    for x in both {
        assert_eq!(
            rows(ok(x), "results"),
            ["app/vat.py:5", "app/vat2.py:5", "inventory/pricing.py:16"]
        );
    }
    assert!(
        both.iter()
            .any(|x| x["structured"]["freshness"]["refreshed_files"].as_u64() >= Some(1)),
        "{both:?}"
    );
    assert!(
        r[29]["exception"]
            .as_str()
            .is_some_and(|e| e.contains("unknown tool `nope`")),
        "{}",
        r[29]
    );
}

#[test]
fn without_an_index_the_first_call_starts_one() {
    let Some(python) = sdk() else { return };
    let repo = Scratch::fixture("python");
    let plan = json!([
        call("callers", json!({"target": "apply_vat"})),
        {"op": "pages", "tool": "status", "args": {}},
    ]);
    // No wait: the first call says indexing started.
    let r = drive(&python, repo.path(), &["--index-wait", "0"], &plan);
    let first = &r[1];
    assert_eq!(first["is_error"], true, "{first}");
    assert_eq!(first["structured"]["error"]["kind"], "index_building");
    assert!(
        first["text"]
            .as_str()
            .is_some_and(|t| t.contains("indexing"))
    );
    // A server that waits answers once the index is built.
    let plan = json!([call("callers", json!({"target": "apply_vat"}))]);
    let r = drive(&python, repo.path(), &["--index-wait", "60"], &plan);
    assert_eq!(rows(ok(&r[1]), "results"), ["inventory/pricing.py:16"]);
    assert!(testdata().is_dir());
}

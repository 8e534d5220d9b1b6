//! Memories switched off in `[index]`: the index builds definitions and chunks only (and
//! whatever is left on), every command that needs a missing memory says which key to set,
//! and switching a memory back on re-indexes everything.

use llmc::config::IndexConfig;

use crate::util::{Scratch, call_edges, json, stderr, stdout};

const ALL_OFF: &str =
    "[index]\ngraph = false\nhistory = false\nlexical = false\nsemantic = false\n";

#[test]
fn a_foundation_only_index_answers_what_it_can_and_names_each_missing_memory() {
    let repo = Scratch::git_fixture("python");
    repo.write("llmc.toml", ALL_OFF);
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "first"]);
    let out = repo.llmc(&["index"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!repo.path().join(".llmc/lexical").exists());
    assert!(!repo.path().join(".llmc/vectors").exists());

    let status = json(&repo.llmc(&["status", "--json"]));
    assert_eq!(status["memories"], serde_json::json!([]));
    assert!(status["definitions"]["total"].as_u64().unwrap_or(0) > 20);
    let note = status["history"]["note"].as_str().unwrap_or("");
    assert!(note.contains("index.history = false"), "{status}");

    // The edges of the graph are missing; the definitions are not.
    let callers = repo.llmc(&["graph", "callers", "line_total"]);
    assert_eq!(callers.status.code(), Some(3));
    assert!(
        stderr(&callers).contains("index.graph = false"),
        "{}",
        stderr(&callers)
    );
    let err = json(&repo.llmc(&["graph", "callers", "line_total", "--json"]));
    assert_eq!(err["error"]["kind"], "memory_off");
    let defs = repo.llmc(&["graph", "defs", "line_total"]);
    assert!(defs.status.success(), "{}", stderr(&defs));
    assert!(
        stdout(&defs).contains("inventory/pricing.py"),
        "{}",
        stdout(&defs)
    );

    let search = repo.llmc(&["search", "line_total"]);
    assert_eq!(search.status.code(), Some(3));
    assert!(stderr(&search).contains("index.lexical = false"));
    let semantic = repo.llmc(&["search", "--mode", "semantic", "line total"]);
    assert_eq!(semantic.status.code(), Some(3));
    assert!(stderr(&semantic).contains("index.semantic = false"));

    let log = repo.llmc(&["log", "line_total"]);
    assert_eq!(log.status.code(), Some(1));
    assert!(
        stderr(&log).contains("index.history = false"),
        "{}",
        stderr(&log)
    );

    // A callers question finds the definition, claims no call sites (not even "called
    // from nowhere") and says why.
    let ask = repo.llmc(&["ask", "--json", "who calls line_total?"]);
    let answer = json(&ask);
    assert_eq!(ask.status.code(), Some(0), "{answer}");
    assert_eq!(answer["graph"], serde_json::json!([]), "{answer}");
    assert_eq!(answer["sources"][0]["path"], "inventory/pricing.py");
    let text = answer["answer"]["text"].as_str().unwrap_or("");
    assert!(
        text.contains("line_total") && !text.contains("called"),
        "{answer}"
    );
    let warned = answer["warnings"].as_array().is_some_and(|w| {
        w.iter()
            .any(|w| w.as_str().unwrap_or("").contains("index.graph = false"))
    });
    assert!(warned, "{answer}");
}

#[test]
fn switching_memories_on_reindexes_everything_and_equals_a_fresh_index() {
    let repo = Scratch::fixture("python");
    let off = IndexConfig {
        graph: false,
        history: false,
        lexical: false,
        semantic: false,
        ..IndexConfig::default()
    };
    let first = repo.index_with(&off, false);
    assert!(first.symbols > 20);
    assert!(call_edges(&repo.store()).is_empty());

    let on = repo.index_with(&IndexConfig::default(), false);
    let reason = on.search.and_then(|s| s.rebuilt).unwrap_or_default();
    assert!(reason.contains("index.graph switched on"), "{reason}");
    assert!(reason.contains("index.semantic switched on"), "{reason}");
    assert_eq!(on.parsed, on.files, "every file read again");
    assert!(!call_edges(&repo.store()).is_empty());
    let switched = repo.store().dump().expect("dump");

    repo.index_with(&IndexConfig::default(), true);
    assert_eq!(switched, repo.store().dump().expect("dump"));
    // An unchanged configuration re-indexes nothing.
    assert_eq!(repo.index().parsed, 0);
}

#[test]
fn hybrid_search_without_embeddings_says_so_and_answers_lexically() {
    let repo = Scratch::fixture("python");
    repo.write("llmc.toml", "[index]\nsemantic = false\n");
    let out = repo.llmc(&["index"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let search = repo.llmc(&["search", "--json", "line_total"]);
    assert!(search.status.success(), "{}", stderr(&search));
    let result = json(&search);
    assert_eq!(result["mode"], "lexical");
    assert_eq!(result["hits"][0]["symbol"], "line_total");
    assert!(stderr(&search).contains("index.semantic = false"));
}

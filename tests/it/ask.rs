//! `llmc ask` end to end on the fixtures: every intent, two intents at once, a
//! comparison, an out-of-scope question, a misspelled name that refine recovers, the
//! labelled question set, auto-indexing and refresh, the cache, stage switches, and
//! snapshots of the human and JSON output.

use std::path::Path;

use llmc::ask::{self, AskRequest, Outcome};
use llmc::config::Config;
use serde_json::Value;

use crate::history::{fixture_history, repo_dir};
use crate::util::{Scratch, git_in, llmc_env, llmc_in, stderr, stdout, testdata};

fn ask_json(dir: &Path, args: &[&str]) -> (Value, i32) {
    let mut full = vec!["ask", "--json", "--no-cache"];
    full.extend_from_slice(args);
    let out = llmc_in(dir, &full);
    let v: Value = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("json ({e}): {}\n{}", stdout(&out), stderr(&out)));
    (v, out.status.code().unwrap_or(-1))
}

/// The path of the first source `llmc ask QUESTION` cites (the question answered).
fn first_source_path(dir: &Path, question: &str) -> String {
    let (v, code) = ask_json(dir, &[question]);
    assert_eq!(code, 0, "{v}");
    v["sources"][0]["path"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn python() -> Scratch {
    let s = Scratch::git_fixture("python");
    s.index();
    s
}

fn rows(v: &Value, intent: &str) -> Vec<String> {
    v["graph"]
        .as_array()
        .expect("graph")
        .iter()
        .filter(|f| f["intent"] == intent)
        .flat_map(|f| f["rows"].as_array().cloned().unwrap_or_default())
        .map(|r| {
            format!(
                "{}:{} {}",
                r["path"].as_str().unwrap_or(""),
                r["line"],
                r["symbol"].as_str().unwrap_or("")
            )
        })
        .collect()
}

fn source_symbols(v: &Value) -> Vec<String> {
    v["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .filter_map(|s| s["symbol"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn callers_are_read_from_the_graph_with_their_enclosing_function() {
    let s = python();
    let (v, code) = ask_json(s.path(), &["who calls shelf_weight?"]);
    assert_eq!(code, 0);
    assert_eq!(v["status"], "answered");
    assert_eq!(v["intents"], serde_json::json!(["callers"]));
    assert_eq!(
        rows(&v, "callers"),
        [
            "app/report.py:19 shelf_report",
            "inventory/models.py:77 shelf_weight"
        ]
    );
    // Read from the graph: at least Medium (right 70 % of the time or more).
    assert_ne!(v["confidence"]["label"], "Low", "{}", v["confidence"]);
    assert_eq!(v["confidence"]["grounding"], 1.0);
    assert!(
        v["answer"]["text"]
            .as_str()
            .unwrap_or("")
            .contains("app/report.py:19  in shelf_report")
    );
    assert!(v["schema_version"].is_number());
}

#[test]
fn callees_and_definitions_and_imports_come_from_the_graph() {
    let s = python();
    let (v, code) = ask_json(s.path(), &["what does shelf_report call?"]);
    assert_eq!(code, 0);
    assert_eq!(v["intents"], serde_json::json!(["callees"]));
    let callees = rows(&v, "callees");
    assert!(
        callees.iter().any(|r| r.ends_with("shelf_weight")),
        "{callees:?}"
    );

    let (v, code) = ask_json(s.path(), &["where is `Item` defined?"]);
    assert_eq!(code, 0);
    let defs = &v["graph"][0]["definitions"][0];
    assert_eq!(defs["path"], "inventory/models.py");
    assert_eq!(
        (defs["line"].as_u64(), defs["end_line"].as_u64()),
        (Some(9), Some(29))
    );
    assert_eq!(defs["kind"], "class");
    assert_eq!(source_symbols(&v).first().map(String::as_str), Some("Item"));

    let (v, code) = ask_json(s.path(), &["what does app/report.py import?"]);
    assert_eq!(code, 0);
    assert_eq!(v["intents"], serde_json::json!(["imports"]));
    let imports = rows(&v, "imports");
    assert!(
        imports.iter().any(|r| r.starts_with("app/report.py:")),
        "{imports:?}"
    );
}

#[test]
fn history_questions_are_answered_from_commits_newest_first() {
    let repo = fixture_history();
    let dir = repo_dir(&repo);
    let (v, code) = ask_json(&dir, &["who changed lerp last?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["intents"], serde_json::json!(["history"]));
    let first = &v["history"][0]["commits"][0];
    assert_eq!(first["author"], "Alice");
    assert_eq!(first["subject"], "Merge branch hotfix");
    assert!(
        v["answer"]["text"]
            .as_str()
            .unwrap_or("")
            .contains("Merge branch hotfix")
    );

    // A date window with no commit in it is an exact answer, not a failure.
    let (v, code) = ask_json(&dir, &["what changed in util.py since 2025-01-01?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["history"][0]["commits"].as_array().map(Vec::len), Some(0));
    assert!(
        v["answer"]["text"]
            .as_str()
            .unwrap_or("")
            .starts_with("No commit touched")
    );

    // An author the question names filters the commits.
    let (v, code) = ask_json(&dir, &["what did Carol change?"]);
    assert_eq!(code, 0, "{v}");
    let authors: Vec<&str> = v["history"][0]["commits"]
        .as_array()
        .expect("commits")
        .iter()
        .filter_map(|c| c["author"].as_str())
        .collect();
    assert!(
        !authors.is_empty() && authors.iter().all(|a| *a == "Carol"),
        "{authors:?}"
    );
}

/// Commits everything in `s`, dated `date`, by `author` ("Name <email>") when given.
fn commit_all(s: &Scratch, author: Option<&str>, date: &str, message: &str) {
    s.git(&["add", "-A"]);
    let mut args = vec!["commit", "-q", "--date", date, "-m", message];
    if let Some(a) = author {
        args.extend(["--author", a]);
    }
    s.git(&args);
}

/// Writes `content` to `rel` and commits everything at `date` with `message`.
fn commit_file(s: &Scratch, rel: &str, content: &str, date: &str, message: &str) {
    s.write(rel, content);
    commit_all(s, None, date, message);
}

/// Whether the answer `v` says it read the question as `reading`.
fn has_reading(v: &Value, reading: &str) -> bool {
    v["readings"]
        .as_array()
        .is_some_and(|r| r.iter().any(|x| x.as_str() == Some(reading)))
}

/// An author's month whose commits touch nothing the index holds: the answer is the
/// commits alone. The author and the month take every word of the question, and a query
/// with no word left must not fetch arbitrary chunks as "sources" (on sharkdp/bat it
/// listed translated READMEs and `SECURITY.md`).
#[test]
fn an_author_month_of_commits_outside_the_index_lists_no_unrelated_sources() {
    let s = Scratch::git_fixture("python");
    s.git(&["add", "-A"]);
    s.git(&["commit", "-qm", "the inventory app"]);
    // A file the index does not hold (binary), so the commit leads to no chunk.
    s.write(
        "assets/shelf.png",
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x01",
    );
    commit_all(
        &s,
        Some("Dana Scully <dana@example.com>"),
        "2024-03-06T12:00:00+00:00",
        "Add the shelf picture",
    );
    s.index();
    let (v, code) = ask_json(s.path(), &["what did Dana Scully change in March 2024?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(subjects(&v), ["Add the shelf picture"], "{v}");
    assert!(
        has_reading(&v, "read `Dana Scully` as an author, of 1 commit(s)"),
        "{v}"
    );
    assert_eq!(v["sources"], serde_json::json!([]), "{v}");
    // The commit list is the answer, as sure as one with chunks beside it.
    assert_eq!(v["confidence"]["label"], "High", "{v}");
}

/// "When was the pricing module added?" where only a benchmark defines `pricing`: the
/// question is about `inventory/pricing.py`, and the answer says it read it so (tqdm's
/// "when was the rich integration added?" answered with a benchmark method `rich`).
#[test]
fn a_name_only_benchmarks_define_is_read_as_the_module_named_after_it() {
    let s = Scratch::git_fixture("python");
    commit_all(&s, None, "2024-01-05T12:00:00+00:00", "The inventory app");
    s.write(
        "benchmarks/bench_shelves.py",
        "class Suite:\n    def pricing(self):\n        return 1\n",
    );
    commit_all(&s, None, "2024-02-05T12:00:00+00:00", "Time the shelves");
    s.index();
    let (v, code) = ask_json(s.path(), &["when was the pricing module added?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(subjects(&v)[0], "The inventory app", "{v}");
    assert!(
        has_reading(
            &v,
            "read `pricing` as the module `inventory/pricing.py` (only tests, examples or benchmarks define `pricing`)"
        ),
        "{v}"
    );
    // A name no module is named after keeps its definition.
    let (v, _) = ask_json(s.path(), &["when was `Suite` added?"]);
    assert_eq!(subjects(&v)[0], "Time the shelves", "{v}");
}

/// "When was the shelves package added?" where a function `shelves` is older than the
/// package `lib/shelves/`: the question calls the name a package, so it is about the folder
/// (attrs's "when was the attrs namespace package added?" answered with the 2016 commit of
/// the `attrs` function, not the 2021 one that added `src/attrs/`).
#[test]
fn a_name_the_question_calls_a_package_is_read_as_its_folder() {
    let s = Scratch::git_fixture("python");
    commit_all(&s, None, "2024-01-05T12:00:00+00:00", "The inventory app");
    s.write(
        "inventory/listing.py",
        "def shelves(store):\n    return list(store)\n",
    );
    commit_all(&s, None, "2024-02-05T12:00:00+00:00", "List the shelves");
    s.write(
        "lib/shelves/__init__.py",
        "from shelves.layout import plan\n",
    );
    s.write(
        "lib/shelves/layout.py",
        "def plan(rows):\n    return rows\n",
    );
    s.write("lib/racks/steel.py", "def load(rack):\n    return rack\n");
    commit_all(&s, None, "2024-03-05T12:00:00+00:00", "Lay out the shelves");
    s.index();
    let (v, code) = ask_json(s.path(), &["when was the shelves package added?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(subjects(&v)[0], "Lay out the shelves", "{v}");
    assert!(
        has_reading(
            &v,
            "read `shelves` as the module `lib/shelves`, which the question calls a package or module"
        ),
        "{v}"
    );
    // Called a function, the name keeps its definition.
    let (v, _) = ask_json(s.path(), &["when was the shelves function added?"]);
    assert_eq!(subjects(&v)[0], "List the shelves", "{v}");
    // "the steel rack": the module `steel` in the folder `racks/` (axios's "when was the
    // fetch adapter added?" for `lib/adapters/fetch.js`).
    let (v, _) = ask_json(s.path(), &["when was the steel rack added?"]);
    assert_eq!(subjects(&v)[0], "Lay out the shelves", "{v}");
    assert!(
        has_reading(&v, "read `steel rack` as the module `lib/racks/steel.py`"),
        "{v}"
    );
}

/// "When was rich_markup_mode added?" where `rich_markup_mode` is a parameter, no
/// definition or file (typer): the oldest commit whose changes add the text, as
/// `git log -S` finds, and the answer says it looked for text.
#[test]
fn a_name_no_definition_holds_was_introduced_by_the_commit_that_added_the_text() {
    let s = Scratch::git_fixture("python");
    commit_all(&s, None, "2024-01-05T12:00:00+00:00", "The inventory app");
    s.write(
        "app/render.py",
        "def render(shelf, markup_mode=None):\n    return str(shelf)\n",
    );
    commit_all(&s, None, "2024-02-05T12:00:00+00:00", "Render shelves");
    s.write(
        "app/render.py",
        "def render(shelf, markup_mode=None, rich_markup_mode=None):\n    return str(shelf)\n",
    );
    commit_all(
        &s,
        None,
        "2024-03-05T12:00:00+00:00",
        "Let callers choose the markup",
    );
    s.write(
        "app/render.py",
        "def render(shelf, rich_markup_mode=None):\n    return str(shelf)\n",
    );
    commit_all(
        &s,
        None,
        "2024-04-05T12:00:00+00:00",
        "Drop the old markup switch",
    );
    // While the history is read in part (the newest commit only, no background run), the
    // introducing commit is not in the index yet: git's own log names it.
    let partly = [
        ("LLMCTEST_HISTORY_SLICE", "1"),
        ("LLMCTEST_HISTORY_BUDGET_MS", "0"),
        ("LLMCTEST_HISTORY_BACKGROUND", "0"),
    ];
    let out = llmc_env(s.path(), &partly, &["index", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = llmc_env(
        s.path(),
        &partly,
        &[
            "ask",
            "--json",
            "--no-llm",
            "when was rich_markup_mode added?",
        ],
    );
    let v: Value = serde_json::from_str(&stdout(&out)).expect("one JSON document");
    assert!(
        v["warnings"]
            .to_string()
            .contains("history read back to 2024-04-05"),
        "{v}"
    );
    assert_eq!(subjects(&v), ["Let callers choose the markup"], "{v}");
    s.index();
    let (v, code) = ask_json(s.path(), &["when was rich_markup_mode added?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(subjects(&v), ["Let callers choose the markup"], "{v}");
    assert_eq!(v["history"][0]["pickaxe"], true, "{v}");
    let text = answer_text(&v);
    assert!(
        text.starts_with("`rich_markup_mode` was introduced in ")
            && text.contains("as `git log -Srich_markup_mode` finds"),
        "{text}"
    );
    // A definition's introduction is still read from the history's definitions.
    let (v, _) = ask_json(s.path(), &["when was `render` added?"]);
    assert_eq!(subjects(&v)[0], "Render shelves", "{v}");
    assert_eq!(v["history"][0]["pickaxe"], serde_json::Value::Null, "{v}");
}

/// "when was the --dry-run option added?": the option is named as written, not read as
/// the `options` definition its word is near, and git's pickaxe finds the commit that
/// added it.
#[test]
fn a_long_option_was_introduced_by_the_commit_that_added_it() {
    let s = Scratch::git_fixture("python");
    s.write(
        "app/cli.py",
        "import argparse\n\noptions = argparse.ArgumentParser()\n\
         options.add_argument(\"--verbose\")\n",
    );
    commit_all(&s, None, "2024-01-05T12:00:00+00:00", "A command line");
    s.write(
        "app/cli.py",
        "import argparse\n\noptions = argparse.ArgumentParser()\n\
         options.add_argument(\"--verbose\")\noptions.add_argument(\"--dry-run\")\n",
    );
    commit_all(
        &s,
        None,
        "2024-02-05T12:00:00+00:00",
        "Rehearse without writing",
    );
    s.write(
        "app/cli.py",
        "import argparse\n\noptions = argparse.ArgumentParser(prog=\"inventory\")\n\
         options.add_argument(\"--verbose\")\noptions.add_argument(\"--dry-run\")\n",
    );
    commit_all(&s, None, "2024-03-05T12:00:00+00:00", "Name the program");
    s.index();
    let (v, code) = ask_json(s.path(), &["when was the --dry-run option added?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["history"][0]["target"], "--dry-run", "{v}");
    assert_eq!(subjects(&v), ["Rehearse without writing"], "{v}");
    assert_eq!(v["history"][0]["pickaxe"], true, "{v}");
}

/// "when was the jws module removed?": the word names no file of the tree, but a file
/// the history saw deleted; its log, newest first, opens with the commit that deleted it.
#[test]
fn a_removed_module_is_found_among_the_files_the_history_deleted() {
    let s = Scratch::git_fixture("python");
    commit_file(
        &s,
        "app/jws.py",
        "def sign_token(payload):\n    return payload\n",
        "2024-01-05T12:00:00+00:00",
        "Add token signing",
    );
    commit_file(
        &s,
        "app/jws.py",
        "def sign_token(payload):\n    \"\"\"Deprecated.\"\"\"\n    return payload\n",
        "2024-02-05T12:00:00+00:00",
        "Deprecate token signing",
    );
    s.git(&["rm", "-q", "app/jws.py"]);
    commit_all(
        &s,
        None,
        "2024-03-05T12:00:00+00:00",
        "Drop deprecated code",
    );
    s.index();
    let (v, code) = ask_json(s.path(), &["when was the jws module removed?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["history"][0]["target"], "app/jws.py", "{v}");
    assert_eq!(
        subjects(&v),
        [
            "Drop deprecated code",
            "Deprecate token signing",
            "Add token signing"
        ],
        "{v}"
    );
    assert_eq!(v["confidence"]["label"], "High", "{v}");
}

/// "when did Signer start accepting secret keys?": of the commits that touched the
/// definition, the one whose subject says so comes first, not the newest.
#[test]
fn a_change_told_in_words_beside_a_name_leads_its_log() {
    let s = Scratch::git_fixture("python");
    commit_file(
        &s,
        "app/signer.py",
        "class Signer:\n    def __init__(self, key):\n        self.key = key\n",
        "2024-01-05T12:00:00+00:00",
        "Add a signer",
    );
    commit_file(
        &s,
        "app/signer.py",
        "class Signer:\n    def __init__(self, keys):\n        self.keys = list(keys)\n",
        "2024-02-05T12:00:00+00:00",
        "Signer can accept secret keys",
    );
    commit_file(
        &s,
        "app/signer.py",
        "class Signer:\n    \"\"\"Signs.\"\"\"\n\n    def __init__(self, keys):\n        self.keys = list(keys)\n",
        "2024-03-05T12:00:00+00:00",
        "Document the signer",
    );
    s.index();
    let (v, code) = ask_json(
        s.path(),
        &["when did Signer start accepting a list of secret keys?"],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["history"][0]["target"], "Signer", "{v}");
    assert_eq!(
        subjects(&v),
        [
            "Signer can accept secret keys",
            "Document the signer",
            "Add a signer"
        ],
        "{v}"
    );
    assert!(answer_text(&v).contains("first:"), "{v}");
}

/// "when did windowed get the step argument?": the commit says "keyword" where the
/// question says "argument" (as more-itertools' did). A word naming an input stands for
/// any other, so the commit that holds both it and "step" leads, not the newest of those
/// holding one.
#[test]
fn an_argument_asked_for_is_found_in_a_commit_that_calls_it_a_keyword() {
    let s = Scratch::git_fixture("python");
    for (date, message, def) in [
        (
            "2024-01-05T12:00:00+00:00",
            "Add windowed",
            "def windowed(seq, n):\n    return [seq[i:i + n] for i in range(len(seq))]\n",
        ),
        (
            "2024-02-05T12:00:00+00:00",
            "Add step keyword to windowed()",
            "def windowed(seq, n, step=1):\n    return [seq[i:i + n] for i in range(0, len(seq), step)]\n",
        ),
        (
            "2024-03-05T12:00:00+00:00",
            "Rename seq argument to iterable",
            "def windowed(iterable, n, step=1):\n    return [iterable[i:i + n] for i in range(0, len(iterable), step)]\n",
        ),
        (
            "2024-04-05T12:00:00+00:00",
            "Check for invalid step",
            "def windowed(iterable, n, step=1):\n    if step < 1:\n        raise ValueError(step)\n    return [iterable[i:i + n] for i in range(0, len(iterable), step)]\n",
        ),
    ] {
        commit_file(&s, "app/windows.py", def, date, message);
    }
    s.index();
    let (v, code) = ask_json(s.path(), &["when did windowed get the step argument?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["history"][0]["target"], "windowed", "{v}");
    assert_eq!(
        subjects(&v).first().map(String::as_str),
        Some("Add step keyword to windowed()"),
        "{v}"
    );
}

/// "when was the mode function added to stats?", "when was the jitter argument added to
/// backoff?": what was introduced is not the target but a thing the question names beside
/// it, so the oldest of the target's commits whose message names that thing answers, not
/// the target's first commit (as on boltons). The word is matched as written: "mode" is
/// not in "modules".
#[test]
fn an_introduction_of_a_thing_inside_a_target_is_the_commit_that_names_it() {
    let s = Scratch::git_fixture("python");
    let stats = |extra: &str| {
        format!(
            "class Stats:\n    def __init__(self, data):\n        self.data = data\n\n    def mean(self):\n        return sum(self.data) / len(self.data)\n{extra}"
        )
    };
    let mode = "\n    def _calc_mode(self):\n        return max(set(self.data), key=self.data.count)\n\n    mode = property(_calc_mode)\n";
    let retry = |args: &str| {
        format!("def backoff({args}):\n    return [start * 2 ** i for i in range(count)]\n")
    };
    for (date, message, path, text) in [
        (
            "2024-01-05T12:00:00+00:00",
            "Add stats functions",
            "app/stats.py",
            stats(""),
        ),
        (
            "2024-01-06T12:00:00+00:00",
            "Add backoff",
            "app/retry.py",
            retry("start, count"),
        ),
        (
            "2024-02-05T12:00:00+00:00",
            "Split helpers into modules",
            "app/stats.py",
            stats("\n# helpers\n"),
        ),
        (
            "2024-03-05T12:00:00+00:00",
            "Add jitter to backoff",
            "app/retry.py",
            retry("start, count, jitter=False"),
        ),
        (
            "2024-04-05T12:00:00+00:00",
            "Add mode() for the most common value",
            "app/stats.py",
            stats(mode),
        ),
        (
            "2024-05-05T12:00:00+00:00",
            "Fix a typo",
            "app/stats.py",
            stats(&format!("{mode}# done\n")),
        ),
    ] {
        commit_file(&s, path, &text, date, message);
    }
    s.index();
    for (question, target, first) in [
        (
            "when was the mode function added to stats?",
            "app/stats.py",
            "Add mode() for the most common value",
        ),
        (
            "when was the jitter argument added to backoff?",
            "backoff",
            "Add jitter to backoff",
        ),
    ] {
        let (v, code) = ask_json(s.path(), &[question]);
        assert_eq!(code, 0, "{v}");
        assert_eq!(v["history"][0]["target"], target, "{v}");
        assert_eq!(subjects(&v).first().map(String::as_str), Some(first), "{v}");
        assert!(answer_text(&v).starts_with("The oldest commit of"), "{v}");
    }
}

/// "how does the app parse URLs?": a one-line constant whose value calls the function
/// that does it (`DEFAULT_PARSED_URL = parse_url('')`, as in boltons) matches the words
/// better than the function's long body; the function answers, the constant follows.
#[test]
fn a_constant_that_calls_a_function_gives_way_to_it_in_a_how_question() {
    let s = Scratch::git_fixture("python");
    let mut body = String::from(
        "import re\n\n_SCHEME_RE = re.compile(r'^([a-z][a-z0-9+.-]*):')\n\n\ndef parse_url(url_text):\n    \"\"\"Split the text of one address into its scheme, host, port and path.\"\"\"\n    m = _SCHEME_RE.match(url_text)\n    scheme = m.group(1) if m else ''\n    rest = url_text[len(scheme) + 1:] if scheme else url_text\n",
    );
    for part in [
        "host", "port", "path", "query", "fragment", "user", "password",
    ] {
        body.push_str(&format!(
            "    {part}, _, rest = rest.partition('/')\n    if not {part}:\n        {part} = None\n"
        ));
    }
    body.push_str("    return dict(scheme=scheme, host=host, port=port, path=path)\n\n\nDEFAULT_PARSED_URL = parse_url('')\n");
    s.write("app/urls.py", body);
    s.index();
    let (v, code) = ask_json(s.path(), &["how does the app parse URLs?"]);
    assert_eq!(code, 0, "{v}");
    let symbols = source_symbols(&v);
    let at = |name: &str| symbols.iter().position(|s| s == name);
    assert_eq!(at("parse_url"), Some(0), "{v}");
    assert!(at("DEFAULT_PARSED_URL").is_some(), "{v}");
}

/// "how does packaging detect the musl version?" (pypa/packaging): the record the
/// detection returns (`class _MuslVersion(NamedTuple)`, two fields) matched the words
/// better than the function that does the detecting, and was cited first.
#[test]
fn a_record_gives_way_to_the_function_that_returns_it_in_a_how_question() {
    let s = Scratch::git_fixture("python");
    s.write(
        "app/musl.py",
        "import re\nimport subprocess\nfrom typing import NamedTuple\n\n\nclass _MuslVersion(NamedTuple):\n    \"\"\"The musl version.\"\"\"\n    major: int\n    minor: int\n\n\ndef _get_musl_version(executable: str) -> _MuslVersion | None:\n    \"\"\"Run the loader to detect the libc it links.\"\"\"\n    proc = subprocess.run([executable], stderr=subprocess.PIPE, text=True)\n    lines = [n for n in (n.strip() for n in proc.stderr.splitlines()) if n]\n    if len(lines) < 2 or lines[0][:4] != 'musl':\n        return None\n    m = re.match(r'Version (\\d+)\\.(\\d+)', lines[1])\n    if not m:\n        return None\n    return _MuslVersion(major=int(m.group(1)), minor=int(m.group(2)))\n",
    );
    s.index();
    // "where is a requirement string parsed?" cited `ParsedRequirement` so.
    for q in [
        "how does the app detect the musl version?",
        "where is the musl version detected?",
    ] {
        let (v, code) = ask_json(s.path(), &[q]);
        assert_eq!(code, 0, "{v}");
        let symbols = source_symbols(&v);
        let at = |name: &str| symbols.iter().position(|s| s == name);
        assert_eq!(at("_get_musl_version"), Some(0), "{q}: {v}");
        assert!(at("_MuslVersion").is_some(), "{q}: {v}");
    }
}

/// "how are HTTP request headers parsed?" (benoitc/gunicorn) cited the error
/// `LimitRequestHeaders`, whose name is the question's words, before the method that
/// parses the headers and raises it. A question about the error keeps the error first.
#[test]
fn an_error_gives_way_to_the_function_that_raises_it_in_a_how_question() {
    let s = Scratch::git_fixture("python");
    s.write(
        "app/http_errors.py",
        "class ParseError(Exception):\n    pass\n\n\nclass LimitRequestHeaders(ParseError):\n    \"\"\"Too many request headers, or a request header too large.\"\"\"\n\n    def __init__(self, msg):\n        self.msg = msg\n",
    );
    s.write(
        "app/http_message.py",
        "from app.http_errors import LimitRequestHeaders\n\n\nclass Message:\n    def __init__(self, limit):\n        self.limit = limit\n\n    def parse_headers(self, data):\n        out = []\n        for line in data.split(b'\\r\\n'):\n            if not line:\n                break\n            if len(out) >= self.limit:\n                raise LimitRequestHeaders('limit request headers fields')\n            name, _, value = line.partition(b':')\n            out.append((name.strip().upper(), value.strip()))\n        return out\n",
    );
    s.index();
    for (q, first) in [
        (
            "how are HTTP request headers parsed?",
            "Message.parse_headers",
        ),
        (
            "which error is raised for too many request headers?",
            "LimitRequestHeaders",
        ),
    ] {
        let (v, code) = ask_json(s.path(), &[q]);
        assert_eq!(code, 0, "{v}");
        let symbols = source_symbols(&v);
        assert_eq!(symbols.first().map(String::as_str), Some(first), "{q}: {v}");
    }
}

/// "where are inline tables parsed?" (python-poetry/tomlkit) cited the `InlineTable`
/// class, whose docstrings say "inline tables" over and over, before
/// `Parser._parse_inline_table`, whose name the question spells in prose.
#[test]
fn a_function_whose_name_the_question_spells_comes_first() {
    let s = Scratch::git_fixture("python");
    s.write(
        "app/toml.py",
        "class InlineTable(dict):\n    \"\"\"An inline table: inline tables are kept inline, as tables are written.\"\"\"\n\n    def as_string(self):\n        \"\"\"The inline table as written: inline tables on one line, like tables.\"\"\"\n        return '{' + ', '.join(f'{k} = {v}' for k, v in self.items()) + '}'\n\n\nclass Parser:\n    def __init__(self, src):\n        self._src = src\n        self._idx = 0\n\n    def _parse_inline_table(self):\n        self._idx += 1\n        out = InlineTable()\n        while self._src[self._idx] != '}':\n            key, _, rest = self._src[self._idx:].partition('=')\n            value, _, _ = rest.partition(',')\n            out[key.strip()] = value.strip()\n            self._idx += len(key) + len(value) + 2\n        return out\n",
    );
    s.index();
    for q in [
        "where are inline tables parsed?",
        "how are inline tables parsed?",
    ] {
        let (v, code) = ask_json(s.path(), &[q]);
        assert_eq!(code, 0, "{v}");
        let symbols = source_symbols(&v);
        assert_eq!(
            symbols.first().map(String::as_str),
            Some("Parser._parse_inline_table"),
            "{q}: {v}"
        );
    }
}

/// "how does evolve create a changed copy of an instance?" (python-attrs/attrs) cited
/// `__init__.pyi`'s one-line stub of `evolve` before `_make.py`'s `evolve`, which does
/// it. The implementation comes first; a question about the stub's types keeps the stub.
#[test]
fn an_implementation_comes_before_its_type_stub() {
    let s = Scratch::git_fixture("python");
    s.write(
        "app/__init__.pyi",
        "def evolve(inst: _T, **changes: Any) -> _T: ...\n",
    );
    s.write(
        "app/_make.py",
        "def evolve(*args, **changes):\n    \"\"\"\n    Make a new object of the same class as the one given, with some fields\n    replaced by the keyword arguments.\n\n    Args:\n        inst: The object to start from; it is not modified.\n        changes: Keyword arguments naming the fields to replace.\n\n    Returns:\n        A fresh object of the class of *inst*.\n\n    Raises:\n        TypeError: When no object is given, or more than one.\n        AttributeError: When a keyword names no field.\n    \"\"\"\n    try:\n        (inst,) = args\n    except ValueError:\n        msg = f\"evolve() takes 1 positional argument, but {len(args)} were given\"\n        raise TypeError(msg) from None\n    cls = inst.__class__\n    for field in fields(cls):\n        if not field.init:\n            continue\n        if field.alias not in changes:\n            changes[field.alias] = getattr(inst, field.name)\n    return cls(**changes)\n",
    );
    s.index();
    let first = |q: &str| first_source_path(s.path(), q);
    assert_eq!(
        first("how does evolve create a changed copy of an instance?"),
        "app/_make.py"
    );
    assert_eq!(first("how is evolve typed?"), "app/__init__.pyi");
}

/// "where is a plugin registered?" (pytest-dev/pluggy) cited `is_registered`, whose one
/// docstring line says "whether the plugin is already registered", at High, before
/// `register`, which registers it. A question that asks whether keeps the predicate.
#[test]
fn the_function_that_does_it_comes_before_the_predicate_that_tells_it_was_done() {
    let s = Scratch::git_fixture("python");
    s.write("app/plugins.py", "class PluginManager:\n    \"\"\"Holds the plugins and the hooks they implement.\"\"\"\n\n    def __init__(self):\n        self._name2plugin = {}\n        self._hooks = {}\n\n    def register(self, plugin, name=None):\n        \"\"\"Register a plugin and return its name.\"\"\"\n        name = name or getattr(plugin, \"__name__\", None) or str(id(plugin))\n        if name in self._name2plugin:\n            raise ValueError(f\"Plugin name already registered: {name}\")\n        self._name2plugin[name] = plugin\n        for attr in dir(plugin):\n            impl = getattr(plugin, attr)\n            if callable(impl) and not attr.startswith(\"_\"):\n                self._hooks.setdefault(attr, []).append(impl)\n        return name\n\n    def is_registered(self, plugin):\n        \"\"\"Return whether the plugin is already registered.\"\"\"\n        return plugin in self._name2plugin.values()\n\n    def get_plugins(self):\n        \"\"\"Return a set of all registered plugin objects.\"\"\"\n        return set(self._name2plugin.values())\n");
    s.index();
    let first = |q: &str| {
        let (v, code) = ask_json(s.path(), &[q]);
        assert_eq!(code, 0, "{v}");
        source_symbols(&v).first().cloned().unwrap_or_default()
    };
    assert_eq!(
        first("where is a plugin registered?"),
        "PluginManager.register"
    );
    assert_eq!(
        first("how do I know whether a plugin is registered?"),
        "PluginManager.is_registered"
    );
}

/// "how does pastel parse a color string like hsl(…)?" (sharkdp/pastel): its tests sit
/// beside the parser as top-level `#[test]` functions whose names do not say "test", and
/// one of them, full of the question's words, was cited first. Its attribute marks it.
#[test]
fn a_test_known_by_its_attribute_gives_way_to_the_code() {
    let s = Scratch::git_fixture("rust");
    s.write(
        "src/color.rs",
        "pub struct Color { pub h: f64, pub s: f64, pub l: f64 }\n\n\
         /// Parses `hsl(h, s%, l%)`.\n\
         pub fn parse_hsl(input: &str) -> Option<Color> {\n\
         \x20   let inner = input.trim().strip_prefix(\"hsl(\")?.strip_suffix(')')?;\n\
         \x20   let mut parts = inner.split(',').map(|p| p.trim().trim_end_matches('%'));\n\
         \x20   let h = parts.next()?.parse().ok()?;\n\
         \x20   let s = parts.next()?.parse().ok()?;\n\
         \x20   let l = parts.next()?.parse().ok()?;\n\
         \x20   Some(Color { h, s, l })\n\
         }\n\n\
         #[test]\n\
         fn parse_hsl_syntax() {\n\
         \x20   assert!(parse_hsl(\"hsl(280,20%,50%)\").is_some());\n\
         \x20   assert!(parse_hsl(\"hsl(280, 20%, 50%)\").is_some());\n\
         \x20   assert!(parse_hsl(\"hsl(color string)\").is_none());\n\
         \x20   assert!(parse_hsl(\"parse a color string\").is_none());\n\
         }\n",
    );
    s.index();
    let q = "how does the parser parse a color string like hsl?";
    let (v, code) = ask_json(s.path(), &[q]);
    assert_eq!(code, 0, "{v}");
    let symbols = source_symbols(&v);
    assert_eq!(
        symbols.first().map(String::as_str),
        Some("parse_hsl"),
        "{v}"
    );
}

/// A small JSON library in the shape of DaveGamble/cJSON: its API functions all named
/// `tinyjson_…`, the parser's `parse_number` static in `tinyjson.c`, and
/// `tests/parse_number.c` full of tests named after it. The repository is a directory
/// named `tinyjson` (its name is the project's) inside the scratch directory.
fn tinyjson(tests: usize) -> (Scratch, std::path::PathBuf) {
    let s = Scratch::empty();
    let root = s.path().join("tinyjson");
    let mut api = String::new();
    for (name, what) in [
        ("IsNumber", "whether the item is a number"),
        ("IsString", "whether the item is a string"),
        ("CreateNumber", "a new number item"),
        ("CreateString", "a new string item"),
        ("GetNumberValue", "the number an item holds"),
        ("SetNumberValue", "sets the number an item holds"),
    ] {
        api.push_str(&format!(
            "/* tinyjson_{name}: {what}. */\ntinyjson *tinyjson_{name}(tinyjson *item)\n{{\n    if (item == NULL) {{\n        return NULL;\n    }}\n    return tinyjson_Check(item, tinyjson_Number);\n}}\n\n"
        ));
    }
    // The parser reads the characters a number may hold one case a line, as cJSON's does:
    // a long function.
    let mut copy = String::new();
    for c in "0123456789+-eE.".chars() {
        copy.push_str(&format!(
            "        case '{c}':\n            buffer[length] = input[length];\n            break;\n"
        ));
    }
    let files = [
        (
            "tinyjson.h",
            "#define tinyjson_Number 8\n#define tinyjson_String 16\n\ntypedef struct tinyjson {\n    int type;\n    double valuedouble;\n    char *valuestring;\n} tinyjson;\n"
                .to_string(),
        ),
        (
            "tinyjson.c",
            format!(
                "#include <stdlib.h>\n#include \"tinyjson.h\"\n\n{api}/* Parse the input text to generate a number, and populate the result into item. */\nstatic int parse_number(tinyjson *item, const char *input)\n{{\n    char *after_end = NULL;\n    char buffer[64];\n    size_t length = 0;\n    for (length = 0; length < 63 && input[length] != '\\0'; length++) {{\n        switch (input[length]) {{\n{copy}        default:\n            goto loop_end;\n        }}\n    }}\nloop_end:\n    buffer[length] = '\\0';\n    double number = strtod(buffer, &after_end);\n    if (buffer == after_end) {{\n        return 0;\n    }}\n    item->valuedouble = number;\n    item->type = tinyjson_Number;\n    return 1;\n}}\n"
            ),
        ),
        ("tests/parse_number.c", {
            let mut t = String::from("#include \"../tinyjson.c\"\n\nstatic void assert_parse_number(const char *string, double real)\n{\n    tinyjson item;\n    TEST_ASSERT_TRUE(parse_number(&item, string));\n    TEST_ASSERT_EQUAL_DOUBLE(real, item.valuedouble);\n}\n\n");
            for i in 0..tests {
                t.push_str(&format!(
                    "static void parse_number_should_parse_case_{i}(void)\n{{\n    /* number {i} is parsed */\n    assert_parse_number(\"{i}\", {i});\n}}\n\n"
                ));
            }
            t
        }),
    ];
    for (rel, text) in files {
        s.write(&format!("tinyjson/{rel}"), text);
    }
    for args in [
        &["init", "-q"][..],
        &["add", "-A"],
        &["commit", "-qm", "tinyjson"],
    ] {
        git_in(&root, args);
    }
    let out = llmc_in(&root, &["index", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
    (s, root)
}

/// "how is a number parsed?" on DaveGamble/cJSON: the functions of `tests/parse_number.c`
/// held both lists, and `parse_number` was in neither, so halving the tests' scores could
/// not bring it up. When tests hold most of the first candidates, the code is searched
/// alone too.
#[test]
fn tests_that_crowd_the_lists_leave_room_for_the_code() {
    // As many tests as a list holds candidates, and more.
    let (_s, root) = tinyjson(40);
    let (v, code) = ask_json(&root, &["how is a number parsed?"]);
    assert_eq!(code, 0, "{v}");
    let symbols = source_symbols(&v);
    assert_eq!(
        symbols.first().map(String::as_str),
        Some("parse_number"),
        "{v}"
    );
}

/// "how does cJSON parse a number?" in cJSON's repository: the project's name matched the
/// `cJSON` struct and every `cJSON_…` function, and `parse_number` was in no list. A
/// question about code leaves the repository's name out of its search; a structural one
/// keeps it.
#[test]
fn the_repositorys_own_name_is_not_what_a_question_looks_for() {
    let (_s, root) = tinyjson(0);
    let (v, code) = ask_json(&root, &["how does tinyjson parse a number?"]);
    assert_eq!(code, 0, "{v}");
    let symbols = source_symbols(&v);
    assert_eq!(
        symbols.first().map(String::as_str),
        Some("parse_number"),
        "{v}"
    );
    let left_out = |v: &Value| {
        v["trace"][0]["reasons"]
            .to_string()
            .contains("repository's name")
    };
    assert!(left_out(&v), "{v}");
    let (v, _) = ask_json(&root, &["who calls tinyjson?"]);
    assert!(!left_out(&v), "{v}");
}

/// "when was dependency_groups added?" (pypa/packaging): no definition has the name, but
/// a module does (`dependency_groups.py`); its first commit introduced it. The text was
/// older (a marker's name in another file), and that commit was given.
#[test]
fn an_introduction_of_a_module_named_alone_is_the_first_commit_of_its_file() {
    let first = first_subject_after(
        &[
            (
                "app/markers.py",
                "MARKERS = ['extras', 'dependency_groups']\n",
                "2024-01-05T12:00:00+00:00",
                "Support the extras markers",
            ),
            (
                "app/dependency_groups.py",
                "def resolve_groups(table):\n    return {name: list(reqs) for name, reqs in table.items()}\n",
                "2024-03-05T12:00:00+00:00",
                "Add a module for groups of requirements",
            ),
            (
                "app/dependency_groups.py",
                "def resolve_groups(table):\n    return {name: sorted(reqs) for name, reqs in table.items()}\n",
                "2024-04-05T12:00:00+00:00",
                "Sort the requirements of a group",
            ),
        ],
        "when was dependency_groups added?",
    );
    assert_eq!(
        first.0.as_deref(),
        Some("Add a module for groups of requirements"),
        "{}",
        first.1
    );
}

/// "when was the colorcheck command added?" (sharkdp/pastel): the words name the command's
/// documentation (`colorcheck.md`), a file of another command (`command.py`) and the
/// command itself (`commands/colorcheck.py`, both words). The file that names the most of
/// them leads; the documentation led, as the first found.
#[test]
fn the_file_named_by_most_of_the_words_leads_a_history_answer() {
    let first = first_subject_after(
        &[
            (
                "app/command.py",
                "def run(argv):\n    return argv[0]\n",
                "2024-01-05T12:00:00+00:00",
                "Initial refactoring",
            ),
            (
                "app/commands/colorcheck.py",
                "def check(colors):\n    return [c for c in colors if c]\n",
                "2024-02-05T12:00:00+00:00",
                "Add 'colorcheck' subcommand",
            ),
            (
                "docs/colorcheck.md",
                "# Colorcheck\n\nShows whether the terminal shows colors.\n",
                "2024-03-05T12:00:00+00:00",
                "Add colorcheck documents",
            ),
        ],
        "when was the colorcheck command added?",
    );
    assert_eq!(
        first.0.as_deref(),
        Some("Add 'colorcheck' subcommand"),
        "{}",
        first.1
    );
}

/// "why were the classes split into separate files?" (commander.js): "why were" asks
/// history as "why was" does, and "files", a cue word in a question about code, is a word
/// of the messages here ("Refactor classes into files"). It was read as a locate question
/// in no memory's terms, and the commit was never looked for.
#[test]
fn why_were_asks_the_history_with_files_among_the_words() {
    let s = Scratch::git_fixture("python");
    commit_file(
        &s,
        "app/shapes.py",
        "class Square:\n    pass\n\n\nclass Circle:\n    pass\n",
        "2024-01-05T12:00:00+00:00",
        "Add shapes",
    );
    commit_file(
        &s,
        "app/circle.py",
        "class Circle:\n    pass\n",
        "2024-02-05T12:00:00+00:00",
        "Refactor classes into files",
    );
    s.index();
    let (v, code) = ask_json(
        s.path(),
        &["why were the classes split into separate files?"],
    );
    assert_eq!(code, 0, "{v}");
    assert!(
        v["intents"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|i| i == "history"),
        "{v}"
    );
    assert!(
        subjects(&v)
            .iter()
            .any(|m| m == "Refactor classes into files"),
        "{v}"
    );
}

/// "why was Python 3.8 support dropped?": the release is a word of the messages, written
/// after letters as often as not ("drop-py3.8-support"), never inside another ("3.80").
/// Without it the question's words were "python" and "support", and a commit that added
/// support for another Python came first, at High.
#[test]
fn a_release_a_why_question_names_is_looked_for_in_the_messages() {
    let s = Scratch::git_fixture("python");
    for (date, message, version) in [
        (
            "2024-01-05T12:00:00+00:00",
            "Add Python 3.8 to the test matrix",
            "3.8",
        ),
        (
            "2024-02-05T12:00:00+00:00",
            "Merge pull request #9 from a/drop-py3.8-support",
            "3.9",
        ),
        (
            "2024-03-05T12:00:00+00:00",
            "Test on Python 3.80 nightly",
            "3.80",
        ),
        (
            "2024-04-05T12:00:00+00:00",
            "Add support for Python 3.13",
            "3.13",
        ),
        (
            "2024-05-05T12:00:00+00:00",
            "Add support for Python 3.14",
            "3.14",
        ),
    ] {
        commit_file(
            &s,
            "tox.ini",
            &format!("[tox]\nenvlist = py{version}\n"),
            date,
            message,
        );
    }
    s.index();
    let (v, code) = ask_json(s.path(), &["why was Python 3.8 support dropped?"]);
    assert_eq!(code, 0, "{v}");
    let listed = subjects(&v);
    assert_eq!(
        listed.first().map(String::as_str),
        Some("Merge pull request #9 from a/drop-py3.8-support"),
        "{v}"
    );
    assert!(!listed.iter().any(|m| m.contains("3.80")), "{v}");
}

/// "why was the app parameter deprecated?" is about `app`: a commit that deprecated
/// another parameter, and names an app only in its body, came first on encode/httpx.
#[test]
fn a_why_question_weighs_the_thing_it_names_above_the_kind_of_thing() {
    let (first, v) = first_subject_after(
        &[
            (
                "cli.py",
                "PROXY = None\n",
                "2024-01-05T12:00:00+00:00",
                "Add the proxy parameter and deprecate proxies\n\n* Use proxy in the CLI app",
            ),
            (
                "client.py",
                "APP = None\n",
                "2024-02-05T12:00:00+00:00",
                "Deprecate `app=...` in favour of explicit transports",
            ),
            (
                "cli.py",
                "PROXY = 1\n",
                "2024-03-05T12:00:00+00:00",
                "Add a timeout parameter",
            ),
            (
                "cli.py",
                "PROXY = 2\n",
                "2024-04-05T12:00:00+00:00",
                "Document the verbose flag",
            ),
            (
                "client.py",
                "APP = 1\n",
                "2024-05-05T12:00:00+00:00",
                "Apply the app settings on start",
            ),
        ],
        "why was the app parameter deprecated?",
    );
    assert_eq!(
        first.as_deref(),
        Some("Deprecate `app=...` in favour of explicit transports"),
        "{v}"
    );
}

/// The reasons the trace of `v` gives at `stage` (`retrieve`, `expand`, …).
fn stage_reasons(v: &Value, stage: &str) -> Vec<String> {
    v["trace"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| t["stage"] == stage)
        .flat_map(|t| t["reasons"].as_array().cloned().unwrap_or_default())
        .filter_map(|r| r.as_str().map(str::to_string))
        .collect()
}

/// The python fixture with `commits` (path, content, author date, message) made in
/// order and indexed, then asked `question` (which must answer, exit 0): the subject of
/// the history answer's first commit, and the answer.
fn first_subject_after(
    commits: &[(&str, &str, &str, &str)],
    question: &str,
) -> (Option<String>, Value) {
    let s = Scratch::git_fixture("python");
    for (rel, content, date, message) in commits {
        commit_file(&s, rel, content, date, message);
    }
    s.index();
    let (v, code) = ask_json(s.path(), &[question]);
    assert_eq!(code, 0, "{v}");
    (subjects(&v).into_iter().next(), v)
}

fn subjects(v: &Value) -> Vec<String> {
    v["history"][0]["commits"]
        .as_array()
        .map(|cs| {
            cs.iter()
                .filter_map(|c| c["subject"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn answer_text(v: &Value) -> String {
    v["answer"]["text"].as_str().unwrap_or("").to_string()
}

/// History asked in plain words: an author and a month are read as such (and the
/// answer says how it read them), "when was X added" names the introducing commit, a
/// quoted message picks the commit for "why", and a cut list says how to see the rest.
#[test]
fn history_in_words_reads_authors_months_and_introductions() {
    let repo = fixture_history();
    let dir = repo_dir(&repo);

    let (v, code) = ask_json(&dir, &["what did Carol change in January 2024?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["intents"], serde_json::json!(["history"]), "{v}");
    assert_eq!(
        v["readings"],
        serde_json::json!([
            "read `january 2024` as 2024-01-01 to 2024-01-31",
            "read `Carol` as an author, of 4 commit(s)"
        ])
    );
    assert_eq!(
        subjects(&v),
        [
            "Check t in lerp",
            "Bring util back with a stable lerp",
            "Add mul",
            "Move clamp into calc"
        ]
    );
    // Shown in the human answer too, before it.
    let out = llmc_in(
        &dir,
        &[
            "ask",
            "--no-cache",
            "what did Carol change in January 2024?",
        ],
    );
    let text = stdout(&out);
    assert!(
        text.starts_with("(read `january 2024` as 2024-01-01 to 2024-01-31)"),
        "{text}"
    );
    assert!(
        text.contains("by Carol from 2024-01-01 to 2024-01-31"),
        "{text}"
    );

    // A month with no commit is an exact answer.
    let (v, code) = ask_json(&dir, &["which commits landed in March 2024?"]);
    assert_eq!(code, 0, "{v}");
    assert!(subjects(&v).is_empty(), "{v}");
    assert!(
        answer_text(&v).starts_with("No commit touched the repository from 2024-03-01"),
        "{v}"
    );

    // The introducing commit, oldest first, following the rename of its file.
    let (v, code) = ask_json(&dir, &["when was `sub` added?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(subjects(&v)[0], "Add calculator and helpers", "{v}");
    assert!(
        answer_text(&v).starts_with("`sub` was introduced in "),
        "{}",
        answer_text(&v)
    );
    let (v, _) = ask_json(&dir, &["which commit introduced `mul`?"]);
    assert_eq!(subjects(&v)[0], "Add mul", "{v}");

    // "Why", with the message quoted: that commit first.
    let (v, code) = ask_json(&dir, &["why did `lerp` change in \"Clamp t in lerp\"?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(subjects(&v)[0], "Clamp t in lerp", "{v}");

    // A cut list says how many more and the command that lists them all.
    let (v, _) = ask_json(&dir, &["what changed in January 2024?"]);
    let text = answer_text(&v);
    let total = v["history"][0]["total"].as_u64().expect("a total");
    assert!(total > 10, "{v}");
    let more = format!(
        "… and {} more: llmc log --since 2024-01-01 --until 2024-01-31 -n {total}",
        total - 10
    );
    assert!(text.contains(&more), "{text}");
    let out = llmc_in(
        &dir,
        &[
            "log",
            "--since",
            "2024-01-01",
            "--until",
            "2024-01-31",
            "-n",
            &total.to_string(),
            "--json",
        ],
    );
    let log: Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(
        log["commits"].as_array().map(Vec::len),
        Some(total as usize)
    );
}

#[test]
fn a_question_with_two_intents_answers_both() {
    let repo = fixture_history();
    let dir = repo_dir(&repo);
    let (v, code) = ask_json(&dir, &["what does clamp do and who changed it last?"]);
    assert_eq!(code, 0, "{v}");
    let intents: Vec<&str> = v["intents"]
        .as_array()
        .expect("intents")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        intents.contains(&"history") && intents.len() == 2,
        "{intents:?}"
    );
    let kind = v["answer"]["kind"].as_str().unwrap_or("");
    assert!(kind.contains("history"), "{kind}");
    assert!(source_symbols(&v).iter().any(|s| s == "clamp"), "{v}");
    assert!(
        !v["history"][0]["commits"]
            .as_array()
            .expect("commits")
            .is_empty()
    );
}

#[test]
fn concept_howto_and_locate_questions_rank_the_right_code_first() {
    let s = python();
    for (q, want) in [
        ("how is the weight of a shelf computed?", "shelf_weight"),
        ("where do we compute the VAT?", "apply_vat"),
        ("how do I load the stored items?", "load"),
    ] {
        let (v, code) = ask_json(s.path(), &[q]);
        assert_eq!(code, 0, "{q}: {v}");
        let top: Vec<String> = source_symbols(&v).into_iter().take(3).collect();
        assert!(
            top.iter().any(|t| t.ends_with(want)),
            "{q}: want {want} in the top 3, got {top:?}"
        );
    }
}

/// `@overload` stubs of a method come before its implementation in the file, and their
/// few lines can match a question's words best; the implementation, which does what is
/// asked, comes before them.
#[test]
fn the_implementation_comes_before_its_overload_stubs() {
    let s = Scratch::indexed_file(
        "signing/timed.py",
        "import time\nimport typing as t\n\n\nclass TimestampSigner:\n    \"\"\"Signs values with the time they were signed.\"\"\"\n\n\
         \x20   @t.overload\n    def unsign(self, value: str, max_age: int | None = None, \
         return_timestamp: t.Literal[False] = False) -> str: ...\n\n\
         \x20   @t.overload\n    def unsign(self, value: str, max_age: int | None = None, \
         return_timestamp: t.Literal[True] = True) -> tuple[str, int]: ...\n\n\
         \x20   def unsign(self, value, max_age=None, return_timestamp=False):\n\
         \x20       \"\"\"Unsigns the value; a signature older than the limit is refused.\"\"\"\n\
         \x20       value, stamp = value.rsplit(\".\", 1)\n\
         \x20       if max_age is not None:\n\
         \x20           age = int(time.time()) - int(stamp)\n\
         \x20           if age > max_age:\n\
         \x20               raise ValueError(f\"signature age {age} > {max_age} seconds\")\n\
         \x20       if return_timestamp:\n\
         \x20           return value, int(stamp)\n\
         \x20       return value\n",
    );
    let (v, code) = ask_json(
        s.path(),
        &["how does the timestamp signer check the max age?"],
    );
    assert_eq!(code, 0, "{v}");
    let unsign: Vec<u64> = v["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .filter(|s| s["symbol"] == "TimestampSigner.unsign")
        .filter_map(|s| s["start_line"].as_u64())
        .collect();
    assert_eq!(unsign, [14, 8, 11], "{v}");
}

/// A sentence pasted into the question (a doc comment, a message) finds the code that
/// holds it as written, above a chunk whose words match it more often.
#[test]
fn a_sentence_held_as_written_is_the_first_source() {
    let s = Scratch::indexed_file(
        "conv.py",
        r#""""Paths of routes and their converters."""

CONVERTER_PATTERN = "{name:converter}"


def remove_converter_from_path_pattern(path, converter):
    # The converter of a path pattern: remove it from the path, converter by converter.
    for part in path.split("/"):
        if converter in part:
            path = path.replace(part, part.split(":")[0])
    return path


def strip_param(template):
    """Remove the converter from the path."""
    return template.split(":")[0] + "}"


def converter_names(path):
    """The names of the converters in a path pattern, in order."""
    return [part.split(":")[1] for part in path.split("/") if ":" in part]
"#,
    );
    let (v, code) = ask_json(s.path(), &["Remove the converter from the path."]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(source_symbols(&v)[0], "strip_param", "{v}");
    assert_eq!(v["confidence"]["verbatim"], 1.0, "{v}");
    // Words that only resemble it do not count.
    let (v, _) = ask_json(s.path(), &["remove a converter from some path"]);
    assert_eq!(v["confidence"]["verbatim"], 0.0, "{v}");
    // Asked for "the code for" what the sentence names.
    let (v, _) = ask_json(
        s.path(),
        &["where is the code for the names of the converters in a path pattern, in order?"],
    );
    assert_eq!(source_symbols(&v)[0], "converter_names", "{v}");
    assert_eq!(v["confidence"]["verbatim"], 1.0, "{v}");
    // "the code that removes …" is the code that says "Remove …".
    let (v, _) = ask_json(
        s.path(),
        &["where is the code that removes the converter from the path?"],
    );
    assert_eq!(source_symbols(&v)[0], "strip_param", "{v}");
    assert_eq!(v["confidence"]["verbatim"], 1.0, "{v}");
    // Asked how the code that says it does it, after the subject or before "work".
    for q in [
        "how does it remove the converter from the path?",
        "how does conv remove the converter from the path?",
    ] {
        let (v, code) = ask_json(s.path(), &[q]);
        assert_eq!(code, 0, "{q}: {v}");
        assert_eq!(v["intents"][0], "concept", "{q}: {v}");
        assert_eq!(source_symbols(&v)[0], "strip_param", "{q}: {v}");
        assert_eq!(v["confidence"]["verbatim"], 1.0, "{q}: {v}");
    }
    for q in [
        "how do the names of the converters in a path pattern work?",
        "explain the names of the converters in a path pattern",
    ] {
        let (v, _) = ask_json(s.path(), &[q]);
        assert_eq!(v["intents"][0], "concept", "{q}: {v}");
        assert_eq!(source_symbols(&v)[0], "converter_names", "{q}: {v}");
        assert_eq!(v["confidence"]["verbatim"], 1.0, "{q}: {v}");
    }
}

/// A Rust `#[test]` function in a source file is a test though its path is not: a
/// question about how the code works is answered by the code first.
#[test]
fn a_test_beside_the_code_ranks_below_it() {
    let s = Scratch::indexed_file(
        "src/outliers.rs",
        r#"/// The number of outliers detected among the samples: values far from the rest.
pub fn num_outliers(xs: &[f64]) -> usize {
    let m = median(xs);
    xs.iter().filter(|x| (*x - m).abs() > 3.0 * spread(xs)).count()
}

fn median(xs: &[f64]) -> f64 {
    xs[xs.len() / 2]
}

fn spread(xs: &[f64]) -> f64 {
    xs.iter().map(|x| (x - median(xs)).abs()).sum::<f64>() / xs.len() as f64
}

#[test]
fn test_detect_outliers() {
    // Outliers are detected in a sample with one far value; no outliers are detected
    // in a flat sample.
    assert_eq!(num_outliers(&[1.0, 1.0, 1.0, 50.0]), 1);
    assert_eq!(num_outliers(&[1.0, 1.0, 1.0]), 0);
}
"#,
    );
    let (v, code) = ask_json(s.path(), &["how are outliers detected?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        source_symbols(&v)[..2],
        ["num_outliers", "test_detect_outliers"],
        "{v}"
    );
    // Asked about the tests, the test comes first.
    let (v, _) = ask_json(
        s.path(),
        &["how do the tests check that outliers are detected?"],
    );
    assert_eq!(source_symbols(&v)[0], "test_detect_outliers", "{v}");
}

/// A benchmark ranks below the code it measures, unless the question asks about
/// benchmarks; a `benchmark` directory inside `src/` is implementation (a benchmarking
/// tool's own code), not a benchmark.
#[test]
fn a_benchmark_ranks_below_the_code_but_src_benchmark_is_code() {
    let s = Scratch::empty();
    s.write(
        "src/benchmark/mod.rs",
        "/// Summarize the timing samples of one command: their mean.\npub fn summarize(samples: &[f64]) -> f64 {\n    samples.iter().sum::<f64>() / samples.len() as f64\n}\n",
    );
    s.write(
        "benches/summary.rs",
        "/// How long the mean of two samples takes.\nfn bench_mean() {\n    for _ in 0..1000 {\n        summarize(&[1.0, 2.0]);\n    }\n}\n",
    );
    s.index();
    let demoted = |v: &Value| {
        stage_reasons(v, "expand")
            .into_iter()
            .find(|r| r.contains("test, fixture or example"))
    };
    let (v, code) = ask_json(s.path(), &["where are the timing samples summarized?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(source_symbols(&v)[..2], ["summarize", "bench_mean"], "{v}");
    assert_eq!(
        demoted(&v).as_deref(),
        Some("1 test, fixture or example chunk(s) at × 0.3: the question is not about tests"),
        "{v}"
    );
    let (v, _) = ask_json(
        s.path(),
        &["where is the benchmark that summarizes timing samples?"],
    );
    assert_eq!(demoted(&v), None, "{v}");
}

/// "how does saveSnapshot write the file?" is about the function it names: its
/// definition comes first, above the guide that repeats the question's words.
#[test]
fn a_concept_question_about_a_named_function_is_answered_by_it_first() {
    let s = Scratch::empty();
    s.write(
        "docs/snapshots.md",
        "# Snapshots\n\n## saveSnapshot\n\nsaveSnapshot writes the file: call saveSnapshot to write the file of a snapshot, and the file is written where the snapshot says.\n",
    );
    s.write(
        "src/snapshot.ts",
        "import { writeFileSync } from \"fs\";\n\nexport function saveSnapshot(path: string, data: string) {\n  writeFileSync(path, JSON.stringify({ data }));\n}\n\nexport function loadSnapshot(path: string) {\n  return path;\n}\n",
    );
    s.index();
    let (v, code) = ask_json(s.path(), &["how does saveSnapshot write the file?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["intents"], serde_json::json!(["concept"]), "{v}");
    assert_eq!(
        source_symbols(&v).first().map(String::as_str),
        Some("saveSnapshot"),
        "{v}"
    );
    assert_eq!(v["sources"][0]["path"], "src/snapshot.ts", "{v}");
}

/// A function called from more places than an answer lists: the answer counts them all
/// and says how to see the rest, not the length of the list it kept.
#[test]
fn a_cut_list_of_callers_counts_them_all() {
    let mut calls = String::from("def tick():\n    return 1\n\n\ndef run():\n");
    for _ in 0..230 {
        calls.push_str("    tick()\n");
    }
    let s = Scratch::indexed_file("clock.py", &calls);
    let (v, code) = ask_json(s.path(), &["who calls tick?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["graph"][0]["total"], 230, "{v}");
    let text = v["answer"]["text"].as_str().unwrap_or("");
    assert!(text.contains("is called from 230 place(s)"), "{text}");
    assert!(
        text.contains("… and 210 more: llmc graph callers tick --limit 230"),
        "{text}"
    );
}

#[test]
fn a_comparison_covers_both_sides() {
    let s = python();
    let (v, code) = ask_json(
        s.path(),
        &["what is the difference between Item.total_weight and Shelf.weight?"],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["intents"], serde_json::json!(["compare"]));
    let syms = source_symbols(&v);
    assert!(syms.iter().any(|s| s == "Item.total_weight"), "{syms:?}");
    assert!(syms.iter().any(|s| s == "Shelf.weight"), "{syms:?}");
    assert_eq!(v["confidence"]["coverage"], 1.0);
}

/// "who calls zip_equal?" after zip_equal was removed: the answer says no definition has
/// the name and which commit removed it, not "related code was found, but not what you
/// asked" (more-itertools).
#[test]
fn a_graph_question_about_a_removed_name_says_it_is_defined_nowhere_and_who_removed_it() {
    let s = Scratch::git_fixture("python");
    commit_file(
        &s,
        "app/zips.py",
        "def zip_equal(*its):\n    return list(zip(*its))\n\n\ndef zip_offset(*its):\n    return list(zip(*its))\n",
        "2024-01-05T12:00:00+00:00",
        "Add zip helpers",
    );
    commit_file(
        &s,
        "app/zips.py",
        "def zip_offset(*its):\n    return list(zip(*its))\n",
        "2024-02-05T12:00:00+00:00",
        "Drop the deprecated helper",
    );
    s.index();
    let (v, code) = ask_json(s.path(), &["who calls zip_equal?"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["status"], "abstained", "{v}");
    assert_eq!(v["abstention"]["reason"], "not_defined", "{v}");
    let message = v["abstention"]["message"].as_str().unwrap_or("");
    assert!(
        message.starts_with("No definition named `zip_equal` in this repository's code.")
            && message.contains("\"Drop the deprecated helper\") removed it."),
        "{v}"
    );
    // A name defined nowhere, ever: the first sentence alone.
    let (v, code) = ask_json(s.path(), &["who calls frobnicate_widgets?"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["abstention"]["reason"], "not_defined", "{v}");
    assert_eq!(
        v["abstention"]["message"],
        "No definition named `frobnicate_widgets` in this repository's code.",
        "{v}"
    );
}

#[test]
fn an_everyday_verb_the_repository_lacks_costs_no_confidence_and_a_feature_still_does() {
    let s = python();
    // "computed" is in no file: it says how the weight is had, not what is asked.
    let (v, code) = ask_json(s.path(), &["how is the total weight of a shelf computed?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["sources"][0]["symbol"], "Shelf.weight", "{v}");
    assert_eq!(v["confidence"]["coverage"], 1.0, "{v}");
    assert_eq!(v["confidence"]["label"], "Medium", "{v}");
    // "encrypt" is in no file either, and names a feature the repository lacks.
    let (v, _) = ask_json(s.path(), &["how is the total weight of a shelf encrypted?"]);
    assert!(
        v["confidence"]["coverage"].as_f64().unwrap_or(1.0) < 1.0,
        "{v}"
    );
    assert_eq!(v["confidence"]["label"], "Low", "{v}");
}

#[test]
fn a_generic_noun_the_repository_lacks_is_not_missing_and_another_noun_still_is() {
    let s = python();
    // "pieces" is in no file: the asker's word for a shelf's items, not a topic the
    // repository lacks.
    let (v, code) = ask_json(
        s.path(),
        &["how is the total weight of a shelf's pieces computed?"],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["sources"][0]["symbol"], "Shelf.weight", "{v}");
    assert_eq!(v["confidence"]["coverage"], 1.0, "{v}");
    let generic = v["confidence"]["score"].as_f64().unwrap_or(0.0);
    // "pallets" is in no file either, and is no generic noun: it is missing.
    let (v, _) = ask_json(
        s.path(),
        &["how is the total weight of a shelf's pallets computed?"],
    );
    assert!(
        v["confidence"]["coverage"].as_f64().unwrap_or(1.0) < 1.0,
        "{v}"
    );
    let other = v["confidence"]["score"].as_f64().unwrap_or(1.0);
    assert!(generic > other + 0.2, "{generic} against {other}");
}

#[test]
fn a_word_code_writes_short_is_found_and_covered_by_its_short_form() {
    let s = Scratch::git_fixture("python");
    s.write(
        "app/auth.py",
        "class TokenAuth:\n    \"\"\"Adds a bearer token to each request's headers.\"\"\"\n\n    \
         def apply(self, headers: dict) -> dict:\n        headers[\"Bearer\"] = self.token\n        \
         return headers\n",
    );
    s.index();
    // No file says "authentication": the code says `Auth`.
    let (v, code) = ask_json(s.path(), &["where is the authentication token added?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["sources"][0]["symbol"], "TokenAuth", "{v}");
    assert_eq!(v["confidence"]["coverage"], 1.0, "{v}");
}

#[test]
fn a_string_the_question_names_leads_to_the_code_that_holds_it() {
    let s = Scratch::git_fixture("python");
    s.write(
        "app/links.py",
        "class LinkHeader:\n    \"\"\"Builds the Link header: each link matches a rel.\"\"\"\n\n    \
         def header(self, links: list) -> str:\n        \"\"\"The header for links that match.\"\"\"\n        \
         return \", \".join(l for l in links if self.match(l))\n\n    \
         def match(self, link: str) -> bool:\n        return link.startswith(\"<\")\n",
    );
    s.write(
        "app/caching.py",
        "KINDS = (\"strong\", \"weak\")\n\n\n\
         def etag(env: dict, value: str, kind: str = \"strong\") -> int:\n    \
         # A request whose 'If-None-Match' names this tag gets a 304.\n    \
         if kind not in KINDS:\n        raise ValueError(\":strong or :weak expected\")\n    \
         if env.get(\"HTTP_IF_NONE_MATCH\") == value:\n        return 304\n    return 200\n",
    );
    s.write(
        "tests/test_caching.py",
        "def test_etag_matches():\n    env = {\"HTTP_IF_NONE_MATCH\": \"x\"}  # If-None-Match\n    \
         assert etag(env, \"x\") == 304\n",
    );
    s.index();
    // "header" and "match" name `LinkHeader` most; the header as written is in `etag`.
    for q in [
        "how is the If-None-Match header handled?",
        "where is ':strong or :weak expected' raised?",
    ] {
        let (v, code) = ask_json(s.path(), &[q]);
        assert_eq!(code, 0, "{q}: {v}");
        assert_eq!(v["sources"][0]["symbol"], "etag", "{q}: {v}");
    }
}

#[test]
fn a_name_qualified_by_its_module_in_words_leads_to_that_modules_definition() {
    let s = Scratch::git_fixture("rust");
    s.write(
        "src/blocking/client.rs",
        "/// Waits for each response, on a runtime of its own.\npub struct Client {\n    inner: Handle,\n}\n\nimpl Client {\n    /// Sends a request and waits.\n    pub fn send(&self) -> u16 {\n        self.inner.wait()\n    }\n}\n",
    );
    s.write(
        "src/nonblocking/client.rs",
        "/// A client whose requests are futures.\npub struct Client {\n    pool: Pool,\n}\n",
    );
    let mut tests = String::new();
    for case in [
        "works",
        "times_out",
        "retries",
        "follows_redirects",
        "keeps_alive",
    ] {
        tests.push_str(&format!(
            "#[test]\nfn blocking_client_{case}() {{\n    // The blocking client {case}.\n    \
             let client = blocking::Client::new();\n    assert!(client.send() > 0);\n}}\n\n"
        ));
    }
    s.write("tests/blocking.rs", &tests);
    s.write(
        "src/config.rs",
        "/// Settings the blocking client reads: the blocking client timeout and pool.\n\
         pub fn blocking_client_settings() -> Settings {\n    Settings::default()\n}\n",
    );
    s.index();
    // "blocking client": `Client` under `blocking/`, not the code and tests whose names
    // say it nor the other module's `Client`.
    let (v, code) = ask_json(s.path(), &["how does the blocking client work?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["sources"][0]["path"], "src/blocking/client.rs", "{v}");
    assert_eq!(v["sources"][0]["symbol"], "Client", "{v}");
    // A module's name is a whole part of the path: "blocking" is not "nonblocking".
    let (v, code) = ask_json(s.path(), &["how does the nonblocking client work?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["sources"][0]["path"], "src/nonblocking/client.rs", "{v}");
}

#[test]
fn an_out_of_scope_question_abstains_with_exit_code_1() {
    let s = python();
    let (v, code) = ask_json(
        s.path(),
        &["how do I configure the kubernetes ingress controller?"],
    );
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["status"], "abstained");
    assert_eq!(v["abstention"]["reason"], "no_match");
    assert!(v["sources"].as_array().is_some_and(Vec::is_empty));
    let out = s.llmc(&[
        "ask",
        "--no-cache",
        "how do I configure the kubernetes ingress controller?",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).starts_with("Not answered. Nothing in this repository matches"));
}

#[test]
fn refine_recovers_a_misspelled_or_restyled_name() {
    let s = python();
    // A misspelled name is read as the nearest defined one before retrieval, and the
    // answer says so.
    let (v, code) = ask_json(s.path(), &["who calls shelf_wieght?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        v["readings"],
        serde_json::json!([
            "read `shelf_wieght` as `shelf_weight`, a name this repository defines"
        ])
    );
    assert!(rows(&v, "callers").contains(&"app/report.py:19 shelf_report".to_string()));
    let out = llmc_in(s.path(), &["ask", "--no-cache", "who calls shelf_wieght?"]);
    assert!(
        stdout(&out).starts_with("(read `shelf_wieght` as `shelf_weight`"),
        "{}",
        stdout(&out)
    );

    // A name written as words: the run of words that joins into a defined name, said.
    let (v, code) = ask_json(s.path(), &["who calls shelf weight?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        v["readings"],
        serde_json::json!([
            "read `shelf weight` as `shelf_weight`, a name this repository defines"
        ])
    );
    assert!(rows(&v, "callers").contains(&"app/report.py:19 shelf_report".to_string()));

    // "Where is X implemented?" with X in words is a definition question once X is a
    // defined name; without such a name it stays a question to locate.
    let (v, code) = ask_json(s.path(), &["where is the shelf report implemented?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["intents"], serde_json::json!(["definition"]), "{v}");
    assert_eq!(v["sources"][0]["symbol"], "shelf_report", "{v}");
    let (v, _) = ask_json(s.path(), &["where is the payment refund implemented?"]);
    assert_eq!(v["intents"], serde_json::json!(["locate"]), "{v}");

    // camelCase for a snake_case name: split-identifiers finds it.
    let (v, code) = ask_json(s.path(), &["who calls shelfWeight?"]);
    assert_eq!(code, 0, "{v}");
    assert!(rows(&v, "callers").contains(&"app/report.py:19 shelf_report".to_string()));
    assert!(v["refine"].as_array().is_some_and(|a| !a.is_empty()));
}

#[test]
fn a_name_asked_about_alone_is_answered_by_its_definition() {
    let s = python();
    // "what does X do?" around one defined name asks what "what is X?" asks, and says so.
    let (v, code) = ask_json(s.path(), &["what does `shelf_weight` do?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["intents"], serde_json::json!(["definition"]), "{v}");
    assert_eq!(
        v["readings"],
        serde_json::json!([
            "read as: the definition of `shelf_weight`, which the question names alone"
        ])
    );
    assert_eq!(v["sources"][0]["symbol"], "shelf_weight", "{v}");
    // A question with words of its own, or a name nothing defines, stays a concept question.
    for q in [
        "what does shelf_weight do with an empty shelf?",
        "how does frobnicate_all work?",
    ] {
        let (v, _) = ask_json(s.path(), &[q]);
        assert_eq!(v["intents"], serde_json::json!(["concept"]), "{q}: {v}");
    }
}

#[test]
fn a_name_defined_twice_is_answered_first_where_the_question_places_it() {
    let s = python();
    // `describe` is a method of Item (line 23) and of Shelf (line 45): the question says which.
    for (q, first) in [
        ("where is `describe` defined for Shelf?", "Shelf.describe"),
        ("where is `describe` defined for Item?", "Item.describe"),
    ] {
        let (v, code) = ask_json(s.path(), &[q]);
        assert_eq!(code, 0, "{q}: {v}");
        assert_eq!(v["sources"][0]["symbol"], first, "{q}: {v}");
        let text = v["answer"]["text"].as_str().unwrap_or_default();
        assert!(
            text.starts_with(&format!("{first} is a method")),
            "{q}: {text}"
        );
    }
}

/// The labelled set: routing accuracy, abstention on out-of-scope questions and false
/// abstention on answerable ones, over the nine fixtures, through the library.
#[test]
fn labelled_questions_route_and_abstain_as_labelled() {
    let text = std::fs::read_to_string(testdata().join("ask/questions.jsonl")).expect("set");
    let rows: Vec<Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("jsonl row"))
        .collect();
    assert!(rows.len() >= 150);
    let mut repos: std::collections::BTreeMap<String, Scratch> = Default::default();
    let (mut routed, mut oos, mut oos_abstained, mut answerable, mut false_abstained) =
        (0, 0, 0, 0, 0);
    let (mut weak, mut improved) = (0, 0);
    // The questions asked: those of fixtures this build parses.
    let mut asked = 0u32;
    let mut misses = Vec::new();
    let config = Config::default();
    for r in &rows {
        let repo = r["repo"].as_str().expect("repo");
        if !crate::util::built(repo) {
            continue;
        }
        asked += 1;
        let scratch = repos.entry(repo.to_string()).or_insert_with(|| {
            let s = Scratch::git_fixture(repo);
            s.git(&["add", "-A"]);
            s.git(&["commit", "-qm", "fixture"]);
            s.index();
            s
        });
        let q = r["question"].as_str().expect("question");
        let o: Outcome = ask::ask(
            scratch.path(),
            &config,
            &AskRequest {
                question: q.to_string(),
                k: None,
                no_cache: true,
                no_llm: true,
                scope: Default::default(),
            },
        )
        .expect("ask runs");
        let mut want: Vec<&str> = r["intents"]
            .as_array()
            .expect("intents")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let mut got: Vec<&str> = o.intents.iter().map(|i| i.as_str()).collect();
        want.sort_unstable();
        got.sort_unstable();
        if want == got {
            routed += 1;
        } else {
            misses.push(format!("route {q:?}: {got:?} != {want:?}"));
        }
        let abstained = o.status == "abstained";
        if r["answerable"] == true {
            answerable += 1;
            if abstained {
                false_abstained += 1;
                misses.push(format!("false abstention {repo}: {q:?}"));
            }
        } else {
            oos += 1;
            if abstained {
                oos_abstained += 1;
            } else {
                misses.push(format!("answered out of scope {repo}: {q:?}"));
            }
        }
        if !o.refine.is_empty() {
            weak += 1;
            improved += usize::from(o.refine.iter().any(|a| a.kept));
        }
    }
    let routing = f64::from(routed) / f64::from(asked);
    let oos_rate = f64::from(oos_abstained) / f64::from(oos);
    let false_rate = f64::from(false_abstained) / f64::from(answerable);
    println!(
        "labelled set: {asked} of {} questions (the others' fixtures are not built); routing \
         {routed}/{asked} = {routing:.3}; out-of-scope abstained {oos_abstained}/{oos} = \
         {oos_rate:.3}; false abstentions {false_abstained}/{answerable} = {false_rate:.3}; \
         refine improved {improved} of {weak} weak first retrievals",
        rows.len(),
    );
    for m in &misses {
        println!("  {m}");
    }
    assert!(routing >= 0.95, "routing {routing:.3}");
    assert!(oos_rate >= 0.90, "out-of-scope abstention {oos_rate:.3}");
    assert!(false_rate <= 0.05, "false abstention {false_rate:.3}");
}

#[test]
fn ask_indexes_a_repository_without_an_index_and_refreshes_a_stale_one() {
    let s = Scratch::git_fixture("python");
    let out = s.llmc(&["ask", "who calls apply_vat"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no index yet: indexing"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).contains("is called from"));

    // A new caller appears: the answer must include it.
    let path = s.path().join("app/extra.py");
    std::fs::write(
        &path,
        "from inventory.pricing import apply_vat\n\n\ndef with_tax(x):\n    return apply_vat(x)\n",
    )
    .expect("write");
    let (v, code) = ask_json(s.path(), &["who calls apply_vat"]);
    assert_eq!(code, 0);
    assert!(
        v["freshness"]["refreshed_files"].as_u64() >= Some(1),
        "{}",
        v["freshness"]
    );
    assert!(rows(&v, "callers").contains(&"app/extra.py:5 with_tax".to_string()));

    // --no-refresh answers from the index as it is, and says so.
    std::fs::write(&path, "def unrelated():\n    pass\n").expect("write");
    let out = s.llmc(&["ask", "--no-refresh", "--json", "who calls apply_vat"]);
    let v: Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(v["freshness"]["stale"], true);
    assert!(stderr(&out).contains("--no-refresh"));
}

/// Vectors made by another embedder than the configuration names (an upgraded llmc,
/// another `embed.dim` or model) are near no question: an ask embeds every chunk again
/// first and says why, instead of answering without its semantic memory while the files
/// look unchanged.
#[test]
fn an_ask_embeds_again_when_the_vectors_were_made_by_another_embedder() {
    let s = Scratch::git_fixture("python");
    // Every file and directory an hour old, so that nothing looks changed to the ask
    // but the vectors (a time in the second of the index run's check would).
    let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    fn age(p: &Path, past: std::time::SystemTime) {
        if p.is_dir() {
            for e in std::fs::read_dir(p).expect("read dir") {
                age(&e.expect("entry").path(), past);
            }
        }
        std::fs::File::open(p)
            .and_then(|f| f.set_modified(past))
            .expect("set mtime");
    }
    age(s.path(), past);
    let out = llmc_env(s.path(), &[("LLMC_EMBED_DIM", "64")], &["index", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
    age(s.path(), past);
    // `status` says so before the ask does it.
    let out = s.llmc(&["status", "--json"]);
    let status: Value = serde_json::from_str(&stdout(&out)).expect("status json");
    let why = status["read_again"].as_str().unwrap_or_default();
    assert!(why.contains("/64`"), "{status}");
    let question = "how does the report format an item with its price?";
    let out = s.llmc(&["ask", "--json", "--no-cache", question]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("re-indexed all") && stderr(&out).contains("/64`"),
        "{}",
        stderr(&out)
    );
    let v: Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert!(
        v["freshness"]["refreshed_files"].as_u64() >= Some(1),
        "{}",
        v["freshness"]
    );
    let hits: Vec<String> = stage_reasons(&v, "retrieve")
        .into_iter()
        .filter(|r| r.starts_with("semantic"))
        .collect();
    assert!(
        !hits.is_empty() && hits.iter().all(|r| !r.contains(": 0 hit(s)")),
        "{hits:?}"
    );
    // The vectors now match: the next ask reads them as they are.
    let (v, code) = ask_json(s.path(), &[question]);
    assert_eq!(code, 0);
    assert_eq!(v["freshness"]["refreshed_files"], 0, "{}", v["freshness"]);
    let out = s.llmc(&["status"]);
    assert!(!stdout(&out).contains("read again"), "{}", stdout(&out));
}

/// `indexed_at` is an RFC 3339 time in UTC, `indexed_at_unix` the same instant in
/// seconds, in `ask --json` and `status --json` alike; `status` shows the time to people.
#[test]
fn indexed_at_is_rfc3339_with_its_unix_seconds_beside_it() {
    let before = jiff::Timestamp::now().as_second();
    let s = python();
    let (v, code) = ask_json(s.path(), &["who calls apply_vat"]);
    assert_eq!(code, 0);
    let after = jiff::Timestamp::now().as_second();
    let check = |doc: &Value| -> i64 {
        let text = doc["indexed_at"].as_str().expect("indexed_at is a string");
        let at: jiff::Timestamp = text
            .parse()
            .unwrap_or_else(|e| panic!("{text:?} is not RFC 3339: {e}"));
        assert!(text.ends_with('Z') && text.contains('T'), "{text}");
        let unix = doc["indexed_at_unix"]
            .as_i64()
            .expect("indexed_at_unix is an integer");
        assert_eq!(at.as_second(), unix, "{doc}");
        assert!(
            (before..=after).contains(&unix),
            "{unix} in {before}..={after}"
        );
        unix
    };
    let asked = check(&v["freshness"]);
    let out = s.llmc(&["status", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let status: Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(check(&status), asked, "the same index run");
    let out = s.llmc(&["status"]);
    let text = stdout(&out);
    let line = text
        .lines()
        .find(|l| l.starts_with("generation"))
        .expect("a generation line");
    assert!(
        line.contains(status["indexed_at"].as_str().expect("time"))
            && (line.contains("just now") || line.contains(" ago")),
        "{line}"
    );
}

#[test]
fn the_cache_answers_again_until_a_cited_file_changes() {
    let s = python();
    let q = "who calls shelf_weight?";
    let first = s.llmc(&["ask", "--json", "--no-refresh", q]);
    let v: Value = serde_json::from_str(&stdout(&first)).expect("json");
    assert_eq!(v["cached"], false);
    let second = s.llmc(&["ask", "--json", "--no-refresh", q]);
    let v: Value = serde_json::from_str(&stdout(&second)).expect("json");
    assert_eq!(v["cached"], true);
    assert!(
        v["trace"]
            .as_array()
            .expect("trace")
            .iter()
            .any(|t| t["stage"] == "cache" && t["decision"] == "hit")
    );
    // Normalized: case and spacing do not matter.
    let third = s.llmc(&["ask", "--json", "--no-refresh", "WHO  calls shelf_weight?"]);
    let v: Value = serde_json::from_str(&stdout(&third)).expect("json");
    assert_eq!(v["cached"], true);
    // A cited file changes: the entry is no longer valid.
    let report = s.path().join("app/report.py");
    let text = std::fs::read_to_string(&report).expect("read");
    std::fs::write(&report, format!("{text}\n# touched\n")).expect("write");
    let fourth = s.llmc(&["ask", "--json", "--no-refresh", q]);
    let v: Value = serde_json::from_str(&stdout(&fourth)).expect("json");
    assert_eq!(v["cached"], false);
}

#[test]
fn every_stage_after_routing_can_be_switched_off() {
    let s = python();
    let q = "how is the weight of a shelf computed?";
    let (on, _) = ask_json(s.path(), &[q]);
    let stage = |v: &Value, name: &str| -> String {
        v["trace"]
            .as_array()
            .expect("trace")
            .iter()
            .find(|t| t["stage"] == name)
            .map(|t| t["decision"].as_str().unwrap_or("").to_string())
            .unwrap_or_default()
    };
    assert!(stage(&on, "fuse").starts_with("weighted fusion of scores"));
    // A question for the graph first fuses by ranks.
    let (graph_led, _) = ask_json(s.path(), &["who calls shelf_weight?"]);
    assert!(stage(&graph_led, "fuse").starts_with("weighted reciprocal rank fusion"));
    for (key, name) in [
        ("ask.fuse=false", "fuse"),
        ("ask.expand=false", "expand"),
        ("ask.verify=false", "verify"),
        ("ask.refine=false", "refine"),
    ] {
        let (v, _) = ask_json(s.path(), &["--config", key, q]);
        let d = stage(&v, name);
        assert!(d.contains("off") || d.contains("fusion off"), "{key}: {d}");
    }
}

#[test]
fn ask_on_an_unusable_index_exits_3_with_a_json_error() {
    let s = python();
    std::fs::write(s.path().join(".llmc/index.db"), b"not a database at all").expect("write");
    let out = s.llmc(&["ask", "--json", "--no-refresh", "who calls shelf_weight?"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).expect("json error");
    assert!(v["error"].is_object() || v["error"].is_string(), "{v}");
}

/// Replaces what varies between runs: milliseconds (and the padding before them).
fn normalize_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let words: Vec<&str> = s.split(' ').collect();
    for (i, w) in words.iter().enumerate() {
        let next_is_ms = words.get(i + 1).is_some_and(|n| n.starts_with("ms"));
        let numeric = !w.is_empty() && w.chars().all(|c| c.is_ascii_digit() || c == '.');
        if next_is_ms && numeric {
            let kept = out.trim_end_matches(' ').len();
            out.truncate(kept);
            out.push_str(" N");
        } else {
            out.push_str(w);
        }
        if i + 1 < words.len() {
            out.push(' ');
        }
    }
    out
}

fn normalize_json(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if matches!(k.as_str(), "ms" | "score") && x.is_number() {
                    *x = Value::from(0);
                } else if matches!(k.as_str(), "indexed_at" | "indexed_at_unix") {
                    *x = Value::from("<time>");
                } else {
                    normalize_json(x);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(normalize_json),
        Value::String(s) => *s = normalize_text(s),
        _ => {}
    }
}

/// Compares with `tests/it/snapshots/NAME` (rewritten by `UPDATE_EXPECT=1`).
fn snapshot(expected: expect_test::ExpectFile, actual: &str) {
    expected.assert_eq(actual);
}

#[test]
fn human_and_json_output_match_their_snapshots() {
    let s = python();
    let q = "who calls shelf_weight?";
    let out = s.llmc(&["ask", "--no-cache", "--trace", q]);
    assert_eq!(out.status.code(), Some(0));
    snapshot(
        expect_test::expect_file!["snapshots/ask_callers.txt"],
        &normalize_text(&stdout(&out)),
    );
    let (mut v, _) = ask_json(s.path(), &[q]);
    normalize_json(&mut v);
    snapshot(
        expect_test::expect_file!["snapshots/ask_callers.json"],
        &(serde_json::to_string_pretty(&v).expect("json") + "\n"),
    );
    let out = s.llmc(&[
        "ask",
        "--no-cache",
        "how do I configure the kubernetes ingress controller?",
    ]);
    snapshot(
        expect_test::expect_file!["snapshots/ask_abstain.txt"],
        &normalize_text(&stdout(&out)),
    );
}

mod with_llm {
    //! The LLM path of `ask` against an Ollama-compatible server on 127.0.0.1, through
    //! the built binary and the real ollama-rs client.

    use std::time::{Duration, Instant};

    use serde_json::Value;

    use super::python;
    use crate::fake_ollama::FakeOllama;
    use crate::util::{stderr, stdout};

    const MODEL: &str = "qwen2.5-coder:1.5b";

    fn ask_llm(
        s: &crate::util::Scratch,
        url: &str,
        extra: &[&str],
        q: &str,
    ) -> (Value, i32, String) {
        let provider = "llm.provider=ollama".to_string();
        let url = format!("llm.ollama_url={url}");
        let mut args = vec![
            "ask",
            "--json",
            "--no-cache",
            "--config",
            &provider,
            "--config",
            &url,
        ];
        args.extend_from_slice(extra);
        args.push(q);
        let out = s.llmc(&args);
        let v: Value = serde_json::from_str(&stdout(&out))
            .unwrap_or_else(|e| panic!("json ({e}): {}\n{}", stdout(&out), stderr(&out)));
        (v, out.status.code().unwrap_or(-1), stderr(&out))
    }

    #[test]
    fn a_synthesized_answer_cites_its_sources_and_passes_the_check() {
        let s = python();
        let server = FakeOllama::builder()
            .model(MODEL)
            .reply("`shelf_weight` is called once, from `shelf_report` [1][3].")
            .start();
        let (v, code, _) = ask_llm(&s, &server.url, &[], "who calls shelf_weight?");
        assert_eq!(code, 0);
        let syn = &v["answer"]["synthesis"];
        assert_eq!(syn["grounded"], true, "{syn}");
        assert_eq!(syn["cited"], serde_json::json!([1, 3]));
        assert_eq!(syn["model"], format!("ollama/{MODEL}"));
        // The programmatic answer stays beside it.
        assert_eq!(v["answer"]["kind"], "graph");
        // The prompt carried the graph's exact answer as source [1].
        let chat = &server.chats()[0];
        let prompt = chat["messages"][1]["content"].as_str().unwrap_or("");
        assert!(
            prompt.contains("app/report.py:19  in shelf_report"),
            "{prompt}"
        );
    }

    #[test]
    fn an_answer_that_fails_the_grounding_check_is_flagged_not_hidden() {
        let s = python();
        let bad = "It retries with `ExponentialBackoff::jitter` [1].";
        // Each question makes two calls: the answer, and one request to repair it.
        let server = FakeOllama::builder()
            .model(MODEL)
            .reply(bad)
            .reply(bad)
            .reply(bad)
            .reply(bad)
            .start();
        let (v, code, _) = ask_llm(&s, &server.url, &[], "who calls shelf_weight?");
        assert_eq!(code, 0);
        let syn = &v["answer"]["synthesis"];
        assert_eq!(syn["grounded"], false, "{syn}");
        assert!(
            syn["problems"].to_string().contains("ExponentialBackoff"),
            "{syn}"
        );
        let url = format!("llm.ollama_url={}", server.url);
        let out = s.llmc(&[
            "ask",
            "--no-cache",
            "--config",
            "llm.provider=ollama",
            "--config",
            &url,
            "who calls shelf_weight?",
        ]);
        let text = stdout(&out);
        assert!(
            text.contains("[!] This answer failed the grounding check"),
            "{text}"
        );
        assert!(text.contains("From the index:"), "{text}");
    }

    #[test]
    fn the_budget_caps_llm_calls_per_question() {
        let s = python();
        // An unsure question would ask the LLM to classify, then to synthesize, then to
        // repair: a budget of 1 allows one call only.
        let server = FakeOllama::builder()
            .model(MODEL)
            .reply("locate")
            .reply("`apply_vat` adds VAT [1].")
            .reply("`apply_vat` adds VAT [1].")
            .start();
        let (v, code, _) = ask_llm(&s, &server.url, &["--config", "llm.budget=1"], "vat");
        assert!(code == 0 || code == 1, "{v}");
        assert_eq!(server.requests("/api/chat"), 1, "{v}");
    }

    #[test]
    fn a_server_that_never_answers_times_out_into_the_llm_free_answer() {
        let s = python();
        let server = FakeOllama::builder().model(MODEL).hang().start();
        let t = Instant::now();
        let (v, code, err) = ask_llm(
            &s,
            &server.url,
            &["--config", "llm.timeout_secs=1"],
            "who calls shelf_weight?",
        );
        assert!(t.elapsed() < Duration::from_secs(8), "{:?}", t.elapsed());
        assert_eq!(code, 0);
        assert_eq!(v["status"], "answered");
        assert!(v["answer"]["synthesis"].is_null());
        let warnings = v["warnings"].to_string();
        assert!(
            warnings.contains("answering without it"),
            "{warnings} {err}"
        );

        // No server at all: the same, with a one-line warning on stderr.
        let out = s.llmc(&[
            "ask",
            "--no-cache",
            "--config",
            "llm.provider=ollama",
            "--config",
            "llm.ollama_url=http://127.0.0.1:9",
            "who calls shelf_weight?",
        ]);
        assert_eq!(out.status.code(), Some(0));
        assert!(stdout(&out).contains("is called from"));
        let warning_lines: Vec<String> = stderr(&out)
            .lines()
            .filter(|l| l.starts_with("warning: LLM"))
            .map(str::to_string)
            .collect();
        assert_eq!(warning_lines.len(), 1, "{}", stderr(&out));
    }
}

#[test]
fn path_lang_and_no_tests_narrow_what_an_answer_cites() {
    let s = python();
    // A test next to the code it exercises, and a Markdown page about it.
    s.write(
        "tests/test_models.py",
        "from inventory.models import shelf_weight\n\n\ndef test_shelf_weight_of_an_empty_shelf():\n    \"\"\"The weight of a shelf with no items is zero.\"\"\"\n    assert shelf_weight(None) == 0\n",
    );
    s.index();
    let paths = |v: &Value| -> Vec<String> {
        v["sources"]
            .as_array()
            .expect("sources")
            .iter()
            .filter_map(|s| s["path"].as_str().map(str::to_string))
            .collect()
    };
    // About tests, so the test is not demoted: without a filter it is a source.
    let q = "which test checks the weight of a shelf?";
    let (all, _) = ask_json(s.path(), &[q]);
    assert!(
        paths(&all).iter().any(|p| p.starts_with("tests/")),
        "the test is a source without a filter: {all:#}"
    );
    let (v, code) = ask_json(s.path(), &[q, "--no-tests"]);
    assert_eq!(code, 0, "{v:#}");
    let p = paths(&v);
    assert!(
        !p.is_empty() && p.iter().all(|p| !p.starts_with("tests/")),
        "{p:?}"
    );
    let (v, _) = ask_json(s.path(), &[q, "--path", "inventory/**"]);
    let p = paths(&v);
    assert!(
        !p.is_empty() && p.iter().all(|p| p.starts_with("inventory/")),
        "{p:?}"
    );
    let (v, _) = ask_json(s.path(), &[q, "--lang", "markdown"]);
    assert!(paths(&v).iter().all(|p| p.ends_with(".md")), "{v:#}");
    // Callers are narrowed the same way.
    let (v, _) = ask_json(s.path(), &["who calls shelf_weight?", "--no-tests"]);
    let r = rows(&v, "callers");
    assert!(
        !r.is_empty() && r.iter().all(|r| !r.starts_with("tests/")),
        "{r:?}"
    );
    // A bad glob or an unknown language is a usage error.
    let out = llmc_in(s.path(), &["ask", q, "--path", "["]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is not a valid glob"),
        "{}",
        stderr(&out)
    );
    let out = llmc_in(s.path(), &["ask", q, "--lang", "cobol"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no indexed file is in that language"));
}

/// "Where is X done?" asks for code: a page of documentation that repeats the question's
/// words ranks below the implementation, unless the question asks about the docs.
#[test]
fn where_questions_rank_code_above_documentation() {
    let s = Scratch::git_fixture("python");
    s.write(
        "docs/vat.md",
        "# Adding VAT to a net amount\n\nWe add VAT to a net amount, rounded to cents: \
         add VAT to the net amount and round the amount to cents.\n",
    );
    s.index();
    let first = |q: &str| first_source_path(s.path(), q);
    assert_eq!(
        first("where do we add VAT to a net amount, rounded to cents?"),
        "inventory/pricing.py"
    );
    assert_eq!(
        first("where do the docs explain adding VAT to a net amount?"),
        "docs/vat.md"
    );
}

/// A callers answer lists the code's own call sites before the tests' (here the test file
/// sorts first by path), so a list cut short never hides them.
#[test]
fn callers_in_the_code_come_before_callers_in_tests() {
    let s = Scratch::git_fixture("python");
    s.write(
        "app/test_pricing.py",
        "from inventory.pricing import apply_vat\n\n\n\
         def test_vat():\n    assert apply_vat(10.0) == 12.0\n\n\n\
         def test_vat_again():\n    assert apply_vat(0.0) == 0.0\n",
    );
    s.index();
    let (v, code) = ask_json(s.path(), &["who calls apply_vat?"]);
    assert_eq!(code, 0, "{v}");
    let answer = v["answer"]["text"].as_str().expect("answer text");
    let sites: Vec<&str> = answer
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.contains(".py:"))
        .collect();
    assert_eq!(
        sites,
        [
            "inventory/pricing.py:16",
            "app/test_pricing.py:5",
            "app/test_pricing.py:9"
        ],
        "{answer}"
    );
}

/// For a question about how or where something is done, a test helper that repeats the
/// implementation's words ranks below the implementation; a question about tests keeps
/// the tests where their words put them.
#[test]
fn a_test_helper_does_not_outrank_the_implementation() {
    let s = Scratch::git_fixture("python");
    s.write(
        "tests/test_pricing.py",
        "from inventory.pricing import apply_vat\n\n\n\
         def add_vat_to_net_amount_rounded_to_cents(amount):\n    \
         \"\"\"Add VAT to a net amount, rounded to cents (add VAT to net amount).\"\"\"\n    \
         return apply_vat(amount)\n\n\n\
         def test_vat_is_added_to_a_net_amount():\n    \
         assert add_vat_to_net_amount_rounded_to_cents(10.0) == 12.0\n",
    );
    s.index();
    let (v, code) = ask_json(
        s.path(),
        &["where do we add VAT to a net amount, rounded to cents?"],
    );
    assert_eq!(code, 0, "{v}");
    let paths: Vec<&str> = v["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .filter_map(|c| c["path"].as_str())
        .collect();
    assert_eq!(paths.first(), Some(&"inventory/pricing.py"), "{paths:?}");
    let first_test = paths.iter().position(|p| p.starts_with("tests/"));
    let implementation = paths.iter().position(|p| *p == "inventory/pricing.py");
    assert!(
        implementation < first_test || first_test.is_none(),
        "{paths:?}"
    );
    let demoted = v["trace"]
        .as_array()
        .expect("trace")
        .iter()
        .flat_map(|t| t["reasons"].as_array().into_iter().flatten())
        .any(|r| {
            r.as_str()
                .is_some_and(|r| r.contains("test, fixture or example"))
        });
    assert!(demoted, "the trace says why");

    // Asked about the tests, the test comes first.
    let (v, _) = ask_json(
        s.path(),
        &["which test checks that VAT is added to a net amount?"],
    );
    assert_eq!(
        v["sources"][0]["path"], "tests/test_pricing.py",
        "{}",
        v["sources"]
    );
}

/// A function whose calls are all in the function it defines (a decorator's wrapper, a
/// registered closure): "calls nothing" is true of its own body, so the answer lists the
/// nested function's calls and says whose they are.
#[test]
fn the_callees_of_a_function_that_only_defines_one_are_the_nested_calls() {
    let s = Scratch::indexed_file(
        "deco.py",
        r#"def logged(f):
    def wrapper(*args):
        record(args)
        return f(*args)
    return wrapper


def record(args):
    print(args)


def plain():
    return 1
"#,
    );
    let (v, code) = ask_json(s.path(), &["what does `logged` call?"]);
    assert_eq!(code, 0, "{v}");
    let text = answer_text(&v);
    assert!(text.contains("makes no call itself"), "{text}");
    assert!(text.contains("`logged.wrapper`"), "{text}");
    assert!(text.contains("deco.py:3  record → deco.py:8"), "{text}");
    let fact = &v["graph"][0];
    assert_eq!(fact["rows"].as_array().map(Vec::len), Some(0), "{v}");
    assert_eq!(fact["nested"][0]["symbol"], "record", "{v}");
    // A function that defines nothing and calls nothing still calls nothing.
    let (v, _) = ask_json(s.path(), &["what does `plain` call?"]);
    let text = answer_text(&v);
    assert!(text.ends_with("calls nothing."), "{text}");
    assert!(v["graph"][0].get("nested").is_none(), "{v}");
}

/// "why was the remote config support moved?" names no definition: its words are looked
/// for in the commit messages, the rarest weighing most, before the commits that only
/// touched a definition one word names (`config`).
#[test]
fn a_why_question_in_words_finds_the_commit_that_says_so() {
    let s = Scratch::empty();
    s.git(&["init", "-q"]);
    s.write("config.py", "def config():\n    return {}\n");
    s.commit_all("add config loading");
    s.write("yaml.py", "def load_yaml():\n    return {}\n");
    s.commit_all("support yaml config");
    s.write("toml.py", "def load_toml():\n    return {}\n");
    s.commit_all("support toml config");
    s.write(
        "config.py",
        "def config():\n    return {}\n\n\ndef remote():\n    return 'etcd'\n",
    );
    s.commit_all("support remote config stores\n\nAdds etcd support to config.");
    s.write("config.py", "def config():\n    return {}\n");
    s.write("remote.py", "def remote():\n    return 'etcd'\n");
    s.commit_all("refactor: move remote code to its own file");
    s.write("config.py", "def config():\n    return {'a': 1}\n");
    s.commit_all("fix config default");
    s.index();
    let (v, code) = ask_json(s.path(), &["why was the remote config support moved?"]);
    assert_eq!(code, 0, "{v}");
    let text = answer_text(&v);
    assert!(
        text.contains("whose message holds words of the question"),
        "{text}"
    );
    assert_eq!(
        v["history"][0]["commits"][0]["subject"], "refactor: move remote code to its own file",
        "{v}"
    );
    // A "why" question that names its definition keeps to that definition's commits.
    let (v, _) = ask_json(s.path(), &["why did `config` change?"]);
    assert!(v["history"][0].get("message_words").is_none(), "{v}");
    assert_eq!(
        v["history"][0]["commits"][0]["subject"], "fix config default",
        "{v}"
    );
}

/// "how does StaticFiles find the file for a path?": the class is longer than a chunk
/// and has no doc comment, so its chunk holds only `class StaticFiles:`; the method that
/// does what the question asks leads, not that line.
#[test]
fn a_how_question_leads_with_a_member_not_a_bare_class_line() {
    let mut code = String::from("import os\n\n\nclass StaticFiles:\n");
    code.push_str(
        "    def lookup_path(self, path):\n        for directory in self.all_directories:\n            \
         joined = os.path.join(directory, path)\n            \
         if os.path.isfile(joined):\n                return joined\n        return None\n",
    );
    // Enough other methods to make the class longer than a chunk.
    for i in 0..40 {
        code.push_str(&format!(
            "\n    def helper_{i}(self, value):\n        total = value + {i}\n        return total\n"
        ));
    }
    let s = Scratch::indexed_file("static.py", &code);
    let (v, code) = ask_json(
        s.path(),
        &["how does StaticFiles find the file for a path?"],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["sources"][0]["symbol"], "StaticFiles.lookup_path", "{v}");
}

/// "how does black find the project root?": a one-line constant (`project = "Black"`
/// in the docs' configuration) matches the question's words better than any body can,
/// but holds a value and does no work: the function that finds the root leads. A
/// question that asks for a value keeps the constant first.
#[test]
fn a_how_question_leads_with_a_function_not_a_one_line_constant() {
    let s = Scratch::empty();
    s.write(
        "docs/conf.py",
        "project = \"Black\"\nauthor = \"Black maintainers\"\n",
    );
    s.write(
        "src/black/files.py",
        "import os\n\n\ndef read_text(path):\n    with open(path) as f:\n        return f.read()\n\n\n\
         def find_project_root(srcs):\n    directory = os.path.commonpath(srcs)\n    \
         while directory != os.path.dirname(directory):\n        \
         if os.path.exists(os.path.join(directory, \".git\")):\n            return directory\n        \
         directory = os.path.dirname(directory)\n    return directory\n\n\n\
         def gitignore(root):\n    return read_text(os.path.join(root, \".gitignore\"))\n",
    );
    s.index();
    let first = |question: &str| {
        let (v, code) = ask_json(s.path(), &[question]);
        assert_eq!(code, 0, "{v}");
        v["sources"][0]["symbol"].clone()
    };
    assert_eq!(
        first("how does black find the project root?"),
        "find_project_root"
    );
    assert_eq!(first("where is the default project value?"), "project");
}

/// "how is the websocket handshake done on the server?": the best match is a constant
/// declared first in a long method (`const badHandshake = "…"` in `Upgrader.Upgrade`, a
/// chunk cut to its head); the method leads, not another function that shares the
/// constant's words (a client's TLS `doHandshake`).
#[test]
fn a_constant_declared_in_a_function_gives_way_to_that_function() {
    let s = Scratch::empty();
    s.write("go.mod", "module example.com/ws\n\ngo 1.21\n");
    let checks: String = (0..160)
        .map(|i| format!("\th{i} := r.Header.Get(\"X-Field-{i}\")\n\t_ = h{i}\n"))
        .collect();
    s.write(
        "server.go",
        format!(
            "package ws\n\nimport \"net/http\"\n\n// Upgrader upgrades connections.\n\
             type Upgrader struct {{\n\tStrict bool\n}}\n\n\
             // Upgrade upgrades the HTTP server connection to the protocol.\n\
             func (u *Upgrader) Upgrade(w http.ResponseWriter, r *http.Request) error {{\n\
             \tconst badHandshake = \"websocket: the client is not using the websocket handshake: \"\n\
             \tif r.Method != http.MethodGet {{\n\t\treturn u.fail(w, badHandshake+\"not GET\")\n\t}}\n\
             {checks}\treturn nil\n}}\n\n\
             func (u *Upgrader) fail(w http.ResponseWriter, reason string) error {{\n\
             \tw.WriteHeader(400)\n\treturn nil\n}}\n"
        ),
    );
    s.write(
        "client.go",
        "package ws\n\nimport \"crypto/tls\"\n\n// doHandshake runs the TLS handshake of a client.\n\
         func doHandshake(conn *tls.Conn) error {\n\treturn conn.Handshake()\n}\n",
    );
    s.index();
    let (v, code) = ask_json(
        s.path(),
        &["how is the websocket handshake done on the server?"],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["sources"][0]["symbol"], "Upgrader.Upgrade", "{v}");
}

/// "how does escape work?": a plain word the question's form holds alone names the
/// function the repository defines so (markupsafe's `escape`), before a method of that
/// name (`Markup.escape`) that matches the word as well.
#[test]
fn a_plain_word_named_alone_is_read_as_the_definition() {
    let s = Scratch::indexed_file(
        "src/markupsafe/__init__.py",
        "def escape(s):\n    \"\"\"Replace the characters & < > with HTML-safe sequences.\"\"\"\n    \
         if hasattr(s, \"__html__\"):\n        return Markup(s.__html__())\n    \
         return Markup(str(s).replace(\"&\", \"&amp;\").replace(\"<\", \"&lt;\"))\n\n\n\
         class Markup(str):\n    @classmethod\n    def escape(cls, s):\n        \
         \"\"\"Escape a string: escape it, escape work done, escape how the escape works.\"\"\"\n        \
         rv = escape(s)\n        return cls(rv)\n",
    );
    let (v, code) = ask_json(s.path(), &["how does escape work?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["intents"][0], "definition", "{v}");
    assert_eq!(v["sources"][0]["symbol"], "escape", "{v}");
}

/// "how does post_dump work?": a test's schema defines a hook of the same name, whose few
/// lines every route finds; the code's decorator leads the sources as it leads the answer.
#[test]
fn a_definition_in_code_leads_a_same_named_one_in_a_test() {
    let s = Scratch::empty();
    s.write(
        "src/marshmallow/decorators.py",
        "POST_DUMP = \"post_dump\"\n\n\n\
         def post_dump(fn=None, pass_many=False, pass_original=False):\n    \
         \"\"\"Register a method to invoke after serializing an object. The method\n    \
         receives the serialized object and returns the processed object.\n    \"\"\"\n    \
         return set_hook(fn, POST_DUMP, many=pass_many, pass_original=pass_original)\n\n\n\
         def set_hook(fn, tag, many=False, **kwargs):\n    fn.__marshmallow_hook__ = (tag, many, kwargs)\n    return fn\n",
    );
    for (i, name) in ["single", "many"].iter().enumerate() {
        s.write(
            &format!("tests/test_decorators_{i}.py"),
            format!(
                "from marshmallow.decorators import post_dump\n\n\n\
                 def test_post_dump_{name}():\n    class MySchema:\n        \
                 @post_dump(pass_original=True)\n        \
                 def post_dump(self, data, original, many):\n            \
                 return dict(data, post_dump=True)\n\n    \
                 assert MySchema().post_dump({{}}, None, False)[\"post_dump\"]\n"
            ),
        );
    }
    s.index();
    let (v, code) = ask_json(s.path(), &["how does post_dump work?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        v["sources"][0]["path"], "src/marshmallow/decorators.py",
        "{v}"
    );
}

/// "where is the devtools connection made?": a three-line type alias (`type Connection`)
/// names the question's subject but makes nothing; the function that connects leads.
#[test]
fn a_where_question_leads_with_a_function_not_a_type_alias() {
    let s = Scratch::indexed_file(
        "src/devtools.ts",
        "type Extension = { connect: (name: string) => { send: (msg: string) => void } }\n\n\
         type Connection = ReturnType<\n  Extension['connect']\n>\n\n\
         const extractConnectionInformation = (ext: Extension, name: string) => {\n  \
         const connection = ext.connect(name)\n  return { type: 'untracked', connection }\n}\n\n\
         export const withTools = (ext: Extension) => extractConnectionInformation(ext, 'store')\n",
    );
    let (v, code) = ask_json(s.path(), &["where is the devtools connection made?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        v["sources"][0]["symbol"], "extractConnectionInformation",
        "{v}"
    );
    let (v, _) = ask_json(s.path(), &["where is the Connection type?"]);
    assert_eq!(v["sources"][0]["symbol"], "Connection", "{v}");
}

/// "when was the lifespan parameter added to App?": an older commit's message says
/// "lifespan" but only added `lifespan_middleware`; the commit that adds `lifespan` to
/// the class as a name of its own does not say so in its message. "debug" is in the
/// message of a commit that only changed its default, not in the one that added it; and
/// "classes" in that of a commit that only described a class.
#[test]
fn an_introduction_leads_with_the_commit_that_adds_the_name() {
    let s = Scratch::empty();
    s.git(&["init", "-q"]);
    let app = |init: &str, body: &str| {
        format!(
            "from .middleware import Stack\n\n\nclass App:\n    def __init__(self, {init}):\n        \
             self.debug = debug\n{body}\n    def run(self):\n        return self.debug\n"
        )
    };
    s.write("app.py", app("debug=False", ""));
    s.write("middleware.py", "class Stack:\n    pass\n");
    s.commit_all("add App");
    let middleware = "        self.lifespan_middleware = Stack()\n";
    s.write("app.py", app("debug=False", middleware));
    s.commit_all("Lifespan as middleware");
    s.write("README.md", "# app\n");
    s.commit_all("docs: a readme");
    let handler = format!("{middleware}        self.handler = lifespan\n");
    s.write("app.py", app("debug=False, lifespan=None", &handler));
    s.commit_all("Support generator functions for startup\n\nA new argument to App.");
    s.write("app.py", app("debug=True, lifespan=None", &handler));
    s.commit_all("debug on by default");
    s.write(
        "app.py",
        app("debug=True, lifespan=None, timeout=None", &handler),
    );
    s.commit_all("add a timeout parameter");
    s.write(
        "middleware.py",
        "class Stack:\n    \"\"\"Runs the middleware classes in turn.\"\"\"\n",
    );
    s.commit_all("describe the middleware classes");
    s.index();
    let first = |question: &str| {
        let (v, code) = ask_json(s.path(), &[question]);
        assert_eq!(code, 0, "{v}");
        let subject = v["history"][0]["commits"][0]["subject"].clone();
        (answer_text(&v), subject, v)
    };
    let (text, subject, v) = first("when was the lifespan parameter added to App?");
    assert!(
        text.starts_with("The oldest commit of `App` whose changes add `lifespan` to it is"),
        "{text}"
    );
    assert_eq!(subject, "Support generator functions for startup", "{v}");
    assert_eq!(v["history"][0]["added_name"], "lifespan", "{v}");
    let (text, subject, v) = first("when was the debug parameter added to App?");
    assert!(text.contains("whose changes add `debug`"), "{text}");
    assert_eq!(subject, "add App", "{v}");
    // The commit whose message names the word, and adds it, is said as before.
    let (text, subject, v) = first("when was the timeout parameter added to App?");
    assert!(
        text.contains("whose message holds words of the question (timeout)"),
        "{text}"
    );
    assert_eq!(subject, "add a timeout parameter", "{v}");
    assert!(v["history"][0].get("added_name").is_none(), "{v}");
    // "class" says what Stack is, not what was added to it.
    let (text, subject, v) = first("when was the Stack class added?");
    assert!(text.starts_with("`Stack` was introduced in"), "{text}");
    assert_eq!(subject, "add App", "{v}");
}

/// "which files import createStore?" names a definition, not a file or a package: the
/// answer is the import lines that name it and resolve to its file, not a test's own
/// function of the same name, nor a line importing another `createStore`.
#[test]
fn who_imports_a_name_lists_the_lines_that_import_it() {
    let s = Scratch::empty();
    s.write(
        "src/vanilla.ts",
        "export const createStore = (init: () => number) => ({ get: init })\n\
         export const version = '5'\n",
    );
    s.write(
        "src/react.ts",
        "import { createStore } from './vanilla'\n\
         export const create = (init: () => number) => createStore(init)\n",
    );
    s.write(
        "src/other.ts",
        "import { version } from './vanilla'\nimport { createStore } from 'redux'\n\
         export const v = version\nexport const r = createStore\n",
    );
    s.write(
        "tests/store.test.ts",
        "import { createStore as make } from '../src/vanilla'\n\
         function createStore() { return make(() => 1) }\ncreateStore()\n",
    );
    s.index();
    let (v, code) = ask_json(s.path(), &["which files import createStore?"]);
    assert_eq!(code, 0, "{v}");
    let g = &v["graph"][0];
    let rows: Vec<String> = g["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| format!("{}:{}", r["path"].as_str().unwrap_or(""), r["line"]))
        .collect();
    assert_eq!(rows, ["src/react.ts:1", "tests/store.test.ts:1"], "{v}");
    let defs = g["definitions"].as_array().expect("definitions");
    assert_eq!(defs.len(), 1, "{v}");
    assert_eq!(defs[0]["path"], "src/vanilla.ts", "{v}");
    let text = answer_text(&v);
    assert!(
        text.contains("is imported by 2 line(s) in 2 file(s)"),
        "{text}"
    );
}

/// "where is the number of days in a month computed?": "days" and "month" are the
/// subject here, not a period of the history, and "computed?" is the everyday verb
/// "computed" the code need not say: the method that counts them answers.
#[test]
fn a_question_about_days_and_months_in_code_is_answered() {
    let mut code = String::from(
        "pub trait Datelike {\n    fn month(&self) -> u32;\n    fn year(&self) -> i32;\n\n    \
         /// Get the length in days of the month\n    fn num_days_in_month(&self) -> u8 {\n        \
         let leap = self.year() % 4 == 0;\n        match self.month() {\n            \
         2 if leap => 29,\n            2 => 28,\n            4 | 6 | 9 | 11 => 30,\n            \
         _ => 31,\n        }\n    }\n}\n",
    );
    for i in 0..60 {
        code.push_str(&format!(
            "\n/// Formats field {i} of a date.\npub fn format_field_{i}(value: u32) -> String {{\n    \
             format!(\"{{value:02}}\")\n}}\n"
        ));
    }
    let s = Scratch::indexed_file("src/traits.rs", &code);
    let (v, code) = ask_json(
        s.path(),
        &["where is the number of days in a month computed?"],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["status"], "answered", "{v}");
    assert_eq!(
        v["sources"][0]["symbol"], "Datelike::num_days_in_month",
        "{v}"
    );
}

/// "when was line ranges support added?": `line` is a method's name, but the code writes
/// the two words as one name (`line_ranges`, a parameter), defined nowhere: the answer
/// is the first commit that wrote it, not the one that added the method.
#[test]
fn a_history_question_reads_words_the_code_writes_as_one_name() {
    let s = Scratch::empty();
    s.git(&["init", "-q"]);
    let generator = "class LineGenerator:\n    def line(self, depth):\n        return depth\n";
    s.write("lines.py", generator);
    s.write(
        "format.py",
        "def format_str(src, mode):\n    return src.strip()\n",
    );
    s.commit_all("Initial commit");
    s.write(
        "format.py",
        "def format_str(src, mode, line_ranges=()):\n    \
         if line_ranges:\n        return src\n    return src.strip()\n",
    );
    s.commit_all("Support formatting specified lines");
    s.write("README.md", "# formatter\n\nFormats code.\n");
    s.commit_all("docs: a readme");
    s.index();
    let (v, code) = ask_json(s.path(), &["when was line ranges support added?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        v["history"][0]["commits"][0]["subject"], "Support formatting specified lines",
        "{v}"
    );
}

/// "when was the kv feature added?": a folder of two letters (`src/kv/`) names the
/// subject; its files' first commit is the answer.
#[test]
fn a_two_letter_folder_names_the_subject_of_an_introduction() {
    let s = Scratch::empty();
    s.git(&["init", "-q"]);
    s.write(
        "Cargo.toml",
        "[package]\nname = \"log\"\nversion = \"0.1.0\"\n",
    );
    s.write(
        "src/lib.rs",
        "pub struct Record {\n    pub message: String,\n}\n\n\
         pub fn log(record: &Record) -> usize {\n    record.message.len()\n}\n",
    );
    s.commit_all("Initial commit");
    s.write(
        "src/lib.rs",
        "pub mod kv;\n\npub struct Record {\n    pub message: String,\n}\n\n\
         pub fn log(record: &Record) -> usize {\n    record.message.len()\n}\n",
    );
    s.write(
        "src/kv/mod.rs",
        "pub struct Key(pub String);\n\npub trait Source {\n    fn get(&self, key: &Key) -> Option<String>;\n}\n",
    );
    s.commit_all("Build out an initial key values API");
    s.write("README.md", "# log\n\nA logging facade.\n");
    s.commit_all("docs: a readme");
    s.index();
    let (v, code) = ask_json(s.path(), &["when was the kv feature added?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        v["history"][0]["commits"][0]["subject"], "Build out an initial key values API",
        "{v}"
    );
}

/// "when was the partial parameter added?": an input named by a plain word that older
/// prose and code already held (`functools.partial`); its first binding as a keyword
/// (`partial=`) dates it. "the strict option" is no question about `options`.
#[test]
fn an_introduction_of_a_named_input_is_its_first_binding() {
    let s = Scratch::empty();
    s.git(&["init", "-q"]);
    s.write(
        "schema.py",
        "from functools import partial\n\n\nclass Schema:\n    \
         def options(self):\n        return {}\n\n    \
         def load(self, data):\n        return partial(dict, data)()\n",
    );
    s.commit_all("Initial commit");
    s.write(
        "schema.py",
        "from functools import partial\n\n\nclass Schema:\n    \
         def options(self):\n        return {}\n\n    \
         def load(self, data, partial=None):\n        return dict(data)\n",
    );
    s.commit_all("Load part of the fields");
    s.write(
        "schema.py",
        "from functools import partial\n\n\nclass Schema:\n    \
         def options(self):\n        return {}\n\n    \
         def load(self, data, partial=None, strict=False):\n        return dict(data)\n",
    );
    s.commit_all("Fail on errors when asked");
    s.write("README.md", "# schema\n\nLoads data.\n");
    s.commit_all("docs: a readme");
    s.index();
    for (question, subject) in [
        (
            "when was the partial parameter added?",
            "Load part of the fields",
        ),
        (
            "when was the strict option introduced?",
            "Fail on errors when asked",
        ),
    ] {
        let (v, code) = ask_json(s.path(), &[question]);
        assert_eq!(code, 0, "{v}");
        assert_eq!(v["history"][0]["commits"][0]["subject"], subject, "{v}");
    }
}

/// "when was the read limit added?" in Go: the code writes the words as a struct's field,
/// `readLimit`, which no snake_case token meets; the field's first commit is the answer,
/// not that of the method `read`.
#[test]
fn a_history_question_reads_words_as_the_field_the_code_declares() {
    let s = Scratch::empty();
    s.git(&["init", "-q"]);
    s.write("go.mod", "module example.com/ws\n\ngo 1.21\n");
    let conn = "package ws\n\ntype Conn struct {\n\tbuf []byte\n}\n\n\
                func (c *Conn) read(n int) []byte {\n\treturn c.buf[:n]\n}\n";
    s.write("conn.go", conn);
    s.commit_all("Initial commit");
    s.write(
        "conn.go",
        "package ws\n\ntype Conn struct {\n\tbuf []byte\n\treadLimit int64\n}\n\n\
         func (c *Conn) read(n int) []byte {\n\treturn c.buf[:n]\n}\n\n\
         func (c *Conn) SetMaxSize(n int64) {\n\tc.readLimit = n\n}\n",
    );
    s.commit_all("Bound the size of a message");
    s.write("README.md", "# ws\n\nA connection.\n");
    s.commit_all("docs: a readme");
    s.index();
    let (v, code) = ask_json(s.path(), &["when was the read limit added?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        v["history"][0]["commits"][0]["subject"], "Bound the size of a message",
        "{v}"
    );
}

/// "Where is X defined?" of a class that a type stub declares again and that its module
/// rebinds (`Attribute = _add_repr(Attribute)`): the class in the module is the answer,
/// before the constant (found by more routes: its line repeats the name) and the stub.
#[test]
fn a_definition_question_leads_with_the_class_not_its_rebinding_or_stub() {
    let s = Scratch::empty();
    // A long class (the semantic route does not find it) and a rebinding whose docstring
    // repeats the question's words (every route finds it).
    let methods: String = (0..40)
        .map(|i| {
            format!(
                "    def method_{i}(self, value_{i}):\n        \
                 return self.store.fetch(value_{i}, offset={i})\n\n"
            )
        })
        .collect();
    s.write(
        "attr/_make.py",
        format!(
            "class Attribute:\n    \"\"\"One attribute of a class.\"\"\"\n\n{methods}\n\
             def _add_repr(cls):\n    return cls\n\n\n\
             Attribute = _add_repr(_add_repr(Attribute))\n\
             \"\"\"Where the Attribute is defined: Attribute defined with its repr.\"\"\"\n"
        ),
    );
    s.write(
        "attr/__init__.pyi",
        "class Attribute:\n    name: str\n    def __init__(self, name: str) -> None: ...\n",
    );
    s.index();
    let (v, code) = ask_json(s.path(), &["where is `Attribute` defined?"]);
    assert_eq!(code, 0, "{v}");
    let sources: Vec<String> = v["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .map(|c| {
            format!(
                "{}:{} {}",
                c["path"].as_str().unwrap_or_default(),
                c["start_line"],
                c["kind"].as_str().unwrap_or_default()
            )
        })
        .collect();
    assert_eq!(
        sources.first().map(String::as_str),
        Some("attr/_make.py:1 class"),
        "{sources:?}"
    );
    let stub = sources
        .iter()
        .position(|s| s.starts_with("attr/__init__.pyi"));
    let constant = sources.iter().position(|s| s.ends_with("constant"));
    assert!(stub > Some(0) && constant > Some(0), "{sources:?}");
}

#[test]
fn an_imports_question_reads_a_plain_word_as_the_package_it_ends() {
    // "command" is no definition and no module as written: the package
    // `example.com/kvstore/command` ends in it, and the answer says it read it so.
    let s = Scratch::git_fixture("go");
    s.index();
    let (v, code) = ask_json(s.path(), &["which files import the command package?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["intents"], serde_json::json!(["imports"]));
    assert_eq!(
        rows(&v, "imports"),
        [
            "main.go:9 example.com/kvstore/command",
            "store/store.go:9 example.com/kvstore/command"
        ]
    );
    assert_eq!(
        v["readings"],
        serde_json::json!(["read `command` as the package `example.com/kvstore/command`"])
    );
    // Two words in a row: the package whose last two segments they are, read as one.
    let (v, code) = ask_json(s.path(), &["which files import the kvstore store package?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        v["readings"],
        serde_json::json!(["read `kvstore/store` as the package `example.com/kvstore/store`"])
    );
    assert_eq!(
        rows(&v, "imports"),
        ["main.go:10 example.com/kvstore/store"]
    );
}

/// "why does the server use a thread pool instead of forking workers?" asks why the code
/// is as it is: when a commit's subject states most of its words, that commit answers
/// beside the code, and the answer says it read the question so.
#[test]
fn a_why_question_about_the_code_is_answered_by_the_commit_that_says_so() {
    let s = Scratch::empty();
    s.git(&["init", "-q"]);
    s.write(
        "server.py",
        "import os\n\n\ndef serve(jobs):\n    \"\"\"Serve the jobs with forked workers.\"\"\"\n    for job in jobs:\n        if os.fork() == 0:\n            job()\n",
    );
    s.commit_all("add the job server");
    s.write(
        "server.py",
        "from concurrent.futures import ThreadPoolExecutor\n\n\ndef serve(jobs):\n    \"\"\"Serve the jobs on a thread pool of workers.\"\"\"\n    with ThreadPoolExecutor() as pool:\n        for job in jobs:\n            pool.submit(job)\n",
    );
    s.commit_all("Use a thread pool instead of forking workers\n\nForking is slow on macOS.");
    s.write("README.md", "# jobs\n\nA job server.\n");
    s.commit_all("document the server");
    s.index();
    let (v, code) = ask_json(
        s.path(),
        &["why does the server use a thread pool instead of forking workers?"],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        v["intents"],
        serde_json::json!(["concept", "history"]),
        "{v}"
    );
    let first = &v["history"][0]["commits"][0];
    assert_eq!(
        first["subject"], "Use a thread pool instead of forking workers",
        "{v}"
    );
    assert_eq!(first["body"], "Forking is slow on macOS.", "{v}");
    // The commits by message only: not every commit that touched `server.py`.
    assert_eq!(v["history"].as_array().map(Vec::len), Some(1), "{v}");
    let readings = v["readings"].to_string();
    assert!(
        readings.contains("why the code is so, also from the history"),
        "{readings}"
    );
    // No subject states these words: the code alone answers.
    let (v, _) = ask_json(
        s.path(),
        &["why does the server submit every job to the pool?"],
    );
    assert_eq!(v["intents"], serde_json::json!(["concept"]), "{v}");
}

#[test]
fn a_test_beside_the_code_that_says_the_words_most_does_not_lead_a_how_question() {
    // hyperfine's `outlier_detection.rs`, in outline: the module's doc and its code say
    // "outlier" once or twice, the test beside them a dozen times.
    let s = Scratch::git_fixture("rust");
    let mut text = String::from(
        "//! Statistical outlier detection: a sample's modified Z-scores against a threshold.\n\
         //! Points whose score is past it are outliers.\n\n\
         /// The least modified Z-score of an outlier.\n\
         pub const OUTLIER_THRESHOLD: f64 = 14.8;\n\n\
         /// The modified Z-score of each point: its distance from the median in MADs.\n\
         pub fn modified_zscores(xs: &[f64]) -> Vec<f64> {\n    let m = median(xs);\n    \
         xs.iter().map(|x| (x - m) / mad(xs)).collect()\n}\n\n\
         #[test]\nfn test_detect_outliers() {\n",
    );
    for i in 0..12 {
        text.push_str(&format!(
            "    // outliers detected in sample {i}: no outliers in small samples\n    \
             assert_eq!({i}, num_outliers(&sample({i})));\n"
        ));
    }
    text.push_str("}\n");
    s.write("src/outlier_detection.rs", &text);
    s.index();
    let (v, code) = ask_json(s.path(), &["how are outliers detected?"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["sources"][0]["path"], "src/outlier_detection.rs", "{v}");
    assert_ne!(v["sources"][0]["symbol"], "test_detect_outliers", "{v}");
}

//! `--max-tokens N` on ask, graph, log and search: every page fits (bytes / 4 of what is
//! printed), each names the command of the next page, and the pages' lists, concatenated,
//! are the whole answer.

use serde_json::Value;

use crate::history::{fixture_history, repo_dir};
use crate::util::{Scratch, llmc_in, stderr, stdout};

/// The words of a command line as a POSIX shell splits it (single quotes and `\'`,
/// which is all llmc writes).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' if !quoted => {
                cur.extend(chars.next());
                word = true;
            }
            '\'' => {
                quoted = !quoted;
                word = true;
            }
            ' ' if !quoted => {
                if word {
                    out.push(std::mem::take(&mut cur));
                }
                word = false;
            }
            c => {
                cur.push(c);
                word = true;
            }
        }
    }
    if word {
        out.push(cur);
    }
    out
}

fn tokens(text: &str) -> usize {
    llmc::budget::tokens(text)
}

/// Runs `args --max-tokens max --json` in `dir`, then each page's `next_command`, and
/// returns the pages, checking that each fits.
fn json_pages(dir: &std::path::Path, args: &[&str], max: usize) -> Vec<Value> {
    let max_s = max.to_string();
    let mut argv: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    argv.extend(["--max-tokens".into(), max_s, "--json".into()]);
    let mut pages = Vec::new();
    loop {
        let a: Vec<&str> = argv.iter().map(String::as_str).collect();
        let out = llmc_in(dir, &a);
        let text = stdout(&out);
        let v: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{a:?}: {e}: {text}{}", stderr(&out)));
        let m = v["omitted"].clone();
        assert!(m.is_object(), "{a:?}: no manifest");
        if m["over_budget"] != true {
            assert!(tokens(&text) <= max, "{a:?}: {} > {max}", tokens(&text));
        }
        let mut v = v;
        if let Some(cut) = m.get("cut") {
            // An item too large for a page alone is shown cut: the call named returns it
            // whole, and it stands for the cut one.
            let w = words(cut["whole"].as_str().expect("whole"));
            let again: Vec<&str> = w[1..].iter().map(String::as_str).collect();
            let whole: Value = serde_json::from_str(&stdout(&llmc_in(dir, &again))).expect("json");
            assert!(whole["omitted"].get("cut").is_none(), "{again:?}");
            let pointer = pointer_of(cut["list"].as_str().expect("list"));
            let item = whole.pointer(&pointer).and_then(|l| l.get(0)).cloned();
            let slot = v.pointer_mut(&pointer).and_then(|l| l.get_mut(0));
            *slot.expect("the cut item") = item.expect("the whole item");
        }
        let next = m["next_command"].clone();
        pages.push(v);
        assert!(pages.len() < 400, "{args:?} at {max}: too many pages");
        match next.as_str() {
            None => break,
            Some(line) => {
                let w = words(line);
                assert_eq!(w[0], "llmc");
                argv = w[1..].to_vec();
            }
        }
    }
    pages
}

/// The JSON pointer of a list the manifest names (`graph[0].rows` → `/graph/0/rows`).
fn pointer_of(name: &str) -> String {
    format!(
        "/{}",
        name.replace('[', "/")
            .replace("].", "/")
            .replace(']', "")
            .replace('.', "/")
    )
}

/// The items at `pointer` of every page, in order (an answer text: its lines joined).
fn joined(pages: &[Value], pointer: &str) -> Value {
    if pointer.ends_with("/text") {
        let text: String = pages
            .iter()
            .filter_map(|p| p.pointer(pointer).and_then(Value::as_str))
            .collect();
        return Value::String(text);
    }
    Value::Array(
        pages
            .iter()
            .filter_map(|p| p.pointer(pointer).and_then(Value::as_array))
            .flatten()
            .cloned()
            .collect(),
    )
}

fn whole(dir: &std::path::Path, args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.push("--json");
    let out = llmc_in(dir, &a);
    serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| panic!("{a:?}: {e}"))
}

/// Checks that the pages of `args` at each budget concatenate to the whole answer at
/// each of `lists`; returns how many pages each budget took.
fn check(dir: &std::path::Path, args: &[&str], lists: &[&str], budgets: &[usize]) -> Vec<usize> {
    let all = whole(dir, args);
    budgets
        .iter()
        .map(|&max| {
            let pages = json_pages(dir, args, max);
            for l in lists {
                let want = all.pointer(l).cloned().unwrap_or(Value::Null);
                let want = if want.is_null() {
                    Value::Array(Vec::new())
                } else {
                    want
                };
                assert_eq!(joined(&pages, l), want, "{args:?} at {max} tokens: {l}");
            }
            // Each page starts where the last ended.
            let mut at = 0;
            for p in &pages {
                assert_eq!(p["omitted"]["offset"], at, "{args:?} at {max}");
                at += p["omitted"]["shown"].as_u64().expect("shown");
            }
            assert_eq!(Some(at), pages[0]["omitted"]["total"].as_u64());
            pages.len()
        })
        .collect()
}

/// The python fixture with one more module calling `apply_vat` forty times.
fn many_callers() -> Scratch {
    let repo = Scratch::fixture("python");
    let mut text = String::from("from inventory.pricing import apply_vat\n");
    for i in 0..40 {
        text.push_str(&format!(
            "\n\ndef gross_{i}(amount):\n    \"\"\"Gross amount number {i}.\"\"\"\n    return apply_vat(amount + {i})\n"
        ));
    }
    repo.write("app/many.py", text);
    repo.index();
    repo
}

#[test]
fn graph_pages_fit_and_concatenate_to_the_whole_answer() {
    let repo = many_callers();
    let lists = [
        "/candidates",
        "/results",
        "/references",
        "/through_trait",
        "/also_named",
        "/by_file",
    ];
    let n = check(
        repo.path(),
        &["graph", "callers", "apply_vat", "--limit", "1000"],
        &lists,
        &[100, 300, 1_000, 100_000],
    );
    assert!(n[0] > n[1] && n[1] > n[2] && n[2] > n[3], "{n:?}");
    assert_eq!(n[3], 1);
    check(
        repo.path(),
        &["graph", "defs", "describe"],
        &lists,
        &[150, 100_000],
    );
}

#[test]
fn graph_limit_caps_a_page_and_human_pages_fit_too() {
    let repo = many_callers();
    let pages = json_pages(
        repo.path(),
        &["graph", "callers", "apply_vat", "--limit", "7"],
        100_000,
    );
    assert!(
        pages
            .iter()
            .all(|p| p["omitted"]["shown"].as_u64() <= Some(7))
    );
    // Human pages: within the budget, each starting where the last ended.
    let mut argv: Vec<String> = ["graph", "callers", "apply_vat", "--max-tokens", "200"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut shown = Vec::new();
    for _ in 0..100 {
        let a: Vec<&str> = argv.iter().map(String::as_str).collect();
        let text = stdout(&llmc_in(repo.path(), &a));
        assert!(tokens(&text) <= 200, "{a:?}: {text}");
        shown.extend(
            text.lines()
                .filter(|l| l.contains("app/many.py:") || l.contains("inventory/"))
                .map(str::to_string),
        );
        match text.lines().find_map(|l| l.strip_prefix("next page: ")) {
            Some(line) => argv = words(line)[1..].to_vec(),
            None => break,
        }
    }
    assert_eq!(shown.len(), 41, "{shown:#?}");
}

#[test]
fn log_pages_fit_and_concatenate_to_the_whole_history() {
    let repo = fixture_history();
    let dir = repo_dir(&repo);
    for args in [
        &["log"][..],
        &["log", "lerp"],
        &["log", "calc/arith.py", "--reverse"],
    ] {
        check(&dir, args, &["/commits"], &[150, 400, 100_000]);
        // What the target matched is the answer's head: on every page.
        let all = whole(&dir, args);
        for p in json_pages(&dir, args, 150) {
            assert_eq!(p["matched"], all["matched"]);
        }
    }
    // The whole history at a small budget reads the store one page at a time.
    let pages = json_pages(&dir, &["log"], 150);
    assert!(pages.len() > 3);
    assert!(pages.iter().all(|p| p["total"] == 14));
}

#[test]
fn search_and_ask_pages_fit_and_concatenate() {
    let repo = many_callers();
    check(
        repo.path(),
        &["search", "gross amount vat", "-k", "25"],
        &["/hits"],
        &[150, 600, 100_000],
    );
    let ask_lists = [
        "/answer/text",
        "/graph/0/rows",
        "/graph/0/definitions",
        "/sources",
        "/refine",
    ];
    for q in ["who calls apply_vat?", "how is VAT added to an amount?"] {
        let n = check(
            repo.path(),
            &["ask", "--no-cache", q],
            &ask_lists,
            &[200, 800, 100_000],
        );
        assert_eq!(n[2], 1, "{q}");
    }
}

#[test]
fn an_item_too_large_for_a_page_is_shown_cut_with_the_command_for_it_whole() {
    let repo = Scratch::git_fixture("python");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "the inventory app"]);
    let body: String = (0..40)
        .map(|i| format!("Line {i} of a long message that explains the change at length.\n"))
        .collect();
    for i in 0..30 {
        repo.write(&format!("data/f{i}.txt"), format!("file {i}\n"));
    }
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", &format!("Add the data files\n\n{body}")]);
    repo.index();
    let pages = json_pages(repo.path(), &["log"], 300);
    let cut: Vec<&Value> = pages
        .iter()
        .filter_map(|p| p["omitted"].get("cut"))
        .collect();
    assert!(!cut.is_empty(), "the big commit is cut");
    let parts = &cut[0]["parts"];
    assert!(parts["/body"]["total"].as_u64() > parts["/body"]["shown"].as_u64());
    assert_eq!(parts["/files"]["total"], 30);
    check(repo.path(), &["log"], &["/commits"], &[300, 100_000]);
}

#[test]
fn command_lines_split_as_a_shell_splits_them() {
    assert_eq!(
        words("llmc ask --offset 3 'who calls it?' 'it'\\''s'"),
        ["llmc", "ask", "--offset", "3", "who calls it?", "it's"]
    );
    assert_eq!(pointer_of("graph[0].rows"), "/graph/0/rows");
    assert_eq!(pointer_of("abstention.nearest"), "/abstention/nearest");
    assert_eq!(pointer_of("commits"), "/commits");
}

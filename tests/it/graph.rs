//! The code graph on the nine fixtures: every hand-checked call site resolves to the
//! expected definition (path and qualified name) from the expected caller. External
//! callees are compared by their `external:` prefix only, as testdata/README.md allows.

use std::collections::BTreeMap;

use crate::util::{LANGS, Scratch, call_edges, json, testdata};

fn expected(lang: &str) -> Vec<String> {
    let text = std::fs::read_to_string(testdata().join("expected").join(format!("{lang}.calls")))
        .expect("expected calls");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(normalize)
        .collect()
}

/// `external:anything` → `external:`.
fn normalize(row: &str) -> String {
    match row.rsplit_once('\t') {
        Some((head, callee)) if callee.starts_with("external:") => format!("{head}\texternal:"),
        _ => row.to_string(),
    }
}

/// Precision and recall of `got` against `want` (multisets), with the differences.
fn score(got: &[String], want: &[String]) -> (f64, f64, Vec<String>) {
    let mut counts: BTreeMap<&str, i64> = BTreeMap::new();
    for w in want {
        *counts.entry(w).or_default() += 1;
    }
    let mut hits = 0usize;
    let mut diff = Vec::new();
    for g in got {
        match counts.get_mut(g.as_str()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                hits += 1;
            }
            _ => diff.push(format!("spurious {g}")),
        }
    }
    for (w, n) in counts {
        for _ in 0..n {
            diff.push(format!("missing  {w}"));
        }
    }
    let p = if got.is_empty() {
        1.0
    } else {
        hits as f64 / got.len() as f64
    };
    let r = if want.is_empty() {
        1.0
    } else {
        hits as f64 / want.len() as f64
    };
    (p, r, diff)
}

#[test]
fn every_fixture_call_resolves_as_hand_checked() {
    let mut report = String::new();
    let mut scores = BTreeMap::new();
    for lang in LANGS {
        let repo = Scratch::fixture(lang);
        repo.index();
        let got: Vec<String> = call_edges(&repo.store())
            .iter()
            .map(|r| normalize(r))
            .collect();
        let (p, r, diff) = score(&got, &expected(lang));
        println!("{lang:<11} precision {p:.3} recall {r:.3}");
        for d in &diff {
            report.push_str(&format!("{lang}: {d}\n"));
        }
        scores.insert(lang, (p, r));
    }
    println!("{report}");
    for (lang, (p, r)) in &scores {
        assert!(
            *p >= 1.0 && *r >= 1.0,
            "{lang}: precision {p:.3} recall {r:.3}\n{report}"
        );
    }
}

#[test]
fn callers_answer_every_candidate_grouped_with_the_json_contract() {
    let repo = Scratch::fixture("python");
    repo.index();
    let out = repo.llmc(&["graph", "callers", "describe", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", crate::util::stderr(&out));
    let v = json(&out);
    for key in [
        "target",
        "candidates",
        "results",
        "truncated",
        "schema_version",
    ] {
        assert!(v.get(key).is_some(), "missing {key}: {v}");
    }
    let candidates: Vec<&str> = v["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .map(|c| c["symbol"].as_str().expect("symbol"))
        .collect();
    assert_eq!(candidates, ["Item.describe", "Shelf.describe"]);
    let rows = v["results"].as_array().expect("results");
    for r in rows {
        for key in ["path", "line", "symbol", "resolution", "depth"] {
            assert!(r.get(key).is_some(), "missing {key}: {r}");
        }
    }
    // `Shelf.headline` calls `self.describe()`: the Shelf one, never the Item one.
    assert!(rows.iter().any(|r| r["symbol"] == "Shelf.headline"
        && r["target"] == "inventory/models.py:Shelf.describe"
        && r["resolution"] == "scope"));
    assert!(
        !rows.iter().any(|r| r["symbol"] == "Shelf.headline"
            && r["target"] == "inventory/models.py:Item.describe")
    );

    let text = crate::util::stdout(&repo.llmc(&["graph", "callers", "Shelf.describe"]));
    assert!(text.contains("inventory/models.py:"), "{text}");
    assert!(!text.contains("names 2 definitions"), "{text}");
}

#[test]
fn depth_follows_recursion_and_mutual_recursion_without_looping() {
    let repo = Scratch::fixture("go");
    repo.index();
    let out = repo.llmc(&["graph", "callees", "parseArgs", "--depth", "5", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    let rows = v["results"].as_array().expect("results");
    // parseArgs -> parseQuoted -> parseArgs ...: each definition is expanded once.
    let quoted: Vec<_> = rows
        .iter()
        .filter(|r| r["symbol"] == "parseQuoted")
        .collect();
    assert!(!quoted.is_empty());
    assert!(
        rows.iter()
            .all(|r| r["depth"].as_u64().expect("depth") <= 2),
        "{v}"
    );
}

#[test]
fn resolution_filter_paging_imports_and_exit_codes() {
    let repo = Scratch::fixture("rust");
    repo.index();
    let all = json(&repo.llmc(&["graph", "callees", "main", "--json"]));
    let exact = json(&repo.llmc(&[
        "graph",
        "callees",
        "main",
        "--json",
        "--resolution",
        "exact",
    ]));
    let n_all = all["results"].as_array().expect("results").len();
    let n_exact = exact["results"].as_array().expect("results").len();
    assert!(n_exact > 0 && n_exact < n_all, "{n_exact} of {n_all}");

    let paged = repo.llmc(&["graph", "callees", "main", "--limit", "2"]);
    let text = crate::util::stdout(&paged);
    assert!(
        text.contains(&format!("showing 1-2 of {n_all}; see more with --offset 2")),
        "{text}"
    );
    assert!(text.contains("src/main.rs"), "{text}");
    let page = json(&repo.llmc(&["graph", "callees", "main", "--json", "--limit", "2"]));
    assert_eq!(page["truncated"], true);
    assert_eq!(page["total"].as_u64(), Some(n_all as u64));

    let imports = crate::util::stdout(&repo.llmc(&["graph", "imports", "src/main.rs"]));
    assert!(
        imports.contains("load as load_config") && imports.contains("-> src/config.rs"),
        "{imports}"
    );
    let importers = crate::util::stdout(&repo.llmc(&["graph", "importers", "src/util.rs"]));
    assert!(importers.contains("src/scheduler/mod.rs:5"), "{importers}");

    assert_eq!(
        repo.llmc(&["graph", "callers", "no_such_thing"])
            .status
            .code(),
        Some(1)
    );
    assert_eq!(
        repo.llmc(&["graph", "sideways", "x"]).status.code(),
        Some(2)
    );
    let bare = Scratch::empty();
    assert_eq!(bare.llmc(&["graph", "callers", "x"]).status.code(), Some(3));
}

#[test]
fn an_external_call_is_never_attached_to_a_same_named_repo_function() {
    let repo = Scratch::fixture("python");
    // A repo function named like a library one; the library call must stay external.
    repo.write("inventory/joiner.py", "def join(a, b):\n    return a + b\n");
    repo.write(
        "app/paths.py",
        "import os.path as osp\n\n\ndef where(d):\n    return osp.join(d, 'x')\n",
    );
    repo.index();
    let rows = call_edges(&repo.store());
    let row = rows
        .iter()
        .find(|r| r.starts_with("app/paths.py\t5\t"))
        .expect("call row");
    assert!(row.ends_with("external:os.path.join"), "{row}");
}

#[test]
fn renaming_a_definition_re_resolves_callers_in_unchanged_files() {
    let repo = Scratch::fixture("python");
    repo.index();
    let edge = "app/report.py\t19\tshelf_report\tinventory/models.py:shelf_weight";
    assert!(call_edges(&repo.store()).iter().any(|r| r == edge));

    // Rename the definition only: report.py is not re-parsed, yet its edge must go.
    let models = repo.path().join("inventory/models.py");
    let text = std::fs::read_to_string(&models).expect("read");
    repo.write(
        "inventory/models.py",
        text.replace("def shelf_weight(", "def shelf_mass("),
    );
    let stats = repo.index();
    assert_eq!(stats.parsed, 1);
    let rows = call_edges(&repo.store());
    assert!(
        !rows.iter().any(|r| r.contains("models.py:shelf_weight")),
        "{rows:#?}"
    );
    let incremental = repo.store().dump().expect("dump");
    repo.index_with(&llmc::config::IndexConfig::default(), true);
    assert_eq!(incremental, repo.store().dump().expect("dump"));

    // Point the caller at the new name: the edge comes back, to the new definition.
    let report = repo.path().join("app/report.py");
    let text = std::fs::read_to_string(&report).expect("read");
    repo.write("app/report.py", text.replace("shelf_weight", "shelf_mass"));
    repo.index();
    let rows = call_edges(&repo.store());
    assert!(
        rows.iter()
            .any(|r| r == "app/report.py\t19\tshelf_report\tinventory/models.py:shelf_mass"),
        "{rows:#?}"
    );
    // Deleting the defining file leaves no edge into it.
    std::fs::remove_file(&models).expect("rm");
    repo.index();
    let rows = call_edges(&repo.store());
    assert!(
        !rows.iter().any(|r| r.contains("inventory/models.py:")),
        "{rows:#?}"
    );
}

#[test]
fn renaming_a_definition_imported_under_an_alias_drops_the_aliased_edge() {
    let repo = Scratch::fixture("rust");
    repo.index();
    let edge = "src/main.rs\t34\tmain\tsrc/config.rs:load";
    assert!(call_edges(&repo.store()).iter().any(|r| r == edge));
    // `use config::load as load_config;` in main.rs: the call is named `load_config`.
    let config = repo.path().join("src/config.rs");
    let text = std::fs::read_to_string(&config).expect("read");
    repo.write(
        "src/config.rs",
        text.replace("pub fn load(", "pub fn load_file("),
    );
    repo.index();
    let rows = call_edges(&repo.store());
    assert!(
        !rows
            .iter()
            .any(|r| r.starts_with("src/main.rs\t34\t") && r.ends_with("config.rs:load")),
        "{rows:#?}"
    );
    let incremental = repo.store().dump().expect("dump");
    repo.index_with(&llmc::config::IndexConfig::default(), true);
    assert_eq!(incremental, repo.store().dump().expect("dump"));
}

#[test]
fn callers_list_proven_edges_and_count_name_only_and_unresolved_apart() {
    // `item.total_weight()` on a parameter of unknown type: matched by name alone (the
    // only method of that name), never listed as a caller.
    let repo = Scratch::empty();
    repo.write(
        "inventory/models.py",
        "class Item:\n    def total_weight(self):\n        return 1\n",
    );
    repo.write(
        "inventory/report.py",
        "def heaviest(items):\n    best = None\n    for item in items:\n        w = item.total_weight()\n    return best\n",
    );
    repo.index();
    let out = repo.llmc(&["graph", "callers", "Item.total_weight"]);
    let text = crate::util::stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("no callers proven"), "{text}");
    assert!(
        text.contains(
            "1 more possible call site matched by name only: `--resolution name-only` lists it"
        ),
        "{text}"
    );
    assert!(
        !text.contains("report.py:4"),
        "a guess listed as a caller: {text}"
    );
    let out = repo.llmc(&["graph", "callers", "Item.total_weight", "--json"]);
    let v = json(&out);
    assert_eq!(v["results"].as_array().map(Vec::len), Some(0));
    assert_eq!(v["set_aside"]["name_only"], 1);
    let out = repo.llmc(&[
        "graph",
        "callers",
        "Item.total_weight",
        "--resolution",
        "name-only",
    ]);
    let text = crate::util::stdout(&out);
    assert!(
        text.contains("inventory/report.py:4") && text.contains("[name-only]"),
        "{text}"
    );
    // `ask` lists no guess either: the name-only site is counted, not shown as a caller.
    let text = crate::util::stdout(&repo.llmc(&["ask", "who calls Item.total_weight?"]));
    assert!(!text.contains("report.py:4  in"), "{text}");
    assert!(
        text.contains("1 possible call site matched by name only"),
        "{text}"
    );

    // A call on a receiver nothing types, of a name defined as a plain function: not a
    // caller, but not "never called" either.
    let s = Scratch::empty();
    s.write("a.py", "def run():\n    pass\n");
    s.write("b.py", "def go(o):\n    o.run()\n");
    s.index();
    let out = s.llmc(&["graph", "callers", "run"]);
    let text = crate::util::stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("no callers proven"), "{text}");
    assert!(
        text.contains("1 call site with this name and an unknown receiver could not be resolved"),
        "{text}"
    );
    let v = json(&s.llmc(&["graph", "callers", "run", "--json"]));
    assert_eq!(v["set_aside"]["unresolved"], 1);
    assert_eq!(v["set_aside"]["name_only"], 0);
    // ... and the line points at the command that lists it.
    let text =
        crate::util::stdout(&s.llmc(&["graph", "callers", "run", "--resolution", "unresolved"]));
    assert!(text.contains("b.py:2  go  [unresolved]"), "{text}");
    assert!(!text.contains("could not be resolved"), "{text}");
    // `ask` says the same: no call proven, one site with an unknown receiver, never
    // "not called anywhere".
    let out = s.llmc(&["ask", "who calls run?"]);
    let text = crate::util::stdout(&out);
    assert!(text.contains("No call of"), "{text}");
    assert!(
        text.contains("1 call site named `run` whose receiver could not be typed"),
        "{text}"
    );
    assert!(!text.contains("not called anywhere"), "{text}");
    let v = json(&s.llmc(&["ask", "who calls run?", "--json"]));
    assert_eq!(v["graph"][0]["set_aside"]["unresolved"], 1, "{v:#}");
    assert_eq!(v["graph"][0]["rows"].as_array().map(Vec::len), Some(0));

    // Nothing of that name is called at all: that, and only that, is "not called".
    s.write("c.py", "def lonely():\n    pass\n");
    s.index();
    let text = crate::util::stdout(&s.llmc(&["graph", "callers", "lonely"]));
    assert!(
        text.contains("not called anywhere in the repository"),
        "{text}"
    );
    let text = crate::util::stdout(&s.llmc(&["ask", "who calls lonely?"]));
    assert!(
        text.contains("not called anywhere in the repository"),
        "{text}"
    );
}

/// A function called only in `macro_rules!` bodies (rust-lang/log's `max_level`): no
/// direct call, but the macro lines are listed apart, and the answer does not say it is
/// called nowhere.
#[test]
fn callers_list_calls_in_macro_bodies_apart() {
    let s = Scratch::empty();
    s.write(
        "Cargo.toml",
        "[package]\nname = \"log\"\nversion = \"0.1.0\"\n",
    );
    s.write(
        "src/lib.rs",
        "pub fn max_level() -> usize {\n    3\n}\n\n\
         #[macro_export]\nmacro_rules! log_enabled {\n    ($lvl:expr) => {\n        \
         $lvl <= $crate::max_level()\n    };\n}\n",
    );
    s.index();
    let text = crate::util::stdout(&s.llmc(&["graph", "callers", "max_level"]));
    assert!(text.contains("no direct calls"), "{text}");
    assert!(
        text.contains("also called in macro bodies, where each macro is used (1 place):"),
        "{text}"
    );
    assert!(
        text.contains("src/lib.rs:8  log_enabled  [macro body import]"),
        "{text}"
    );
    let text = crate::util::stdout(&s.llmc(&["ask", "who calls max_level?"]));
    assert!(!text.contains("not called anywhere"), "{text}");
    assert!(text.contains("src/lib.rs:8"), "{text}");
}

#[test]
fn callers_list_decorator_and_value_uses_apart_from_calls() {
    let s = Scratch::empty();
    s.write(
        "app.py",
        "def cleanup(exc):\n    pass\n\ndef traced(f):\n    return f\n\n@traced\ndef handler():\n    register(cleanup)\n    cleanup(None)\n\ndef register(cb):\n    pass\n",
    );
    s.index();
    let text = crate::util::stdout(&s.llmc(&["graph", "callers", "cleanup"]));
    assert!(text.contains("app.py:10  handler  [exact]"), "{text}");
    assert!(
        text.contains("also used without being called (1 place):"),
        "{text}"
    );
    assert!(text.contains("app.py:9  handler  [value exact]"), "{text}");
    // Only applied as a decorator: used, so found, but not called.
    let out = s.llmc(&["graph", "callers", "traced"]);
    let text = crate::util::stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("no direct calls"), "{text}");
    assert!(
        text.contains("app.py:7  <file>  [decorator exact]"),
        "{text}"
    );
    let v = json(&s.llmc(&["graph", "callers", "traced", "--json"]));
    assert_eq!(v["results"].as_array().map(Vec::len), Some(0));
    assert_eq!(v["references"][0]["usage"], "decorator", "{v:#}");
    let text = crate::util::stdout(&s.llmc(&["ask", "who calls traced?"]));
    assert!(text.contains("is not called directly"), "{text}");
    assert!(text.contains("app.py:7  in <file> (decorator)"), "{text}");
    assert!(!text.contains("not called anywhere"), "{text}");
}

#[test]
fn calls_through_a_trait_or_interface_are_offered_for_its_implementations() {
    let s = Scratch::empty();
    s.write(
        "src/lib.rs",
        "pub trait Matcher {\n    fn find(&self) -> u32;\n}\n\npub struct Re;\n\nimpl Matcher for Re {\n    fn find(&self) -> u32 { 1 }\n}\n\npub fn generic<M: Matcher>(m: &M) -> u32 {\n    m.find()\n}\n\npub fn bounded<M>(m: M) -> u32 where M: Matcher {\n    m.find()\n}\n\npub fn object(m: &dyn Matcher) -> u32 {\n    m.find()\n}\n",
    );
    s.write(
        "web/m.ts",
        "export interface Matcher {\n  find(): number;\n}\n\nexport class Re implements Matcher {\n  find(): number { return 1; }\n}\n\nexport function use(m: Matcher): number {\n  return m.find();\n}\n",
    );
    s.index();
    // The trait's own callers: through a bound, a where clause and a trait object.
    let text = crate::util::stdout(&s.llmc(&["graph", "callers", "Matcher::find"]));
    for line in [
        "src/lib.rs:12  generic",
        "src/lib.rs:16  bounded",
        "src/lib.rs:20  object",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }
    // An implementation: no direct call, the trait's calls offered and labelled.
    let out = s.llmc(&["graph", "callers", "src/lib.rs:Re::find"]);
    let text = crate::util::stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("no direct calls"), "{text}");
    assert!(
        text.contains("called through `Matcher::find` (3 places"),
        "{text}"
    );
    assert!(
        text.contains("src/lib.rs:20  object  [through trait, scope]"),
        "{text}"
    );
    let v = json(&s.llmc(&["graph", "callers", "src/lib.rs:Re::find", "--json"]));
    assert_eq!(v["results"].as_array().map(Vec::len), Some(0));
    assert_eq!(
        v["through_trait"].as_array().map(Vec::len),
        Some(3),
        "{v:#}"
    );
    let text = crate::util::stdout(&s.llmc(&["ask", "who calls Re::find?"]));
    assert!(
        text.contains("src/lib.rs:20  in object (through Matcher::find)"),
        "{text}"
    );
    assert!(!text.contains("not called anywhere"), "{text}");
    // The same for a TypeScript interface.
    let text = crate::util::stdout(&s.llmc(&["graph", "callers", "web/m.ts:Re.find"]));
    assert!(
        text.contains("called through `Matcher.find` (1 place"),
        "{text}"
    );
    assert!(text.contains("web/m.ts:10  use"), "{text}");
}

#[test]
fn a_test_named_like_a_method_does_not_hide_the_method_from_a_bare_name() {
    let repo = Scratch::git_fixture("python");
    // A test function named after the method it tests (as walkdir's `contents_first`).
    repo.write("tests/test_shelf.py", "def headline():\n    assert True\n");
    repo.index();
    let j = json(&repo.llmc(&["graph", "callers", "headline", "--json"]));
    let candidates: Vec<&str> = j["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .filter_map(|c| c["symbol"].as_str())
        .collect();
    assert!(candidates.contains(&"Shelf.headline"), "{j}");
    let callers: Vec<String> = j["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| format!("{}:{}", r["path"].as_str().unwrap_or(""), r["line"]))
        .collect();
    assert!(callers.contains(&"app/report.py:14".to_string()), "{j}");
    // A top-level definition nothing calls does not hide the called method either.
    repo.write("app/titles.py", "def headline():\n    return ''\n");
    repo.index();
    let j = json(&repo.llmc(&["graph", "callers", "headline", "--json"]));
    assert!(j["total"].as_u64().unwrap_or(0) >= 1, "{j}");
    assert!(j["also_named"].as_array().is_none_or(Vec::is_empty), "{j}");
    // A called top-level definition wins over same-named methods.
    repo.write(
        "app/titles.py",
        "def headline():\n    return ''\n\ndef title():\n    return headline()\n",
    );
    repo.index();
    let j = json(&repo.llmc(&["graph", "callers", "headline", "--json"]));
    let symbols: Vec<&str> = j["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .filter_map(|c| c["symbol"].as_str())
        .collect();
    assert!(!symbols.contains(&"Shelf.headline"), "{j}");
    assert_eq!(j["also_named"][0]["symbol"], "Shelf.headline", "{j}");
}

#[test]
fn importers_of_a_module_written_as_code_or_of_a_package_outside_the_repository() {
    let repo = Scratch::git_fixture("python");
    repo.index();
    // The distinct import lines (one line may import several names).
    let lines = |j: &serde_json::Value| -> Vec<String> {
        let set: std::collections::BTreeSet<String> = j["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|r| format!("{}:{}", r["path"].as_str().unwrap_or(""), r["line"]))
            .collect();
        set.into_iter().collect()
    };
    // A dotted module is the file it names.
    let j = json(&repo.llmc(&["graph", "importers", "inventory.models", "--json"]));
    assert_eq!(j["candidates"][0]["path"], "inventory/models.py", "{j}");
    assert_eq!(
        lines(&j),
        [
            "app/cli.py:6",
            "app/report.py:4",
            "inventory/pricing.py:3",
            "inventory/storage.py:7"
        ],
        "{j}"
    );
    // A package of the standard library: the lines that import it or a module in it.
    let j = json(&repo.llmc(&["graph", "importers", "os", "--json"]));
    assert_eq!(j["candidates"][0]["kind"], "package", "{j}");
    assert_eq!(
        lines(&j),
        ["inventory/storage.py:4", "inventory/storage.py:5"],
        "{j}"
    );
    // Nothing imports it: not found, exit 1.
    let out = repo.llmc(&["graph", "importers", "numpy"]);
    assert_eq!(out.status.code(), Some(1));
    // ask reads "where is X imported" as who imports X, the import lines first.
    let j = json(&repo.llmc(&["ask", "where is the `json` module imported?", "--json"]));
    assert_eq!(j["sources"][0]["path"], "inventory/storage.py", "{j}");
    let text = j["answer"]["text"].as_str().unwrap_or_default();
    assert!(
        text.starts_with("the package `json` is imported by 1 line(s) in 1 file(s):"),
        "{text}"
    );
    // A package named in plain words, not as code.
    let j = json(&repo.llmc(&["ask", "what files import os?", "--json"]));
    let text = j["answer"]["text"].as_str().unwrap_or_default();
    assert!(
        text.starts_with("the package `os` is imported by 2 line(s) in 1 file(s):"),
        "{text}"
    );
}

/// Who imports a name a file defines: the `use` lines that name it, whether they reach
/// its file directly or through the files that pass it on (`pub use` in `lib.rs` and in
/// a module's `mod.rs`); a test's own item of the same name is no candidate, and a
/// file's `use` of another crate's item of that name is no row.
#[test]
fn importers_of_a_name_follow_the_files_that_pass_it_on() {
    let repo = Scratch::empty();
    repo.write(
        "Cargo.toml",
        "[package]\nname = \"chrono\"\nversion = \"0.1.0\"\n",
    );
    repo.write(
        "src/lib.rs",
        "pub mod naive;\nmod round;\npub use naive::{NaiveDate, NaiveDateTime};\n",
    );
    repo.write(
        "src/naive/mod.rs",
        "mod date;\nmod datetime;\npub use self::date::NaiveDate;\npub use self::datetime::NaiveDateTime;\n",
    );
    repo.write("src/naive/date.rs", "pub struct NaiveDate(i32);\n");
    repo.write(
        "src/naive/datetime.rs",
        "use super::NaiveDate;\n\npub struct NaiveDateTime {\n    pub date: NaiveDate,\n}\n",
    );
    repo.write(
        "src/round.rs",
        "use crate::NaiveDateTime;\n\npub fn round(t: NaiveDateTime) -> NaiveDateTime {\n    t\n}\n",
    );
    repo.write(
        "tests/other.rs",
        "use sqlx::NaiveDateTime;\n\n#[test]\nfn t() {}\n",
    );
    repo.write(
        "tests/own.rs",
        "struct NaiveDateTime;\n\n#[test]\nfn t() {\n    let _ = NaiveDateTime;\n}\n",
    );
    repo.index();
    let j = json(&repo.llmc(&["graph", "importers", "NaiveDateTime", "--json"]));
    let rows: Vec<String> = j["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| format!("{}:{}", r["path"].as_str().unwrap_or(""), r["line"]))
        .collect();
    assert_eq!(
        rows,
        ["src/lib.rs:3", "src/naive/mod.rs:4", "src/round.rs:1"],
        "{j}"
    );
    let candidates = j["candidates"].as_array().expect("candidates");
    assert_eq!(candidates.len(), 1, "{j}");
    assert_eq!(candidates[0]["path"], "src/naive/datetime.rs", "{j}");
}

/// Rust's import is asked for by its keyword: "used in `use` declarations" asks who
/// imports the module, not who calls it.
#[test]
fn a_module_used_in_use_declarations_is_asked_for_its_importers() {
    let repo = Scratch::git_fixture("rust");
    repo.index();
    let j = json(&repo.llmc(&[
        "ask",
        "where is `std::fs` used in `use` declarations?",
        "--json",
    ]));
    assert_eq!(j["intents"], serde_json::json!(["imports"]), "{j}");
    assert_eq!(j["sources"][0]["path"], "src/config.rs", "{j}");
    let text = j["answer"]["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("imported by 1 line(s) in 1 file(s)"),
        "{text}"
    );
}

/// A C function called from inside a function-like macro is called wherever the macro is
/// used, as the compiler sees it after expansion: `who calls fill` lists the uses of
/// `zgetc` and of `next` (which uses `zgetc`), each saying which macros it goes through,
/// in `graph callers`, its JSON and `ask`. A macro nothing uses keeps its own row.
#[test]
fn c_callers_through_function_like_macros() {
    let repo = Scratch::empty();
    repo.write(
        "zio.h",
        "int fill(int *z);\n#define zgetc(z) (*(z) > 0 ? (*(z))-- : fill(z))\n#define unused(z) fill(z)\n",
    );
    repo.write(
        "zio.c",
        "#include \"zio.h\"\nint fill(int *z) { return *z = 8; }\n",
    );
    repo.write(
        "lex.c",
        "#include \"zio.h\"\n#define next(ls) (ls->current = zgetc(ls->z))\nstruct L { int current; int *z; };\nint first(int *z) { return zgetc(z); }\nvoid skip(struct L *ls) {\n  next(ls);\n}\n",
    );
    repo.index();
    let out = repo.llmc(&["graph", "callers", "fill"]);
    let text = crate::util::stdout(&out);
    assert!(
        text.contains("lex.c:4  first  [scope]  (through zgetc)"),
        "{text}"
    );
    assert!(
        text.contains("lex.c:6  skip  [scope]  (through next → zgetc)"),
        "{text}"
    );
    assert!(text.contains("zio.h:3  unused"), "{text}");
    assert!(
        !text.contains("zio.h:2"),
        "the expanded macro's own line: {text}"
    );
    let v = json(&repo.llmc(&["graph", "callers", "fill", "--json"]));
    let rows: Vec<(String, u64, String)> = v["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["path"].as_str().unwrap_or_default().to_string(),
                r["line"].as_u64().unwrap_or_default(),
                r["through"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("lex.c".to_string(), 4, "zgetc".to_string()),
            ("lex.c".to_string(), 6, "next → zgetc".to_string()),
            ("zio.h".to_string(), 3, String::new()),
        ]
    );
    let text = crate::util::stdout(&repo.llmc(&["ask", "--no-llm", "who calls fill?"]));
    assert!(
        text.contains("lex.c:6  in skip (through next → zgetc)"),
        "{text}"
    );
}

/// A receiver typed through a chain (`self.car.engine`) is typed again when another file
/// changes a field or a return type along it, though neither the method called nor an
/// import of the caller's file changed; and an unrelated edit leaves it as it was.
#[test]
fn a_chain_is_typed_again_when_a_file_changes_what_it_goes_through() {
    let repo = Scratch::empty();
    repo.write(
        "engines.py",
        "class Engine:\n    def start(self):\n        return 1\n\n\n\
         class Motor:\n    def start(self):\n        return 2\n",
    );
    let vehicles = |engine: &str, maker: &str| {
        format!(
            "from engines import Engine, Motor\n\n\n\
             class Car:\n    def __init__(self):\n        self.engine: {engine} = {engine}()\n\n\
             \x20   def spare(self) -> {maker}:\n        return {maker}()\n"
        )
    };
    repo.write("vehicles.py", vehicles("Engine", "Engine"));
    // `drive.py` has `Car` from `garage.py`, which has it from `vehicles.py`: an edit of
    // `vehicles.py` changes no import of `drive.py`.
    repo.write("garage.py", "from vehicles import Car\n");
    repo.write(
        "drive.py",
        "from garage import Car\n\n\nclass Driver:\n    def __init__(self, car: Car):\n        \
         self.car: Car = car\n\n    def go(self):\n        return self.car.engine.start()\n\n    \
         def limp(self):\n        return self.car.spare().start()\n",
    );
    repo.write("other.py", "def unrelated():\n    return 0\n");
    repo.index();
    let callers = |name: &str| -> Vec<String> {
        let v = json(&repo.llmc(&["graph", "callers", name, "--json"]));
        let mut out: Vec<String> = v["results"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|r| format!("{}:{}", r["path"].as_str().unwrap_or(""), r["line"]))
            .collect();
        out.sort();
        out
    };
    assert_eq!(callers("Engine.start"), ["drive.py:12", "drive.py:9"]);
    assert!(callers("Motor.start").is_empty());
    // An edit elsewhere that names nothing along the chains.
    repo.write("other.py", "def unrelated():\n    return 1\n");
    repo.index();
    assert_eq!(callers("Engine.start"), ["drive.py:12", "drive.py:9"]);
    // The field's type changes, then the method's return type.
    repo.write("vehicles.py", vehicles("Motor", "Engine"));
    repo.index();
    assert_eq!(callers("Engine.start"), ["drive.py:12"]);
    assert_eq!(callers("Motor.start"), ["drive.py:9"]);
    repo.write("vehicles.py", vehicles("Motor", "Motor"));
    repo.index();
    assert!(callers("Engine.start").is_empty());
    assert_eq!(callers("Motor.start"), ["drive.py:12", "drive.py:9"]);
}

/// "who calls isinstance?", "where is ValueError raised?", `llmc graph callers
/// os.path.join`: a name the code calls but defines nowhere is answered by its call sites
/// (calls only: not the name in a string or a comment), said to be defined outside.
#[test]
fn callers_of_a_name_defined_outside_the_repository_are_its_call_sites() {
    let repo = Scratch::fixture("python");
    repo.write(
        "app/check.py",
        "import os.path\n\n\ndef check(x):\n    if not isinstance(x, int):\n        raise ValueError('not an int: %r' % x)\n    return os.path.join('a', str(x))\n\n\ndef label(x):\n    # isinstance(x, str) is not called here\n    return 'isinstance(x) and ValueError()'\n",
    );
    repo.index();
    let out = repo.llmc(&["graph", "callers", "os.path.join", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", crate::util::stderr(&out));
    let v = json(&out);
    assert_eq!(v["candidates"][0]["kind"], "external", "{v}");
    let rows: Vec<(String, u64, String)> = v["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["path"].as_str().unwrap_or("").to_string(),
                r["line"].as_u64().unwrap_or(0),
                r["symbol"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    // The fixture's own calls of it are listed too; this file's is the one call.
    let here: Vec<_> = rows.iter().filter(|r| r.0 == "app/check.py").collect();
    assert_eq!(
        here,
        [&("app/check.py".to_string(), 7, "check".to_string())]
    );
    assert!(rows.len() > 1, "{v}");
    for (question, line) in [
        ("who calls isinstance?", 5),
        ("where is ValueError raised?", 6),
    ] {
        let out = repo.llmc(&["ask", question, "--json"]);
        assert_eq!(out.status.code(), Some(0), "{}", crate::util::stderr(&out));
        let v = json(&out);
        let text = v["answer"]["text"].as_str().unwrap_or("");
        assert!(text.contains("defined outside this repository"), "{v}");
        let rows = v["graph"][0]["rows"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let lines: Vec<u64> = rows
            .iter()
            .filter(|r| r["path"] == "app/check.py")
            .filter_map(|r| r["line"].as_u64())
            .collect();
        assert_eq!(lines, [line], "{v}");
    }
}

/// In a build without the Kotlin grammar, a repository half in Kotlin: its files are text,
/// and every place a user reads the graph says so and how to parse them.
#[cfg(not(feature = "lang-kotlin"))]
#[test]
fn files_of_a_grammar_this_build_leaves_out_are_named_where_the_graph_is_read() {
    use crate::util::{stderr, stdout};
    let s = Scratch::empty();
    s.write(
        "src/Shop.kt",
        "class Shop {\n    fun checkout(total: Int): Int {\n        return total\n    }\n}\n",
    );
    s.write(
        "src/Till.java",
        "class Till {\n    int ring(Shop s) {\n        return s.checkout(3);\n    }\n}\n",
    );
    s.write(
        "src/Cart.java",
        "class Cart {\n    int pay(Till t) {\n        return t.ring(null);\n    }\n}\n",
    );
    let out = s.llmc(&["index"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let note = "1 Kotlin file is read as text only";
    assert!(stderr(&out).contains(note), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--features lang-kotlin"),
        "{}",
        stderr(&out)
    );
    // Said once: an index with nothing new says nothing.
    let out = s.llmc(&["index"]);
    assert!(!stderr(&out).contains(note), "{}", stderr(&out));

    let out = s.llmc(&["status"]);
    assert!(stdout(&out).contains(note), "{}", stdout(&out));
    let v = json(&s.llmc(&["status", "--json"]));
    assert!(
        v["text_only"].as_str().is_some_and(|t| t.starts_with(note)),
        "{v}"
    );

    // The Java caller is found; the definition is not claimed to be outside the
    // repository, and the answer is no better than Low.
    let v = json(&s.llmc(&["ask", "--json", "--no-llm", "who calls checkout?"]));
    let text = v["answer"]["text"].as_str().unwrap_or("");
    assert!(text.contains("src/Till.java:3"), "{text}");
    assert!(
        text.contains("defined in none of the files this build parses"),
        "{text}"
    );
    assert!(!text.contains("defined outside this repository"), "{text}");
    assert_eq!(v["confidence"]["label"], "Low", "{v}");
    assert!(
        v["warnings"].to_string().contains(note),
        "{}",
        v["warnings"]
    );

    // A name no Kotlin file holds: the answer is whole, and says nothing of them.
    let v = json(&s.llmc(&["ask", "--json", "--no-llm", "who calls ring?"]));
    let text = v["answer"]["text"].as_str().unwrap_or("");
    assert!(text.contains("src/Cart.java:3"), "{text}");
    assert!(
        !v["warnings"].to_string().contains(note),
        "{}",
        v["warnings"]
    );
    assert_ne!(v["confidence"]["label"], "Low", "{v}");
}

/// `super().m()` (Python), `super.m()` (Java, TypeScript) call the method the caller's
/// class inherits: from the base its file imports, never a same-named class elsewhere,
/// and through a base that does not define it; a base outside the repository is external.
#[test]
fn a_call_on_super_is_the_method_the_class_inherits() {
    let repo = Scratch::empty();
    repo.write(
        "app/base.py",
        "class Base:\n    def run(self, x):\n        return x\n",
    );
    repo.write(
        "app/kid.py",
        "from app.base import Base\n\n\nclass Mid(Base):\n    pass\n\n\nclass Kid(Base):\n    def run(self, x):\n        return super().run(x) + super(Kid, self).run(x)\n",
    );
    // A class of the same name beside the callers, which a lookup by name would take.
    repo.write(
        "tests/decoy.py",
        "class Base:\n    def run(self, x):\n        return 0\n",
    );
    repo.write(
        "tests/test_mid.py",
        "import threading\n\nfrom app.kid import Mid\n\n\nclass T(Mid):\n    def run(self, x):\n        return super().run(x)\n\n\nclass W(threading.Thread):\n    def start(self):\n        super().start()\n",
    );
    repo.write(
        "src/Base.java",
        "class Base {\n    int run(int x) { return x; }\n}\n",
    );
    repo.write(
        "src/Kid.java",
        "class Kid extends Base {\n    int run(int x) { return super.run(x); }\n}\n",
    );
    repo.write(
        "web/shapes.ts",
        "export class Shape {\n  area(): number { return 0; }\n}\n\nexport class Square extends Shape {\n  area(): number { return super.area() + 1; }\n}\n",
    );
    repo.index();
    let rows = call_edges(&repo.store());
    for edge in [
        "app/kid.py\t10\tKid.run\tapp/base.py:Base.run",
        "tests/test_mid.py\t8\tT.run\tapp/base.py:Base.run",
        "src/Kid.java\t2\tKid.run\tsrc/Base.java:Base.run",
        "web/shapes.ts\t6\tSquare.area\tweb/shapes.ts:Shape.area",
    ] {
        assert_eq!(
            rows.iter().filter(|r| r.as_str() == edge).count(),
            if edge.starts_with("app/kid.py") { 2 } else { 1 },
            "{edge} in {rows:#?}"
        );
    }
    let start = rows
        .iter()
        .find(|r| r.starts_with("tests/test_mid.py\t13\tW.start\t") && !r.ends_with("super"))
        .expect("super().start() row");
    assert!(
        start.ends_with("\texternal:threading.Thread.start"),
        "{start}"
    );
}

//! Compiler-precise edges from SCIP indexes, with the real indexers: scip-typescript and
//! scip-python from npm. `.ci/run` installs them into `<target>/scip-indexers`; elsewhere
//! the tests look there and on PATH, and without them print a note and pass, except under
//! `CI=true`, where they fail with the install command. The corrupt and missing index
//! tests need no indexer.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use protobuf::Message as _;
use rusqlite::Connection;

use crate::util::{Scratch, json, llmc_env, stderr, stdout};

const INSTALL: &str = "npm install --prefix target/scip-indexers @sourcegraph/scip-typescript@0.4.0 @sourcegraph/scip-python@0.6.6 (or run .ci/run)";

/// A PATH with the indexers' directory first, if both indexers are found.
fn indexer_path() -> Option<String> {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_llmc"));
    // <target>/debug/llmc → <target>/scip-indexers/node_modules/.bin
    let installed = bin
        .parent()
        .and_then(Path::parent)
        .map(|t| t.join("scip-indexers/node_modules/.bin"));
    let path = std::env::var("PATH").unwrap_or_default();
    let dirs: Vec<PathBuf> = installed
        .into_iter()
        .chain(std::env::split_paths(&path))
        .collect();
    let has = |p: &str| dirs.iter().any(|d| d.join(p).is_file());
    if has("scip-typescript") && has("scip-python") {
        std::env::join_paths(dirs)
            .ok()
            .map(|p| p.to_string_lossy().into_owned())
    } else {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        assert!(
            !ci,
            "scip-typescript and scip-python are not installed; install them with: {INSTALL}"
        );
        eprintln!("note: the SCIP indexers are not installed, the test is skipped: {INSTALL}");
        None
    }
}

fn run(s: &Scratch, path: &str, args: &[&str]) -> std::process::Output {
    let out = llmc_env(s.path(), &[("PATH", path)], args);
    assert!(
        out.status.success(),
        "llmc {args:?}: {}\n{}",
        stdout(&out),
        stderr(&out)
    );
    out
}

/// What the indexer says, over the call sites tree-sitter also sees: every reference at a
/// stored call site to a function, method or type (`().`, `#` descriptors), or to any
/// other symbol defined on the first line of a stored definition (a nested function, a
/// function bound to a constant: `const f = () => …`) under that definition's name, with the places of the symbol's
/// definition occurrences (an overloaded TypeScript function has one per signature).
fn indexer_edges(
    scip: &Path,
    root: &Path,
    db: &Connection,
) -> BTreeSet<(Site, Vec<(String, u32)>)> {
    let bytes = std::fs::read(scip).expect("the index exists");
    let index = scip::types::Index::parse_from_bytes(&bytes).expect("a SCIP index");
    let key = |doc: &str, symbol: &str| {
        if symbol.starts_with("local ") {
            format!("{doc}#{symbol}")
        } else {
            symbol.to_string()
        }
    };
    // Each symbol's definition occurrences, with the name written there.
    let mut defs: HashMap<String, Vec<(String, u32, String)>> = HashMap::new();
    for d in &index.documents {
        let text = std::fs::read_to_string(root.join(&d.relative_path)).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        for o in &d.occurrences {
            if o.symbol_roles & 1 != 0 {
                let (line, from) = (o.range[0] as usize, o.range[1] as usize);
                let to = if o.range.len() == 3 {
                    o.range[2] as usize
                } else {
                    usize::MAX
                };
                let name: String = lines
                    .get(line)
                    .map(|l| l.chars().skip(from).take(to.saturating_sub(from)).collect())
                    .unwrap_or_default();
                defs.entry(key(&d.relative_path, &o.symbol))
                    .or_default()
                    .push((d.relative_path.clone(), line as u32 + 1, name));
            }
        }
    }
    let sites: BTreeSet<Site> = db
        .prepare("SELECT f.path, k.line, k.col FROM calls k JOIN files f ON f.id = k.file_id")
        .expect("sql")
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .expect("sql")
        .collect::<rusqlite::Result<_>>()
        .expect("rows");
    let starts: BTreeSet<(String, u32, String)> = db
        .prepare(
            "SELECT f.path, s.start_line, s.name FROM symbols s JOIN files f ON f.id = s.file_id",
        )
        .expect("sql")
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .expect("sql")
        .collect::<rusqlite::Result<_>>()
        .expect("rows");
    let mut out = BTreeSet::new();
    for d in &index.documents {
        for o in &d.occurrences {
            if o.symbol_roles & 3 != 0 {
                continue;
            }
            let callable = o.symbol.ends_with(").") || o.symbol.ends_with('#');
            let at = (
                d.relative_path.clone(),
                o.range[0] as u32 + 1,
                o.range[1] as u32 + 1,
            );
            if let Some(places) = defs.get(&key(&d.relative_path, &o.symbol))
                && sites.contains(&at)
                && (callable || places.iter().any(|p| starts.contains(p)))
            {
                let mut places: Vec<(String, u32)> =
                    places.iter().map(|(f, l, _)| (f.clone(), *l)).collect();
                places.sort();
                out.insert((at, places));
            }
        }
    }
    out
}

/// A call site: path, line, column.
type Site = (String, u32, u32);

/// One of llmc's edges: call site (path, line, column) → the callee's file and lines.
type Ours = (Site, (String, u32, u32));

/// llmc's precise edges (a call site may have several: a method of each member of a
/// union type).
fn precise_edges(db: &Connection) -> Vec<Ours> {
    db.prepare(
        "SELECT f.path, k.line, k.col, cf.path, s.start_line, s.end_line
         FROM call_edges k JOIN files f ON f.id = k.file_id
         JOIN symbols s ON s.id = k.callee_id JOIN files cf ON cf.id = s.file_id
         WHERE k.resolution = 'precise'",
    )
    .expect("sql")
    .query_map([], |r| {
        Ok((
            (r.get(0)?, r.get(1)?, r.get(2)?),
            (r.get(3)?, r.get(4)?, r.get(5)?),
        ))
    })
    .expect("sql")
    .collect::<rusqlite::Result<_>>()
    .expect("rows")
}

fn open_db(s: &Scratch) -> Connection {
    Connection::open(s.path().join(".llmc/index.db")).expect("the store opens")
}

/// Precision and recall of llmc's precise edges against the indexer's references, over
/// the call sites tree-sitter sees: an llmc edge agrees when its callee's lines hold the
/// symbol's definition occurrence.
fn agreement(s: &Scratch, scip: &str) -> (f64, f64, usize) {
    let db = open_db(s);
    let truth = indexer_edges(&s.path().join(".llmc/scip").join(scip), s.path(), &db);
    let ours = precise_edges(&db);
    // An edge to any definition occurrence of the symbol (one signature of an overload).
    let covers = |(file, lo, hi): &(String, u32, u32), places: &[(String, u32)]| {
        places
            .iter()
            .any(|(pf, pl)| pf == file && lo <= pl && pl <= hi)
    };
    let agrees = |(site, callee): &Ours| {
        truth
            .iter()
            .any(|(t, places)| t == site && covers(callee, places))
    };
    let found_by_us = |(t, places): &(Site, Vec<(String, u32)>)| {
        ours.iter()
            .any(|(site, callee)| site == t && covers(callee, places))
    };
    let right = ours.iter().filter(|e| agrees(e)).count();
    let found = truth.iter().filter(|t| found_by_us(t)).count();
    for e in &ours {
        if !agrees(e) {
            eprintln!("llmc's edge the indexer does not confirm: {e:?}");
        }
    }
    for t in &truth {
        if !found_by_us(t) {
            eprintln!("the indexer's edge llmc lacks: {t:?}");
        }
    }
    let precision = right as f64 / ours.len().max(1) as f64;
    let recall = found as f64 / truth.len().max(1) as f64;
    (precision, recall, truth.len())
}

/// Runs `indexer` through `llmc index --precise` on `s`, a copy of `tree` (under
/// testdata/), and checks llmc's precise edges against the indexer's own references.
fn check_precise(s: &Scratch, tree: &Path, indexer: &str, min_edges: usize) {
    let Some(path) = indexer_path() else {
        return;
    };
    let lang = tree.display();
    let out = run(s, &path, &["index", "--precise"]);
    assert!(
        stderr(&out).contains(&format!("precise: {indexer} indexed")),
        "{}",
        stderr(&out)
    );
    let (precision, recall, n) = agreement(s, &format!("{indexer}.scip"));
    eprintln!("{lang}: {n} indexer edges at call sites; precision {precision}, recall {recall}");
    assert!(
        n >= min_edges,
        "{lang}: only {n} indexer edges at call sites"
    );
    assert_eq!(
        (precision, recall),
        (1.0, 1.0),
        "{lang}: precise edges against {indexer}'s references"
    );
    // Nothing was written into the working tree.
    let status = std::process::Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=all"])
        .current_dir(s.path())
        .output()
        .expect("git runs");
    let untracked: Vec<String> = stdout(&status)
        .lines()
        .filter(|l| !l.contains(".llmc"))
        .map(str::to_string)
        .collect();
    let before: Vec<String> = walk_files(tree);
    for l in &untracked {
        let p = l.trim_start_matches("?? ").to_string();
        assert!(before.contains(&p), "{indexer} wrote {p} into the tree");
    }
    // `status` says which language has precise edges, from which index.
    let st = stdout(&run(s, &path, &["status"]));
    assert!(
        st.contains(&format!(".llmc/scip/{indexer}.scip")) && st.contains("precise"),
        "{st}"
    );
}

fn check_language(lang: &str, indexer: &str) {
    let tree = crate::util::testdata().join("repos").join(lang);
    check_precise(&Scratch::git_fixture(lang), &tree, indexer, 10);
}

/// A real published package (testdata/packages/, see testdata/README.md).
fn check_package(name: &str, indexer: &str, min_edges: usize) {
    let tree = crate::util::testdata().join("packages").join(name);
    check_precise(&Scratch::package(name), &tree, indexer, min_edges);
}

fn walk_files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(rel) = p.strip_prefix(dir) {
                out.push(rel.to_string_lossy().into_owned());
            }
        }
    }
    out
}

#[test]
fn typescript_precise_edges_agree_with_scip_typescript() {
    check_language("typescript", "scip-typescript");
}

#[test]
fn python_precise_edges_agree_with_scip_python() {
    check_language("python", "scip-python");
}

#[test]
fn on_a_real_typescript_package_precise_edges_agree_with_scip_typescript() {
    check_package("neverthrow", "scip-typescript", 50);
}

#[test]
fn on_a_real_python_package_precise_edges_agree_with_scip_python() {
    check_package("itsdangerous", "scip-python", 50);
}

#[test]
fn a_file_edited_after_the_scip_run_falls_back_to_heuristic_edges() {
    let Some(path) = indexer_path() else {
        return;
    };
    let s = Scratch::git_fixture("typescript");
    run(&s, &path, &["index", "--precise"]);
    let callers = |s: &Scratch| {
        let v = json(&run(
            s,
            &path,
            &["graph", "callers", "entryTotal", "--json"],
        ));
        v["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|r| {
                (
                    r["path"].as_str().unwrap_or("").to_string(),
                    r["resolution"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect::<Vec<_>>()
    };
    let before = callers(&s);
    assert!(
        !before.is_empty() && before.iter().all(|(_, r)| r == "precise"),
        "{before:?}"
    );
    // Edit the file the callers are in, after the indexer ran; index without --precise.
    let file = s.path().join("src/ledger/ledger.ts");
    let text = std::fs::read_to_string(&file).expect("read");
    std::fs::write(&file, format!("// edited\n{text}")).expect("write");
    run(&s, &path, &["index"]);
    let after = callers(&s);
    assert_eq!(after.len(), before.len(), "{after:?}");
    assert!(
        after
            .iter()
            .all(|(p, r)| p == "src/ledger/ledger.ts" && r != "precise"),
        "the edited file's edges are heuristic again: {after:?}"
    );
    // Other files keep their precise edges.
    let db = open_db(&s);
    let elsewhere: i64 = db
        .query_row(
            "SELECT count(*) FROM calls k JOIN files f ON f.id = k.file_id
             WHERE k.resolution = 'precise' AND f.path = 'src/main.ts'",
            [],
            |r| r.get(0),
        )
        .expect("sql");
    assert!(elsewhere > 0);
    let st = stdout(&run(&s, &path, &["status"]));
    assert!(st.contains("1 changed since"), "{st}");
    let v = json(&run(&s, &path, &["status", "--json"]));
    let stale = &v["precise"]["sources"][0]["languages"];
    assert!(
        stale.to_string().contains("src/ledger/ledger.ts"),
        "{stale}"
    );
    // The next precise run covers it again.
    run(&s, &path, &["index", "--precise"]);
    assert!(callers(&s).iter().all(|(_, r)| r == "precise"));
}

#[test]
fn a_corrupt_or_missing_scip_index_is_a_warning_naming_it() {
    let s = Scratch::git_fixture("typescript");
    s.write("index.scip", b"\xff\xff\xff not protobuf \x00\x01");
    s.write("llmc.toml", "[graph]\nscip = [\"build/missing.scip\"]\n");
    let out = crate::util::llmc_in(s.path(), &["index"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("warning:") && err.contains("SCIP index index.scip"),
        "{err}"
    );
    assert!(err.contains("build/missing.scip"), "{err}");
    // The graph is llmc's own, whole.
    let v = json(&crate::util::llmc_in(
        s.path(),
        &["graph", "callers", "entryTotal", "--json"],
    ));
    let rows = v["results"].as_array().expect("results");
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| r["resolution"] != "precise"));
    let st = stdout(&crate::util::llmc_in(s.path(), &["status"]));
    assert!(st.contains("index.scip"), "{st}");
}

#[test]
fn an_index_scip_at_the_root_covers_files_not_modified_after_it() {
    let Some(path) = indexer_path() else {
        return;
    };
    let s = Scratch::git_fixture("typescript");
    // The indexer run by hand, its index put at the root.
    let out_dir = tempfile::tempdir().expect("temp dir");
    let scip = out_dir.path().join("index.scip");
    let ran = std::process::Command::new("scip-typescript")
        .args(["index", "--no-progress-bar", "--output"])
        .arg(&scip)
        .current_dir(s.path())
        .env("PATH", &path)
        .output()
        .expect("scip-typescript runs");
    assert!(ran.status.success(), "{}", stderr(&ran));
    std::fs::copy(&scip, s.path().join("index.scip")).expect("copy");
    run(&s, &path, &["index"]);
    let db = open_db(&s);
    let precise = |db: &Connection, file: &str| -> i64 {
        db.query_row(
            "SELECT count(*) FROM calls k JOIN files f ON f.id = k.file_id
             WHERE k.resolution = 'precise' AND f.path = ?1",
            [file],
            |r| r.get(0),
        )
        .expect("sql")
    };
    assert!(precise(&db, "src/main.ts") > 0);
    assert!(precise(&db, "src/ledger/ledger.ts") > 0);
    let st = stdout(&run(&s, &path, &["status"]));
    assert!(st.contains("from index.scip"), "{st}");
    drop(db);
    // A file written after the index: its own edges again, the others still precise.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let file = s.path().join("src/ledger/ledger.ts");
    let text = std::fs::read_to_string(&file).expect("read");
    std::fs::write(&file, format!("{text}\n// edited\n")).expect("write");
    run(&s, &path, &["index"]);
    let db = open_db(&s);
    assert_eq!(precise(&db, "src/ledger/ledger.ts"), 0);
    assert!(precise(&db, "src/main.ts") > 0);
}

//! A long-running reader (`llmc mcp`'s [`Session`]): the store and the search indexes
//! kept open between reads, and every read made on an index brought up to date first.

use llmc::ask::Freshness;
use llmc::ask::fresh::Fresh;
use llmc::ask::session::Session;
use llmc::config::{Config, IndexConfig};
use llmc::graph::{self, GraphQuery, Relation};
use llmc::progress::{NoProgress, Progress};

use crate::util::Scratch;

/// The call sites of `apply_vat` as `path:line`, read through the session.
fn callers(s: &Session) -> (Vec<String>, Freshness) {
    let progress = || -> Box<dyn Progress> { Box::new(NoProgress) };
    let fresh = Fresh {
        refresh: true,
        progress: &progress,
        say: &|_| {},
    };
    let (answer, freshness) = s
        .fresh(&fresh, &|| {
            let store = s.store()?;
            graph::query(
                &store,
                &GraphQuery {
                    relation: Relation::Callers,
                    target: "apply_vat".into(),
                    depth: 1,
                    min_resolution: None,
                },
            )
        })
        .expect("the read succeeds");
    let mut rows: Vec<String> = answer
        .results
        .iter()
        .map(|r| format!("{}:{}", r.path, r.line))
        .collect();
    rows.sort();
    (rows, freshness)
}

const VAT: &str =
    "from inventory.pricing import apply_vat\n\n\ndef gross(x):\n    return apply_vat(x)\n";

#[test]
fn a_session_sees_edits_other_writers_and_rebuilt_stores() {
    let repo = Scratch::fixture("python");
    repo.index();
    let s = Session::new(repo.path(), Config::default());

    let (first, f) = callers(&s);
    assert_eq!(first, ["inventory/pricing.py:16"]);
    assert_eq!((f.refreshed_files, f.generation), (0, 1));
    assert!(s.idle_stores() >= 1, "the store goes back to the pool");

    // A file added between two reads: the second read re-indexes it first and says so.
    repo.write("app/vat.py", VAT);
    let (second, f) = callers(&s);
    assert_eq!(second, ["app/vat.py:5", "inventory/pricing.py:16"]);
    assert!(f.refreshed_files >= 1, "{f:?}");
    assert_eq!(f.generation, 2);

    // An edit in place (same directory, no file added).
    let report = repo.path().join("app/report.py");
    let mut text = std::fs::read_to_string(&report).expect("read");
    text.push_str(
        "\n\ndef taxed(x):\n    from inventory.pricing import apply_vat\n    return apply_vat(x)\n",
    );
    std::fs::write(&report, text).expect("write");
    let (third, f) = callers(&s);
    assert_eq!(third.len(), 3, "{third:?}");
    assert!(f.generation >= 3);

    // Another process's index run: the next read is pinned to its generation, with the
    // search indexes of that generation.
    repo.write("app/more.py", VAT.replace("gross", "more"));
    let run = repo.index();
    let (fourth, f) = callers(&s);
    assert_eq!(fourth.len(), 4, "{fourth:?}");
    assert_eq!(f.generation, run.generation);
    assert_eq!(s.indexes().expect("indexes").generation, run.generation);

    // A rebuilt store is another database file: opened anew, not read from the old one.
    let rebuilt = repo.index_with(&IndexConfig::default(), true);
    let (fifth, f) = callers(&s);
    assert_eq!(fifth, fourth);
    assert_eq!(f.generation, rebuilt.generation);

    // Reads at once from several threads agree.
    let all: Vec<Vec<String>> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..4).map(|_| sc.spawn(|| callers(&s).0)).collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no panic"))
            .collect()
    });
    assert!(all.iter().all(|rows| *rows == fourth), "{all:?}");
}

/// On Linux the session reads the kernel's change notices instead of statting every file
/// on each read: an edit made just before a read is never missed, and a read with nothing
/// changed still answers from the index as it is.
#[test]
fn every_edit_right_before_a_read_is_seen() {
    let repo = Scratch::fixture("python");
    repo.index();
    let s = Session::new(repo.path(), Config::default());
    if cfg!(target_os = "linux") {
        assert!(s.watching(), "inotify watches the tree");
    }
    let (base, _) = callers(&s);
    let (again, f) = callers(&s);
    assert_eq!(again, base);
    assert_eq!(f.refreshed_files, 0, "nothing changed: nothing re-indexed");
    for n in 1..=6 {
        // Each round rewrites the same file with n calls, and reads at once.
        let body: String = (0..n)
            .map(|i| format!("\n\ndef g{i}(x):\n    return apply_vat(x)\n"))
            .collect();
        repo.write(
            "app/vat.py",
            format!("from inventory.pricing import apply_vat\n{body}"),
        );
        let (rows, f) = callers(&s);
        assert_eq!(rows.len(), base.len() + n, "round {n}: {rows:?}");
        assert!(f.refreshed_files >= 1, "round {n}: {f:?}");
        let (same, f) = callers(&s);
        assert_eq!(same, rows);
        assert_eq!(f.refreshed_files, 0, "round {n}: read twice, indexed once");
    }
    // A file removed.
    std::fs::remove_file(repo.path().join("app/vat.py")).expect("rm");
    assert_eq!(callers(&s).0, base);
}

#[test]
fn a_session_asks_and_searches_from_kept_indexes() {
    let repo = Scratch::fixture("python");
    repo.index();
    let config = Config::default();
    let s = Session::new(repo.path(), config.clone());
    let progress = || -> Box<dyn Progress> { Box::new(NoProgress) };
    let fresh = Fresh {
        refresh: true,
        progress: &progress,
        say: &|_| {},
    };
    let req = llmc::ask::AskRequest {
        question: "how is VAT added to a net amount?".into(),
        k: None,
        no_cache: true,
        no_llm: true,
        scope: Default::default(),
    };
    let kept = s.ask(&req, &fresh).expect("asks");
    let fresh_process = llmc::ask::ask(repo.path(), &config, &req).expect("asks");
    let paths = |o: &llmc::ask::Outcome| {
        o.sources
            .iter()
            .map(|c| c.loc.path.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(paths(&kept), paths(&fresh_process));
    assert_eq!(kept.status, fresh_process.status);

    let sreq = llmc::search::SearchRequest {
        query: "apply vat".into(),
        mode: llmc::search::Mode::Hybrid,
        k: 5,
        lang: None,
        path_glob: None,
        no_tests: false,
    };
    let (hits, _) = s
        .fresh(&fresh, &|| {
            llmc::search::search_with(&config, &sreq, &|| s.indexes())
        })
        .expect("searches");
    let direct = llmc::search::search(repo.path(), &config, &sreq).expect("searches");
    let ids = |r: &llmc::search::SearchResult| {
        r.hits
            .iter()
            .map(|h| format!("{}:{}", h.loc.path, h.loc.start_line))
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(&hits), ids(&direct));
    assert!(!hits.hits.is_empty());
}

/// The database checked as SQLite sees it.
fn integrity(repo: &Scratch) -> String {
    repo.store()
        .read(|c| c.query_row("PRAGMA integrity_check", [], |r| r.get(0)))
        .expect("integrity_check runs")
}

#[test]
fn another_process_writing_never_corrupts_what_a_session_writes() {
    // A process holding stores open that closed a descriptor of the database (checking
    // whether it may write it) lost its locks: another process's index run then deleted
    // the WAL under it, and the session's next refresh wrote a malformed database.
    let repo = Scratch::fixture("python");
    repo.index();
    let s = Session::new(repo.path(), Config::default());
    callers(&s);
    let out = crate::util::llmc_in(repo.path(), &["-q", "index", "--rebuild"]);
    assert!(out.status.success(), "{}", crate::util::stderr(&out));
    callers(&s);
    repo.write("app/vat.py", VAT);
    let (rows, f) = callers(&s);
    assert_eq!(rows, ["app/vat.py:5", "inventory/pricing.py:16"]);
    assert!(f.refreshed_files >= 1);
    assert_eq!(integrity(&repo), "ok");
    let out = crate::util::llmc_in(repo.path(), &["status"]);
    assert!(out.status.success(), "{}", crate::util::stderr(&out));
}

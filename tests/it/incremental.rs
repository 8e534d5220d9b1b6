//! Incremental indexing gives the same store as starting over.

use llmc::config::IndexConfig;

use crate::util::Scratch;

fn rebuilt_dump(repo: &Scratch) -> String {
    repo.index_with(&IndexConfig::default(), true);
    repo.store().dump().expect("dump")
}

#[test]
fn edit_add_delete_and_rename_then_reindex_equals_a_rebuild() {
    let repo = Scratch::fixture("python");
    let first = repo.index();
    assert!(first.parsed > 0);

    // Edit: a new function at the end of an existing module.
    let storage = repo.path().join("inventory/storage.py");
    let mut text = std::fs::read_to_string(&storage).expect("read");
    text.push_str("\n\ndef added_later(x):\n    \"\"\"Added by the test.\"\"\"\n    return x\n");
    std::fs::write(&storage, text).expect("write");
    // Add a file, delete a file, rename a file.
    repo.write("inventory/extra.py", "def extra():\n    return 1\n");
    let files: Vec<_> = walkdir(repo.path(), "py");
    let victim = files
        .iter()
        .find(|p| {
            !p.ends_with("storage.py") && !p.ends_with("extra.py") && !p.ends_with("__init__.py")
        })
        .expect("a module to delete")
        .clone();
    std::fs::remove_file(&victim).expect("delete");
    std::fs::rename(repo.path().join("README.md"), repo.path().join("GUIDE.md")).expect("rename");

    let second = repo.index();
    assert_eq!((second.added, second.modified), (2, 1), "{second:?}");
    assert_eq!(
        second.deleted, 2,
        "the deleted module and the renamed README's old path"
    );
    assert_eq!(second.generation, first.generation + 1);
    let incremental = repo.store().dump().expect("dump");
    assert!(incremental.contains("added_later"));
    assert!(incremental.contains("file GUIDE.md"));
    assert!(!incremental.contains("file README.md"));
    assert_eq!(incremental, rebuilt_dump(&repo));
}

#[test]
fn an_unchanged_file_is_not_parsed_again_and_a_touched_one_is_only_rehashed() {
    let repo = Scratch::fixture("go");
    repo.index();
    let again = repo.index();
    assert_eq!(
        (again.parsed, again.added, again.modified, again.deleted),
        (0, 0, 0, 0)
    );
    assert_eq!(again.generation, 1, "nothing changed, so no new generation");

    // Same content, new modification time.
    let f = repo.path().join("go.mod");
    let content = std::fs::read(&f).expect("read");
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&f, content).expect("rewrite");
    let touched = repo.index();
    assert_eq!(touched.parsed, 0, "{touched:?}");
    assert_eq!(touched.generation, 1);
}

#[test]
fn every_language_survives_a_round_of_edits() {
    for lang in crate::util::LANGS {
        let repo = Scratch::fixture(lang);
        repo.index();
        // Prepend blank lines to every other file: their ranges move, the rest stay.
        for path in walkdir(repo.path(), "").into_iter().step_by(2) {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            std::fs::write(&path, format!("\n\n{text}")).expect("write");
        }
        repo.index();
        let incremental = repo.store().dump().expect("dump");
        assert_eq!(incremental, rebuilt_dump(&repo), "{lang}");
    }
}

#[test]
fn a_cold_index_resolves_its_calls_as_one_that_stores_them_first() {
    // A cold index holds its call sites back and writes them resolved; an incremental
    // run reads them back from the store. Both must give the same rows.
    for lang in crate::util::LANGS {
        let repo = Scratch::fixture(lang);
        repo.index();
        let held = repo.store().dump().expect("dump");
        assert!(held.contains("call "), "{lang}: the fixture has calls");
        llmc::index::run(
            repo.path(),
            &IndexConfig::default(),
            &llmc::index::IndexOptions {
                rebuild: true,
                store_calls_first: true,
                ..Default::default()
            },
            &llmc::progress::NoProgress,
        )
        .expect("index runs");
        assert_eq!(held, repo.store().dump().expect("dump"), "{lang}");
    }
}

/// Files under `dir` ending with `ext`, sorted.
fn walkdir(dir: &std::path::Path, ext: &str) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read dir").flatten() {
            let p = e.path();
            let name = e.file_name();
            if name.to_string_lossy().starts_with('.') {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_freshness_check_sees_an_edit_in_any_file() {
    use std::time::{Duration, SystemTime};
    // Enough files in enough directories that the check splits them between threads.
    let repo = Scratch::empty();
    let rel = |d: usize, f: usize| format!("pkg{d}/mod{f}.py");
    for d in 0..8 {
        for f in 0..40 {
            repo.write(&rel(d, f), format!("def f{d}_{f}():\n    return {f}\n"));
        }
    }
    // Split between three threads, so each part of the list is some thread's job.
    let stale = || {
        llmc::index::looks_stale(
            repo.path(),
            &repo.store(),
            &llmc::config::Config::default(),
            3,
        )
        .expect("check runs")
    };
    // Modification times in the past, so that the edits below cannot share one.
    let past = SystemTime::now() - Duration::from_secs(3600);
    let set_time = |rel: &str, t: SystemTime| {
        std::fs::File::open(repo.path().join(rel))
            .and_then(|f| f.set_modified(t))
            .expect("set mtime");
    };
    for d in 0..8 {
        for f in 0..40 {
            set_time(&rel(d, f), past);
        }
    }
    repo.index();
    // The directories too (the first index created `.llmc/` in the root): a directory
    // modified in the second of the check counts as changed.
    for d in 0..8 {
        set_time(&format!("pkg{d}"), past);
    }
    set_time("", past);
    assert!(!stale(), "nothing changed since the index");

    for (d, f) in [(0, 0), (3, 17), (7, 39)] {
        let name = rel(d, f);
        // Same size, new time: an in-place edit that the directory does not see.
        let text = std::fs::read_to_string(repo.path().join(&name)).expect("read");
        std::fs::write(repo.path().join(&name), text.replace("return", "yield ")).expect("write");
        set_time(&name, past + Duration::from_secs(60));
        assert!(stale(), "an edit of {name} goes unseen");
        repo.index();
        assert!(!stale(), "re-indexed after editing {name}");
    }
    std::fs::remove_file(repo.path().join(rel(5, 5))).expect("remove");
    assert!(stale(), "a deleted file goes unseen");
}

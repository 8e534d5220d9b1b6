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

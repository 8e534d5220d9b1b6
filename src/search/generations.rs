//! One directory per index generation for each search index (`lexical/g7/`,
//! `vectors/g7/`), so that a reader of generation N reads exactly what the store of
//! generation N names, while a run writes N+1 beside it.
//!
//! A run starts from a scratch copy of N made of hard links ([`scratch`]: the files of
//! both indexes are written once and replaced by rename, never changed in place, so the
//! copy costs a link per file), changes it, and renames it to `g<N+1>` ([`publish`])
//! just before the store commits N+1. A run killed before the store's commit leaves
//! `g<N+1>` or the scratch beside an untouched `g<N>`; the next run removes them
//! ([`collect`]). After the commit, generations older than N are removed: a reader
//! still pinned to one gets [`crate::error::LlmcError::IndexChanged`] and asks again.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// The directory of generation `g` under `parent` (`lexical/` or `vectors/`).
pub fn gen_dir(parent: &Path, g: u64) -> PathBuf {
    parent.join(format!("g{g}"))
}

/// The generation a directory name holds (`g7` → 7); scratch and other names are `None`.
fn generation_of(name: &str) -> Option<u64> {
    name.strip_prefix('g')?.parse().ok()
}

/// Whether a generation newer than `g` exists under `parent` (a reader of `g` that
/// finds its directory gone was overtaken, rather than pointed at nothing).
pub fn newer_exists(parent: &Path, g: u64) -> bool {
    std::fs::read_dir(parent).is_ok_and(|rd| {
        rd.flatten().any(|e| {
            e.file_name()
                .to_str()
                .and_then(generation_of)
                .is_some_and(|n| n > g)
        })
    })
}

/// A fresh scratch directory for generation `to` under `parent`, holding hard links to
/// the files of generation `from` (copies where the file system has no hard links), or
/// nothing when `from` is `None` or absent.
pub fn scratch(parent: &Path, from: Option<u64>, to: u64) -> Result<PathBuf> {
    crate::store::create_private_dir(parent)?;
    let dir = parent.join(format!("g{to}.scratch-{}", std::process::id()));
    if dir.exists() {
        std::fs::remove_dir_all(&dir).with_context(|| format!("removing {}", dir.display()))?;
    }
    std::fs::create_dir(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let Some(from) = from else {
        return Ok(dir);
    };
    let src = gen_dir(parent, from);
    let Ok(entries) = std::fs::read_dir(&src) else {
        return Ok(dir);
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let n = name.to_string_lossy();
        // Lock files belong to the process that holds them; scratch files to nobody.
        if n.ends_with(".lock") || n.ends_with(".tmp") || n.starts_with(".tmp") {
            continue;
        }
        if !e.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let to = dir.join(&name);
        if std::fs::hard_link(e.path(), &to).is_err() {
            std::fs::copy(e.path(), &to)
                .with_context(|| format!("copying {} to {}", e.path().display(), to.display()))?;
        }
    }
    Ok(dir)
}

/// Makes a scratch directory generation `g` (replacing a `g<g>` that a killed run
/// published without its store commit).
pub fn publish(parent: &Path, scratch: &Path, g: u64) -> Result<PathBuf> {
    let dir = gen_dir(parent, g);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).with_context(|| format!("removing {}", dir.display()))?;
    }
    std::fs::rename(scratch, &dir)
        .with_context(|| format!("renaming {} to {}", scratch.display(), dir.display()))?;
    Ok(dir)
}

/// Removes everything under `parent` but the generations in `keep`: older generations,
/// generations a killed run published without committing the store, scratch
/// directories, and files of the layout before generations had directories.
pub fn collect(parent: &Path, keep: &[u64]) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let kept = name
            .to_str()
            .and_then(generation_of)
            .is_some_and(|g| keep.contains(&g));
        if kept {
            continue;
        }
        let path = e.path();
        let _ = if e.file_type().is_ok_and(|t| t.is_dir()) {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scratch_copy_shares_files_and_publishing_leaves_the_old_generation_alone() {
        let root = tempfile::tempdir().expect("dir");
        let parent = root.path().join("lexical");
        let g1 = scratch(&parent, None, 1).expect("scratch");
        std::fs::write(g1.join("seg.idx"), "one").expect("write");
        std::fs::write(g1.join("meta.json"), "m1").expect("write");
        std::fs::write(g1.join(".tantivy-writer.lock"), "").expect("write");
        publish(&parent, &g1, 1).expect("publish");

        let g2 = scratch(&parent, Some(1), 2).expect("scratch");
        assert!(!g2.join(".tantivy-writer.lock").exists());
        assert_eq!(
            std::fs::read_to_string(g2.join("seg.idx")).expect("read"),
            "one"
        );
        // Replaced by rename, as the indexes do: the old generation keeps its file.
        std::fs::write(g2.join("meta.json.new"), "m2").expect("write");
        std::fs::rename(g2.join("meta.json.new"), g2.join("meta.json")).expect("rename");
        std::fs::remove_file(g2.join("seg.idx")).expect("remove");
        publish(&parent, &g2, 2).expect("publish");
        let g1 = gen_dir(&parent, 1);
        assert_eq!(
            std::fs::read_to_string(g1.join("meta.json")).expect("read"),
            "m1"
        );
        assert_eq!(
            std::fs::read_to_string(g1.join("seg.idx")).expect("read"),
            "one"
        );
        assert!(newer_exists(&parent, 1) && !newer_exists(&parent, 2));

        // A killed run's leftovers and the old generation go; the kept ones stay.
        let stale = scratch(&parent, Some(2), 3).expect("scratch");
        std::fs::write(parent.join("meta.json"), "old layout").expect("write");
        collect(&parent, &[2]);
        assert!(!stale.exists() && !g1.exists() && !parent.join("meta.json").exists());
        assert!(gen_dir(&parent, 2).join("meta.json").exists());
    }
}

//! Where the repository is: the root is found the way git finds `.git` (or an existing
//! `.llmc/`), walking up from the working directory; a directory that is in no repository
//! is its own root. Also keeps `.llmc/` out of git through `.git/info/exclude`, never
//! touching a tracked file.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// The repository root for `start`.
pub fn find_root(start: &Path) -> Result<PathBuf> {
    let start = start
        .canonicalize()
        .with_context(|| format!("cannot open directory {}", start.display()))?;
    if !start.is_dir() {
        anyhow::bail!("{} is not a directory", start.display());
    }
    let mut cur = start.as_path();
    loop {
        if cur.join(".git").exists() || cur.join(".llmc").is_dir() {
            return Ok(cur.to_path_buf());
        }
        match cur.parent() {
            Some(p) => cur = p,
            None => return Ok(start),
        }
    }
}

/// The git directory of the repository at `root`, following a `.git` file
/// (`gitdir: …`) for worktrees and submodules, then `commondir` to where `info/` lives.
pub fn git_dir(root: &Path) -> Option<PathBuf> {
    worktree_git_dir(root).map(|dir| common_dir(&dir))
}

/// The worktree's own git directory (where its `HEAD` is): `.git` itself, or where a
/// `.git` file (`gitdir: …`) points.
pub fn worktree_git_dir(root: &Path) -> Option<PathBuf> {
    let dot_git = root.join(".git");
    if dot_git.is_dir() {
        return Some(dot_git);
    }
    let text = std::fs::read_to_string(&dot_git).ok()?;
    let p = PathBuf::from(text.strip_prefix("gitdir:")?.trim());
    Some(if p.is_absolute() { p } else { root.join(p) })
}

/// The directory shared by all worktrees of `dir`'s repository (refs, objects, `info/`):
/// its `commondir`, or `dir` itself.
pub fn common_dir(dir: &Path) -> PathBuf {
    match std::fs::read_to_string(dir.join("commondir")) {
        Ok(common) => {
            let c = PathBuf::from(common.trim());
            if c.is_absolute() { c } else { dir.join(c) }
        }
        Err(_) => dir.to_path_buf(),
    }
}

/// Adds `.llmc/` to `.git/info/exclude` unless it is there already. Does nothing outside
/// a git repository.
pub fn exclude_store(root: &Path) -> Result<()> {
    let Some(git) = git_dir(root) else {
        return Ok(());
    };
    let info = git.join("info");
    let path = info.join("exclude");
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    if current
        .lines()
        .any(|l| matches!(l.trim(), ".llmc" | ".llmc/" | "/.llmc" | "/.llmc/"))
    {
        return Ok(());
    }
    std::fs::create_dir_all(&info).with_context(|| format!("creating {}", info.display()))?;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .with_context(|| format!("opening {}", path.display()))?;
    let sep = if current.is_empty() || current.ends_with('\n') {
        ""
    } else {
        "\n"
    };
    write!(f, "{sep}# llmc's index\n/.llmc/\n")
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

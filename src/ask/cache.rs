//! Answers kept under `.llmc/cache/ask/`, keyed by the normalized question and the
//! options and configuration that shape the answer. An entry is valid while the index
//! generation is the one it was made from and every file it cites is unchanged on disk
//! (size and modification time). A broken entry is a miss, never an error.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::retrieve::Memories;
use super::{AskRequest, Outcome};
use crate::config::Config;
use crate::store::store_dir;

/// Bumped when the outcome's shape changes.
const CACHE_VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
struct Entry {
    key: String,
    generation: u64,
    /// (path, size, mtime in ns) of every cited file.
    files: Vec<(String, u64, i64)>,
    outcome: Outcome,
}

/// The cache key of a request under a configuration.
pub fn key(req: &AskRequest, config: &Config) -> String {
    let question = req
        .question
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    // Another build of llmc may answer differently: its size and time are in the key.
    let build = std::env::current_exe()
        .and_then(std::fs::metadata)
        .map(|m| format!("{}:{:?}", m.len(), m.modified().ok()))
        .unwrap_or_default();
    let material = format!(
        "{}|{CACHE_VERSION}|{build}\n{question}\n{:?}|{}|{:?}\n{}",
        env!("CARGO_PKG_VERSION"),
        req.k,
        req.no_llm,
        req.scope,
        toml::to_string(config).unwrap_or_default()
    );
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(material.as_bytes()))
}

fn path_of(root: &Path, key: &str) -> PathBuf {
    store_dir(root)
        .join("cache")
        .join("ask")
        .join(format!("{key}.json"))
}

fn stat(root: &Path, rel: &str) -> Option<(u64, i64)> {
    let m = std::fs::metadata(root.join(rel)).ok()?;
    let mtime = m
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_nanos() as i64;
    Some((m.len(), mtime))
}

/// The cached outcome for `key`, if still valid.
pub fn get(root: &Path, m: &Memories, key: &str) -> Result<Option<Outcome>> {
    let Ok(bytes) = std::fs::read(path_of(root, key)) else {
        return Ok(None);
    };
    let Ok(entry) = serde_json::from_slice::<Entry>(&bytes) else {
        return Ok(None);
    };
    if entry.key != key || entry.generation != m.generation() {
        return Ok(None);
    }
    for (path, size, mtime) in &entry.files {
        if stat(root, path) != Some((*size, *mtime)) {
            return Ok(None);
        }
    }
    Ok(Some(entry.outcome))
}

/// Stores an outcome; failing to write is not an error (the cache is a courtesy).
pub fn put(root: &Path, m: &Memories, key: &str, outcome: &Outcome) -> Result<()> {
    let mut paths: Vec<&str> = outcome
        .sources
        .iter()
        .map(|s| s.loc.path.as_str())
        .chain(outcome.graph.iter().flat_map(|g| {
            g.rows
                .iter()
                .map(|r| r.path.as_str())
                .chain(g.definitions.iter().map(|d| d.path.as_str()))
        }))
        .chain(
            outcome
                .abstention
                .iter()
                .flat_map(|a| a.nearest.iter().map(|n| n.loc.path.as_str())),
        )
        .collect();
    paths.sort_unstable();
    paths.dedup();
    // While the history is read (newest first, slice by slice) an answer could change
    // with every slice: nothing is kept until it is whole.
    if m.read(|c| Ok(crate::history::query::partial_note(c)))??
        .is_some()
    {
        return Ok(());
    }
    // Lines of a file that holds a secret (indexed because secrets are included) are
    // shown, never kept on disk.
    if m.indexes
        .store
        .any_flagged(&paths, crate::store::flags::SECRET)?
    {
        return Ok(());
    }
    let mut files = Vec::new();
    for p in paths {
        match stat(root, p) {
            Some((size, mtime)) => files.push((p.to_string(), size, mtime)),
            None => return Ok(()),
        }
    }
    let entry = Entry {
        key: key.to_string(),
        generation: m.generation(),
        files,
        outcome: outcome.clone(),
    };
    let path = path_of(root, key);
    if let Some(dir) = path.parent()
        && crate::store::create_private_dir(dir).is_ok()
        && let Ok(bytes) = serde_json::to_vec(&entry)
    {
        let _ = crate::store::write_atomic(&path, &bytes);
    }
    Ok(())
}

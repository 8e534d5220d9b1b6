//! The keys of the store's `meta` table, and typed reads of the values other modules
//! need. Every key is named here, so no module spells one as a string of its own.

use std::collections::BTreeMap;

use anyhow::Result;

use super::Store;

/// The generation of the last complete index run.
pub const GENERATION: &str = "generation";
/// The [`crate::index::EXTRACTION_VERSION`] the files were read with.
pub const EXTRACTION: &str = "extraction";
/// When the last generation was committed (seconds since the epoch).
pub const INDEXED_AT: &str = "indexed_at";
/// When an index run last checked the tree, whether or not it changed anything.
pub const CHECKED_AT: &str = "checked_at";
/// Files the last run's walk set aside, by reason (JSON object).
pub const SKIPPED: &str = "skipped";
/// The llmc version that wrote the last generation.
pub const LLMC_VERSION: &str = "llmc_version";
/// The memories a generation was built with ([`crate::model::MemorySet`]).
pub const MEMORIES: &str = "memories";
/// The HEAD commit the history was last ingested at.
pub const HISTORY_HEAD: &str = "history_head";
/// The shallow boundary at that time (sorted hashes, space-separated; empty if none).
pub const HISTORY_SHALLOW: &str = "history_shallow";
/// Why there is no history (not a repository, no commits, no git), when there is none.
pub const HISTORY_NOTE: &str = "history_note";
/// Set when the repository is a partial clone: commits and files are read, the
/// definitions each commit touched are not (their old versions are not local).
pub const HISTORY_PARTIAL: &str = "history_partial";
/// Set while a history is read whose repository lacks a version of a file in no parsed
/// language: git log then diffs no file, code files are diffed by llmc, and the others
/// have no line counts.
pub const HISTORY_TEXT_MISSING: &str = "history_text_missing";
/// Commits HEAD reaches that the history has not read yet (absent or 0: complete).
/// The history is read newest first, so what it holds is the newest part.
pub const HISTORY_REMAINING: &str = "history_remaining";
/// What the last graph pass read from SCIP indexes (JSON, [`crate::graph::scip::ScipSummary`]).
pub const SCIP: &str = "scip";
/// The SCIP indexes that pass read, as (path, size, mtime) (JSON), so that a changed index
/// makes the next run apply it even when no file changed.
pub const SCIP_SOURCES: &str = "scip_sources";

impl Store {
    /// A time key ([`INDEXED_AT`], [`CHECKED_AT`]) in seconds since the epoch.
    pub fn meta_seconds(&self, key: &str) -> Result<Option<i64>> {
        Ok(self.meta(key)?.and_then(|s| s.parse().ok()))
    }

    /// When the last generation was committed ([`INDEXED_AT`]); `None` before the first
    /// run or when the stored value is not a time.
    pub fn indexed_at(&self) -> Result<Option<jiff::Timestamp>> {
        Ok(self
            .meta_seconds(INDEXED_AT)?
            .and_then(|secs| jiff::Timestamp::from_second(secs).ok()))
    }

    /// What the last run's walk set aside, by reason.
    pub fn skipped(&self) -> Result<BTreeMap<String, u64>> {
        Ok(self
            .meta(SKIPPED)?
            .and_then(|s| serde_json::from_str(&s).ok())
            .unwrap_or_default())
    }
}

//! Failures a caller must tell apart, and the exit code each one maps to. Everything
//! else travels as `anyhow::Error` and exits with code 2.

use std::path::PathBuf;

use crate::model::Memory;

/// Process exit codes, as documented in the README and the man page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Answered.
    Ok = 0,
    /// Abstained, or nothing found.
    NotFound = 1,
    /// Usage or configuration error (and any other failure).
    Usage = 2,
    /// The index is missing or unusable.
    Index = 3,
    /// An index run stopped by SIGINT or SIGTERM (128 + 2, as shells report Ctrl-C).
    Interrupted = 130,
}

/// Errors with a meaning of their own.
#[derive(Debug, thiserror::Error)]
pub enum LlmcError {
    #[error("no index at {}: run `llmc index` first", .0.display())]
    IndexMissing(PathBuf),
    #[error("the index at {} is unusable ({reason}): run `llmc index --rebuild`", path.display())]
    IndexUnusable { path: PathBuf, reason: String },
    #[error("{0}")]
    Config(String),
    /// A line of an `llmc eval` file that cannot be read as a labelled question.
    #[error("{file}:{line}: {problem}")]
    EvalFile {
        file: String,
        line: usize,
        problem: String,
    },
    /// A flag's value that clap could not check (a date, a glob, a directory).
    #[error("{0}")]
    Usage(String),
    /// The question needs a memory the index was built without (`index.NAME = false`).
    #[error(
        "{title} was not built (index.{name} = false): set `{name} = true` under [index] in \
         llmc.toml (or LLMC_INDEX_{upper}=true), then run `llmc index`",
        title = .0.title(),
        name = .0,
        upper = .0.as_str().to_uppercase()
    )]
    MemoryOff(Memory),
    /// An index run was asked to stop (Ctrl-C, SIGTERM) and did, at a safe point.
    #[error("interrupted: nothing of this run was kept; the index is as it was before it")]
    Interrupted,
    /// The generation a reader started from was replaced and removed while it read (a
    /// reader slower than two index runs); asking again reads the new one.
    #[error("the index changed while it was being read: ask again")]
    IndexChanged,
}

impl LlmcError {
    /// The exit code for this error.
    pub fn exit(&self) -> Exit {
        match self {
            LlmcError::IndexMissing(_)
            | LlmcError::IndexUnusable { .. }
            | LlmcError::MemoryOff(_)
            | LlmcError::IndexChanged => Exit::Index,
            LlmcError::Interrupted => Exit::Interrupted,
            LlmcError::Config(_) | LlmcError::EvalFile { .. } | LlmcError::Usage(_) => Exit::Usage,
        }
    }

    /// A short machine-readable name for JSON errors.
    pub fn kind(&self) -> &'static str {
        match self {
            LlmcError::IndexMissing(_) => "index_missing",
            LlmcError::IndexUnusable { .. } => "index_unusable",
            LlmcError::Config(_) => "config",
            LlmcError::EvalFile { .. } => "eval_file",
            LlmcError::Usage(_) => "usage",
            LlmcError::MemoryOff(_) => "memory_off",
            LlmcError::Interrupted => "interrupted",
            LlmcError::IndexChanged => "index_changed",
        }
    }
}

/// The exit code and kind for any error: a typed error anywhere in the chain decides.
pub fn classify(err: &anyhow::Error) -> (Exit, &'static str) {
    for cause in err.chain() {
        if let Some(e) = cause.downcast_ref::<LlmcError>() {
            return (e.exit(), e.kind());
        }
    }
    (Exit::Usage, "error")
}

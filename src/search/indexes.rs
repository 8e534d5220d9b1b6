//! One opener for what a reader reads: the store pinned at its generation, and the
//! lexical index and the vectors of that same generation, each with what can be wrong
//! with it (never built, unreadable, written by an interrupted run, made by another
//! embedder). `search::search` fails on those and `ask` warns and goes on: each decides
//! from the same [`Opened`] here, so the checks are written once.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::embed::{self, Embedder};
use super::generation_dir;
use super::lexical::{LexicalIndex, lexical_dir};
use super::vectors::{VectorIndex, vectors_dir};
use crate::config::EmbedConfig;
use crate::model::MemorySet;
use crate::store::{Store, store_dir};

/// The store of one repository at its current generation, and what it was built with.
pub struct Indexes {
    pub store: Store,
    /// The generation the store holds; the search indexes opened are of this one.
    pub generation: u64,
    /// The memories this generation was built with.
    pub built: MemorySet,
    /// `.llmc/`.
    pub dir: PathBuf,
}

/// A search index of the store's generation, or why there is none to read.
pub enum Opened<T> {
    Ready {
        index: T,
        /// Written for another generation than the store's (an interrupted run).
        out_of_step: bool,
    },
    /// Never built for this generation: `llmc index` builds it.
    Missing,
    /// There, but it cannot be read.
    Broken(anyhow::Error),
}

/// The vectors were made by another embedder than the configuration names: comparing
/// a query with them would be meaningless.
pub struct OtherEmbedder {
    pub made_by: String,
    pub configured: String,
}

impl Indexes {
    /// Opens the store of `root` (pinning its generation; an error when there is no
    /// usable index).
    pub fn open(root: &Path) -> Result<Indexes> {
        let store = Store::open_existing(root)?;
        let generation = store.generation()?;
        let built = store.memories()?;
        Ok(Indexes {
            store,
            generation,
            built,
            dir: store_dir(root),
        })
    }

    /// The lexical index of the generation. A generation removed meanwhile is
    /// `LlmcError::IndexChanged`; an index that cannot be opened is an error.
    pub fn lexical(&self) -> Result<Opened<LexicalIndex>> {
        let index = match generation_dir(&lexical_dir(&self.dir), self.generation)? {
            Some(dir) => LexicalIndex::open(&dir)?,
            None => None,
        };
        Ok(match index {
            Some(index) => Opened::Ready {
                out_of_step: index.generation() != Some(self.generation),
                index,
            },
            None => Opened::Missing,
        })
    }

    /// The vectors of the generation. A generation removed meanwhile is
    /// `LlmcError::IndexChanged`; vectors that cannot be read are [`Opened::Broken`].
    pub fn vectors(&self) -> Result<Opened<VectorIndex>> {
        let Some(dir) = generation_dir(&vectors_dir(&self.dir), self.generation)? else {
            return Ok(Opened::Missing);
        };
        Ok(match VectorIndex::open(&dir) {
            Ok(Some(index)) => Opened::Ready {
                out_of_step: index.manifest.generation != self.generation,
                index,
            },
            Ok(None) => Opened::Missing,
            Err(e) => Opened::Broken(e),
        })
    }
}

/// The configured embedder, if it is the one that made `index`'s vectors.
pub fn embedder_for(
    index: &VectorIndex,
    cfg: &EmbedConfig,
) -> Result<Result<Box<dyn Embedder>, OtherEmbedder>> {
    let embedder = embed::from_config(cfg)?;
    if index.manifest.embedder != embedder.id() {
        return Ok(Err(OtherEmbedder {
            made_by: index.manifest.embedder.clone(),
            configured: embedder.id(),
        }));
    }
    Ok(Ok(embedder))
}

/// The warning for a search index written by an interrupted run.
pub fn out_of_step() -> String {
    "the search indexes are out of step with the store (an index run was interrupted): run `llmc index`".into()
}

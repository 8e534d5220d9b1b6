//! One opener for what a reader reads: the store pinned at its generation, and the
//! lexical index and the vectors of that same generation, each with what can be wrong
//! with it (never built, unreadable, written by an interrupted run, made by another
//! embedder). `search::search` fails on those and `ask` warns and goes on: each decides
//! from the same [`Opened`] here, so the checks are written once.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::Result;

use super::embed::{self, Embedder};
use super::generation_dir;
use super::lexical::{LexicalIndex, lexical_dir};
use super::vectors::{VectorIndex, vectors_dir};
use crate::config::EmbedConfig;
use crate::model::MemorySet;
use crate::store::{Pool, Reader, Store, store_dir};

/// The store of one repository at its current generation, and what it was built with.
pub struct Indexes {
    pub store: Reader,
    /// The generation the store holds; the search indexes opened are of this one.
    pub generation: u64,
    /// The memories this generation was built with.
    pub built: MemorySet,
    /// `.llmc/`.
    pub dir: PathBuf,
    /// The search indexes kept open between reads, when a long-running process keeps
    /// them ([`Kept`]).
    warm: Option<Arc<Warm>>,
}

/// What a long-running reader (`llmc mcp`) keeps open between reads: stores in a pool
/// ([`Pool`]), and the lexical index and the vectors of the newest generation read.
/// Each read is pinned to the newest committed generation, and opens the search indexes
/// again only when that generation is not the one kept.
pub struct Kept {
    root: PathBuf,
    pool: Arc<Pool>,
    warm: Arc<Warm>,
}

/// The search indexes of one generation, kept between reads, and the names it defines.
#[derive(Default)]
struct Warm {
    lexical: Mutex<Option<(u64, Arc<LexicalIndex>)>>,
    vectors: Mutex<Option<(u64, Arc<VectorIndex>)>>,
    vocabulary: Mutex<Option<(u64, Arc<Vec<String>>)>>,
}

impl Kept {
    pub fn new(root: &Path) -> Kept {
        Kept {
            root: root.to_path_buf(),
            pool: Pool::new(root),
            warm: Arc::default(),
        }
    }

    /// The store pinned to the newest generation, with the search indexes of that
    /// generation (opened on first use, then kept).
    pub fn open(&self) -> Result<Indexes> {
        Indexes::with_store(self.pool.get()?, &self.root, Some(Arc::clone(&self.warm)))
    }

    /// A store pinned to the newest generation, from the pool.
    pub fn store(&self) -> Result<Reader> {
        self.pool.get()
    }

    /// Stores waiting in the pool (for tests).
    pub fn idle_stores(&self) -> usize {
        self.pool.idle()
    }
}

/// The kept index of `generation` in `slot`, or a newly opened one put there.
fn kept<T>(
    slot: &Mutex<Option<(u64, Arc<T>)>>,
    generation: u64,
    open: impl FnOnce() -> Result<Opened<T>>,
) -> Result<Opened<Arc<T>>> {
    if let Ok(guard) = slot.lock()
        && let Some((g, index)) = guard.as_ref()
        && *g == generation
    {
        return Ok(Opened::Ready {
            index: Arc::clone(index),
            out_of_step: false,
        });
    }
    Ok(match open()? {
        Opened::Ready { index, out_of_step } => {
            let index = Arc::new(index);
            // An index out of step is not kept: the next run may repair it.
            if !out_of_step && let Ok(mut guard) = slot.lock() {
                *guard = Some((generation, Arc::clone(&index)));
            }
            Opened::Ready { index, out_of_step }
        }
        Opened::Missing => Opened::Missing,
        Opened::Broken(e) => Opened::Broken(e),
    })
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
        Indexes::with_store(Reader::own(Store::open_existing(root)?), root, None)
    }

    fn with_store(store: Reader, root: &Path, warm: Option<Arc<Warm>>) -> Result<Indexes> {
        let generation = store.generation()?;
        let built = store.memories()?;
        Ok(Indexes {
            store,
            generation,
            built,
            dir: store_dir(root),
            warm,
        })
    }

    /// The lexical index of the generation. A generation removed meanwhile is
    /// `LlmcError::IndexChanged`; an index that cannot be opened is an error.
    pub fn lexical(&self) -> Result<Opened<Arc<LexicalIndex>>> {
        match &self.warm {
            Some(w) => kept(&w.lexical, self.generation, || self.open_lexical()),
            None => Ok(match self.open_lexical()? {
                Opened::Ready { index, out_of_step } => Opened::Ready {
                    index: Arc::new(index),
                    out_of_step,
                },
                Opened::Missing => Opened::Missing,
                Opened::Broken(e) => Opened::Broken(e),
            }),
        }
    }

    fn open_lexical(&self) -> Result<Opened<LexicalIndex>> {
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

    /// Every name the generation defines (`store::lookups::vocabulary`): read once per
    /// generation when kept, else read now.
    pub fn vocabulary(&self) -> Result<Arc<Vec<String>>> {
        let read = || -> Result<Arc<Vec<String>>> {
            Ok(Arc::new(
                self.store.read(crate::store::lookups::vocabulary)?,
            ))
        };
        let Some(w) = &self.warm else {
            return read();
        };
        if let Ok(guard) = w.vocabulary.lock()
            && let Some((g, v)) = guard.as_ref()
            && *g == self.generation
        {
            return Ok(Arc::clone(v));
        }
        let v = read()?;
        if let Ok(mut guard) = w.vocabulary.lock() {
            *guard = Some((self.generation, Arc::clone(&v)));
        }
        Ok(v)
    }

    /// The vectors of the generation. A generation removed meanwhile is
    /// `LlmcError::IndexChanged`; vectors that cannot be read are [`Opened::Broken`].
    pub fn vectors(&self) -> Result<Opened<Arc<VectorIndex>>> {
        match &self.warm {
            Some(w) => kept(&w.vectors, self.generation, || self.open_vectors()),
            None => Ok(match self.open_vectors()? {
                Opened::Ready { index, out_of_step } => Opened::Ready {
                    index: Arc::new(index),
                    out_of_step,
                },
                Opened::Missing => Opened::Missing,
                Opened::Broken(e) => Opened::Broken(e),
            }),
        }
    }

    fn open_vectors(&self) -> Result<Opened<VectorIndex>> {
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

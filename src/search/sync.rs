//! Keeps the lexical and vector indexes in step with the SQLite store during an index
//! run. The run feeds every deleted chunk id and every inserted chunk (with its text,
//! which only the run has in memory); [`SearchWriter::commit`] commits both indexes with
//! the new generation *before* the store commits it.
//!
//! When the run is killed between the two commits, the search indexes are one
//! generation ahead of the store. Readers drop hits whose chunk no longer exists, and
//! the next run sees the mismatch (as it sees a switched embedder) and rebuilds
//! everything: the search indexes can only be refilled from the files' text.

use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use super::embed::{self, Embedder};
use super::lexical::{self, LexDoc, LexicalWriter};
use super::vectors::{self, QVec, VectorWriteConfig, VectorWriteStats, VectorWriter};
use crate::config::Config;
use crate::model::{Chunk, Symbol};
use crate::store::store_dir;

/// Texts embedded per batch by the built-in embedder (it spreads a batch over the cores).
const BUILTIN_BATCH: usize = 2048;

/// What the search indexes did in an index run.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SearchStats {
    /// Why everything was re-indexed, when it was.
    pub rebuilt: Option<String>,
    pub embedder: String,
    pub vectors: VectorWriteStats,
}

/// Owns the embedder for the duration of an index run. Either index can be off
/// (`index.lexical`, `index.semantic`): it is then neither written nor kept.
pub struct SearchSync {
    /// `None` when the semantic index is off.
    embedder: Option<Box<dyn Embedder>>,
    config: Config,
}

impl SearchSync {
    /// Builds the configured embedder when the semantic index is on (for Ollama: checks
    /// the server and the model).
    pub fn new(config: &Config) -> Result<SearchSync> {
        let embedder = if config.index.semantic {
            Some(embed::from_config(&config.embed)?)
        } else {
            None
        };
        Ok(SearchSync {
            embedder,
            config: config.clone(),
        })
    }

    /// Why the search indexes of `root` cannot be updated incrementally from a store at
    /// `generation`: missing, out of step, or made by another embedder.
    pub fn stale_reason(&self, root: &Path, generation: u64) -> Result<Option<String>> {
        if generation == 0 {
            return Ok(None);
        }
        let dir = store_dir(root);
        let lex = lexical::generation(&lexical::lexical_dir(&dir))
            .ok()
            .flatten();
        if self.config.index.lexical && lex != Some(generation) {
            return Ok(Some(match lex {
                None => "the lexical index is missing".into(),
                Some(g) => {
                    format!("the lexical index is at generation {g}, the store at {generation}")
                }
            }));
        }
        let Some(embedder) = &self.embedder else {
            return Ok(None);
        };
        let manifest = vectors::read_manifest(&vectors::vectors_dir(&dir))
            .ok()
            .flatten();
        Ok(match manifest {
            None => Some("the vector index is missing".into()),
            Some(m) if m.generation != generation => Some(format!(
                "the vector index is at generation {}, the store at {generation}",
                m.generation
            )),
            Some(m) if m.embedder != embedder.id() => Some(format!(
                "the vectors were made by `{}`, the configuration asks for `{}`",
                m.embedder,
                embedder.id()
            )),
            Some(_) => None,
        })
    }

    /// The embedder when it runs in the parse workers ([`Embedder::inline`]): the index
    /// run then embeds each file's chunks with [`embed_chunks`] where they are made.
    pub fn inline_embedder(&self) -> Option<&dyn Embedder> {
        let e = self.embedder.as_deref()?;
        e.inline().then_some(e)
    }

    /// Opens the indexes that are on for writing (`fresh`: from nothing) and removes
    /// those that are off.
    pub fn writer(&self, root: &Path, fresh: bool) -> Result<SearchWriter<'_>> {
        let dir = store_dir(root);
        let batch = if self.config.embed.provider == "builtin" {
            BUILTIN_BATCH
        } else {
            self.config.embed.batch_size.max(1)
        };
        let lex_dir = lexical::lexical_dir(&dir);
        let lex = if self.config.index.lexical {
            Some(LexicalWriter::open(
                &lex_dir,
                fresh,
                self.config.index.worker_threads(),
            )?)
        } else {
            remove_dir(&lex_dir)?;
            None
        };
        let vec_dir = vectors::vectors_dir(&dir);
        let vec = match &self.embedder {
            Some(embedder) => Some(VectorWriter::open(
                &vec_dir,
                embedder.as_ref(),
                VectorWriteConfig {
                    delta_max: self.config.search.delta_max,
                    hnsw_min_vectors: self.config.search.hnsw_min_vectors,
                    batch,
                },
                fresh,
            )?),
            None => {
                remove_dir(&vec_dir)?;
                None
            }
        };
        Ok(SearchWriter {
            lex,
            vec,
            fresh,
            embedder: self
                .embedder
                .as_ref()
                .map_or_else(|| "none".to_string(), |e| e.id()),
        })
    }
}

/// Removes an index directory of a memory that is off.
fn remove_dir(dir: &Path) -> Result<()> {
    match std::fs::remove_dir_all(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(anyhow::Error::new(e).context(format!("removing {}", dir.display())))
        }
        _ => Ok(()),
    }
}

/// The search side of one index run's write transaction.
pub struct SearchWriter<'e> {
    lex: Option<LexicalWriter>,
    vec: Option<VectorWriter<'e>>,
    fresh: bool,
    embedder: String,
}

impl SearchWriter<'_> {
    /// Removes the chunks with ids `lo..=hi`.
    pub fn delete_chunks(&mut self, lo: i64, hi: i64) {
        for id in lo..=hi {
            if let Some(lex) = &mut self.lex {
                lex.delete(id);
            }
            if let Some(vec) = &mut self.vec {
                vec.delete(id);
            }
        }
    }

    /// Adds one file's chunks, `ids[i]` being the store's id of `chunks[i]`, with their
    /// vectors when [`embed_chunks`] made them already (else they are embedded here).
    pub fn add_file(
        &mut self,
        path: &str,
        lang: &str,
        ids: &[i64],
        chunks: &[Chunk],
        symbols: &[Symbol],
        vectors: Option<&Embedded>,
    ) -> Result<()> {
        let vectors = vectors.filter(|v| v.vectors.len() == chunks.len());
        if let (Some(v), Some(vec)) = (vectors, &mut self.vec) {
            vec.add_embed_seconds(v.seconds);
        }
        for (i, (&id, c)) in ids.iter().zip(chunks).enumerate() {
            let (symbol, doc) = symbol_and_doc(c, symbols);
            if let Some(lex) = &mut self.lex {
                lex.add(&LexDoc {
                    id,
                    path,
                    symbol,
                    doc,
                    body: &c.text,
                    kind: c.kind.as_str(),
                    lang,
                })?;
            }
            match (&mut self.vec, vectors) {
                (Some(vec), Some(v)) => vec.add_vector(id, &v.vectors[i])?,
                (Some(vec), None) => vec.add(id, embed_text(path, symbol, doc, &c.text))?,
                (None, _) => {}
            }
        }
        Ok(())
    }

    /// Commits the indexes that are on at `generation`.
    pub fn commit(self, generation: u64) -> Result<SearchStats> {
        let vectors = match self.vec {
            Some(vec) => vec.commit(generation, self.fresh)?,
            None => VectorWriteStats::default(),
        };
        if let Some(lex) = self.lex {
            lex.commit(generation)?;
        }
        Ok(SearchStats {
            rebuilt: None,
            embedder: self.embedder,
            vectors,
        })
    }
}

/// A chunk's symbol name and that symbol's doc comment ("" when it has none).
fn symbol_and_doc<'a>(c: &'a Chunk, symbols: &'a [Symbol]) -> (&'a str, &'a str) {
    let symbol = c.symbol.as_deref().unwrap_or("");
    let doc = c
        .symbol_index
        .and_then(|i| symbols.get(i))
        .map_or("", |s| s.doc.as_str());
    (symbol, doc)
}

/// One file's chunk vectors, made in a parse worker.
#[derive(Debug, Clone, Default)]
pub struct Embedded {
    /// One per chunk, in order.
    pub vectors: Vec<QVec>,
    /// Time spent embedding them.
    pub seconds: f64,
}

/// Chunks embedded at a time in a parse worker.
const INLINE_BATCH: usize = 64;

/// Embeds one file's chunks as [`SearchWriter::add_file`] would, quantized.
pub fn embed_chunks(
    embedder: &dyn Embedder,
    path: &str,
    chunks: &[Chunk],
    symbols: &[Symbol],
) -> Result<Embedded> {
    let started = std::time::Instant::now();
    let mut out = Vec::with_capacity(chunks.len());
    // A batch at a time: a generated file has thousands of chunks, and each unquantized
    // vector is four times the size of the quantized one kept.
    for batch in chunks.chunks(INLINE_BATCH) {
        let texts: Vec<String> = batch
            .iter()
            .map(|c| {
                let (symbol, doc) = symbol_and_doc(c, symbols);
                embed_text(path, symbol, doc, &c.text)
            })
            .collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let vectors = embedder.embed(&refs)?;
        if vectors.len() != batch.len() {
            anyhow::bail!(
                "the embedder returned {} vectors for {} texts",
                vectors.len(),
                batch.len()
            );
        }
        out.extend(vectors.iter().map(|v| QVec::new(v)));
    }
    Ok(Embedded {
        vectors: out,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The text a chunk is embedded as: its file's name, its symbol, its doc comment (which
/// the text holds too: words that describe the code count twice) and its text.
pub fn embed_text(path: &str, symbol: &str, doc: &str, text: &str) -> String {
    let file = path.rsplit('/').next().unwrap_or(path);
    format!("{file}\n{symbol}\n{doc}\n{text}")
}

//! Keeps the lexical and vector indexes in step with the SQLite store during an index
//! run. The run feeds every deleted chunk id and every inserted chunk (with its text,
//! which only the run has in memory) into scratch copies of the current generation's
//! indexes ([`super::generations`]); [`SearchWriter::commit`] commits both and names
//! them generation N+1 just before the store commits N+1, and [`collect_garbage`]
//! removes what no reader can reach any more once it has.
//!
//! A reader pins the store's generation and opens the search indexes of that same
//! generation, so it never maps one generation's chunk ids through another's store.
//! A run killed or interrupted at any point leaves generation N whole.

use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use super::embed::{self, Embedder, HEAD_END};
use super::generations;
use super::lexical::{self, LexDoc, LexicalWriter};
use super::vectors::{self, QVec, VectorWriteConfig, VectorWriteStats, VectorWriter};
use crate::config::Config;
use crate::model::{Chunk, ChunkKind, Symbol};
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

/// "the vectors were made by `made`, the configuration asks for `wanted`", when they
/// differ.
fn made_by_another(made: &str, wanted: &str) -> Option<String> {
    (made != wanted).then(|| {
        format!("the vectors were made by `{made}`, the configuration asks for `{wanted}`")
    })
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
    /// `generation`: missing, damaged, out of step, or made by another embedder.
    pub fn stale_reason(&self, root: &Path, generation: u64) -> Result<Option<String>> {
        if generation == 0 {
            return Ok(None);
        }
        let dir = store_dir(root);
        let lex_dir = generations::gen_dir(&lexical::lexical_dir(&dir), generation);
        let lex = if lex_dir.is_dir() {
            // A damaged index (a file gone, a truncated segment) opens with an error or
            // no payload: rebuilt like a missing one.
            match lexical::LexicalIndex::open(&lex_dir).map(|l| l.map(|l| l.check())) {
                Ok(Some(Ok(g))) => Some(g),
                Ok(Some(Err(e))) | Err(e) => {
                    return Ok(Some(format!("the lexical index is damaged ({e:#})")));
                }
                Ok(None) => None,
            }
        } else {
            None
        };
        if self.config.index.lexical && lex != Some(Some(generation)) {
            return Ok(Some(match lex {
                None => "the lexical index is missing".into(),
                Some(None) => "the lexical index has no generation".into(),
                Some(Some(g)) => {
                    format!("the lexical index is at generation {g}, the store at {generation}")
                }
            }));
        }
        let Some(embedder) = &self.embedder else {
            return Ok(None);
        };
        let vec_dir = generations::gen_dir(&vectors::vectors_dir(&dir), generation);
        let manifest = match vectors::VectorIndex::open(&vec_dir) {
            Ok(index) => index.map(|i| i.manifest),
            Err(e) => return Ok(Some(format!("the vector index is damaged ({e:#})"))),
        };
        Ok(match manifest {
            None => Some("the vector index is missing".into()),
            Some(m) if m.generation != generation => Some(format!(
                "the vector index is at generation {}, the store at {generation}",
                m.generation
            )),
            Some(m) => made_by_another(&m.embedder, &embedder.id()),
        })
    }

    /// Why `root`'s vectors at `generation` cannot be read with the embedder `config`
    /// names (an llmc whose built-in embedder changed, or a configuration that names
    /// another model), as the next index run says it: a reader would find no vector near
    /// its question, and that run embeds every chunk again. Reads the vectors' manifest
    /// only; no embedder is made. None when the semantic index is off or has no vectors.
    pub fn embedded_by(root: &Path, generation: u64, config: &Config) -> Result<Option<String>> {
        if !config.index.semantic || generation == 0 {
            return Ok(None);
        }
        let dir = generations::gen_dir(&vectors::vectors_dir(&store_dir(root)), generation);
        Ok(vectors::read_manifest(&dir)?
            .and_then(|m| made_by_another(&m.embedder, &embed::configured_id(&config.embed))))
    }

    /// The embedder when it runs in the parse workers ([`Embedder::inline`]): the index
    /// run then embeds each file's chunks with [`embed_chunks`] where they are made.
    pub fn inline_embedder(&self) -> Option<&dyn Embedder> {
        let e = self.embedder.as_deref()?;
        e.inline().then_some(e)
    }

    /// Opens scratch copies of generation `generation`'s indexes that are on for writing
    /// generation `generation + 1` (`fresh`: from nothing), after removing what earlier
    /// runs left behind; removes the indexes that are off.
    pub fn writer(&self, root: &Path, generation: u64, fresh: bool) -> Result<SearchWriter<'_>> {
        let dir = store_dir(root);
        let next = generation + 1;
        // What a killed run left (scratch copies, a generation the store never reached),
        // and generations older than the previous one.
        collect_garbage(root, generation);
        let from = (!fresh).then_some(generation);
        let batch = if self.config.embed.provider == crate::config::EmbedProvider::Builtin {
            BUILTIN_BATCH
        } else {
            self.config.embed.batch_size.max(1)
        };
        let lex_parent = lexical::lexical_dir(&dir);
        let mut scratches = Vec::new();
        let lex = if self.config.index.lexical {
            let scratch = generations::scratch(&lex_parent, from, next)?;
            scratches.push((lex_parent.clone(), scratch.clone()));
            Some(LexicalWriter::open(
                &scratch,
                fresh,
                self.config.index.worker_threads(),
            )?)
        } else {
            remove_dir(&lex_parent)?;
            None
        };
        let vec_parent = vectors::vectors_dir(&dir);
        let vec = match &self.embedder {
            Some(embedder) => {
                let scratch = generations::scratch(&vec_parent, from, next)?;
                scratches.push((vec_parent.clone(), scratch.clone()));
                Some(VectorWriter::open(
                    &scratch,
                    embedder.as_ref(),
                    VectorWriteConfig {
                        delta_max: self.config.search.delta_max,
                        hnsw_min_vectors: self.config.search.hnsw_min_vectors,
                        batch,
                    },
                    fresh,
                )?)
            }
            None => {
                remove_dir(&vec_parent)?;
                None
            }
        };
        Ok(SearchWriter {
            lex,
            vec,
            scratches,
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

/// The search side of one index run's write transaction. Dropped without
/// [`SearchWriter::commit`], its scratch copies are removed.
pub struct SearchWriter<'e> {
    lex: Option<LexicalWriter>,
    vec: Option<VectorWriter<'e>>,
    /// (index directory, scratch copy) of each index that is on.
    scratches: Vec<(std::path::PathBuf, std::path::PathBuf)>,
    fresh: bool,
    embedder: String,
}

impl Drop for SearchWriter<'_> {
    fn drop(&mut self) {
        // The writers let go of their files first.
        self.lex = None;
        self.vec = None;
        for (_, scratch) in &self.scratches {
            let _ = std::fs::remove_dir_all(scratch);
        }
    }
}

/// Removes, under `root`'s search index directories, everything a reader of the store's
/// `generation` cannot reach: scratch copies, generations newer than the store (a
/// killed run's) and generations older than `generation - 1` (kept for a reader that
/// pinned it just before the commit).
pub fn collect_garbage(root: &Path, generation: u64) {
    let dir = store_dir(root);
    let keep = [generation, generation.saturating_sub(1)];
    for parent in [lexical::lexical_dir(&dir), vectors::vectors_dir(&dir)] {
        if parent.is_dir() {
            generations::collect(&parent, &keep);
        }
    }
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
                (Some(vec), None) => vec.add(id, embed_text(path, c, symbol, doc))?,
                (None, _) => {}
            }
        }
        Ok(())
    }

    /// Commits the indexes that are on at `generation` and names their directories
    /// so; the store's commit of `generation` makes them the ones readers open.
    pub fn commit(mut self, generation: u64) -> Result<SearchStats> {
        let vectors = match self.vec.take() {
            Some(vec) => vec.commit(generation, self.fresh)?,
            None => VectorWriteStats::default(),
        };
        if let Some(lex) = self.lex.take() {
            lex.commit(generation)?;
        }
        for (parent, scratch) in std::mem::take(&mut self.scratches) {
            generations::publish(&parent, &scratch, generation)?;
        }
        Ok(SearchStats {
            rebuilt: None,
            embedder: std::mem::take(&mut self.embedder),
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
                embed_text(path, c, symbol, doc)
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

/// The text a chunk is embedded as. A definition's: its head (its symbol and doc
/// comment, which the text holds too: words that describe the code count twice),
/// [`HEAD_END`], then its file's name and its text. Any other chunk's: its file's name,
/// its symbol (a section's headings) and its text.
pub fn embed_text(path: &str, c: &Chunk, symbol: &str, doc: &str) -> String {
    let file = path.rsplit('/').next().unwrap_or(path);
    let text = &c.text;
    if c.kind == ChunkKind::Definition {
        format!("{symbol}\n{doc}{HEAD_END}{file}\n{text}")
    } else {
        format!("{file}\n{symbol}\n{text}")
    }
}

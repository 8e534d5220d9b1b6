//! Changing the vectors during an index run: deletions masked by position, new vectors
//! streamed to a scratch file, the delta folded into a new main set (and its HNSW graph
//! rebuilt) past `search.delta_max`, and the commit that publishes a new manifest.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read as _, Seek as _, SeekFrom, Write as _};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::Serialize;

use super::format::{Graph, MAGIC, MANIFEST, Manifest, QVec, Segment, read_manifest};
use crate::search::embed::Embedder;
use crate::store::write_atomic;

/// Settings of a vector write.
#[derive(Debug, Clone, Copy)]
pub struct VectorWriteConfig {
    pub delta_max: usize,
    pub hnsw_min_vectors: usize,
    /// Texts embedded per call.
    pub batch: usize,
}

/// What a vector write did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct VectorWriteStats {
    pub embedded: u64,
    pub embed_seconds: f64,
    /// Whether the delta was folded into a new main set.
    pub compacted: bool,
    pub hnsw_built: bool,
    pub vectors: u64,
}

/// Changes the vectors during an index run; [`VectorWriter::commit`] publishes them.
///
/// Vectors added in the run are streamed to a scratch file as they come (only their ids
/// and scales stay in memory), and the old main set is read from its file only when it
/// is folded into a new one, so memory does not grow with the number of vectors.
pub struct VectorWriter<'e> {
    dir: PathBuf,
    embedder: &'e dyn Embedder,
    embedder_id: String,
    old: Manifest,
    /// The old main set's ids and scales (its vectors stay on disk).
    base: Segment,
    base_pos: HashMap<i64, u32>,
    masked: BTreeSet<u32>,
    /// The old delta, still live.
    delta: BTreeMap<i64, QVec>,
    new: Stream,
    dim: usize,
    pending: Vec<(i64, String)>,
    cfg: VectorWriteConfig,
    stats: VectorWriteStats,
}

/// The vectors added in this run: values in a scratch file, ids and scales in memory.
struct Stream {
    path: PathBuf,
    file: Option<BufWriter<File>>,
    ids: Vec<i64>,
    scales: Vec<f32>,
    pos: HashMap<i64, u32>,
    /// Positions deleted again in the same run.
    dropped: HashSet<u32>,
}

impl Stream {
    fn live(&self) -> usize {
        self.ids.len() - self.dropped.len()
    }
}

impl<'e> VectorWriter<'e> {
    /// Starts from the state in `dir` (`fresh`: from nothing).
    pub fn open(
        dir: &Path,
        embedder: &'e dyn Embedder,
        cfg: VectorWriteConfig,
        fresh: bool,
    ) -> Result<VectorWriter<'e>> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let embedder_id = embedder.id();
        let mut w = VectorWriter {
            dir: dir.to_path_buf(),
            embedder,
            embedder_id,
            old: Manifest::default(),
            base: Segment::default(),
            base_pos: HashMap::new(),
            masked: BTreeSet::new(),
            delta: BTreeMap::new(),
            new: Stream {
                path: dir.join(format!("stream-{}.tmp", std::process::id())),
                file: None,
                ids: Vec::new(),
                scales: Vec::new(),
                pos: HashMap::new(),
                dropped: HashSet::new(),
            },
            dim: 0,
            pending: Vec::new(),
            cfg,
            stats: VectorWriteStats::default(),
        };
        if fresh {
            return Ok(w);
        }
        let Some(manifest) = read_manifest(dir)? else {
            return Ok(w);
        };
        w.dim = manifest.dim;
        w.masked = manifest.masked.iter().copied().collect();
        if let Some(name) = &manifest.base {
            w.base = Segment::open_head(&dir.join(name))?.0;
        }
        if let Some(name) = &manifest.delta {
            let delta = Segment::read(&dir.join(name))?;
            for i in 0..delta.len() {
                w.delta.insert(
                    delta.ids[i],
                    QVec {
                        values: delta.vector(i).to_vec(),
                        scale: delta.scales[i],
                    },
                );
            }
        }
        w.base_pos = w
            .base
            .ids
            .iter()
            .enumerate()
            .filter(|(p, _)| !w.masked.contains(&(*p as u32)))
            .map(|(p, &id)| (id, p as u32))
            .collect();
        w.old = manifest;
        Ok(w)
    }

    /// Removes the vector of chunk `id`, if there is one.
    pub fn delete(&mut self, id: i64) {
        if let Some(p) = self.base_pos.remove(&id) {
            self.masked.insert(p);
        }
        self.delta.remove(&id);
        if let Some(p) = self.new.pos.remove(&id) {
            self.new.dropped.insert(p);
        }
        self.pending.retain(|(i, _)| *i != id);
    }

    /// Queues `text` to be embedded as chunk `id`.
    pub fn add(&mut self, id: i64, text: String) -> Result<()> {
        self.pending.push((id, text));
        if self.pending.len() >= self.cfg.batch {
            self.flush()?;
        }
        Ok(())
    }

    /// Adds the vector of chunk `id`, embedded already (by [`Embedder::embed`] of this
    /// writer's embedder, in `seconds`).
    pub fn add_vector(&mut self, id: i64, q: &QVec) -> Result<()> {
        if self.dim == 0 {
            self.dim = q.values.len();
        }
        if q.values.len() != self.dim {
            bail!(
                "the embedder returned a vector of {} dimensions, expected {}",
                q.values.len(),
                self.dim
            );
        }
        if let Some(p) = self.new.pos.remove(&id) {
            self.new.dropped.insert(p);
        }
        let file = match &mut self.new.file {
            Some(f) => f,
            None => {
                let path = &self.new.path;
                let f = File::options()
                    .read(true)
                    .write(true)
                    .create(true)
                    .truncate(true)
                    .open(path)
                    .with_context(|| format!("creating {}", path.display()))?;
                self.new.file.insert(BufWriter::with_capacity(1 << 16, f))
            }
        };
        let bytes: Vec<u8> = q.values.iter().map(|&v| v as u8).collect();
        file.write_all(&bytes)
            .with_context(|| format!("writing {}", self.new.path.display()))?;
        self.new.pos.insert(id, self.new.ids.len() as u32);
        self.new.ids.push(id);
        self.new.scales.push(q.scale);
        self.stats.embedded += 1;
        Ok(())
    }

    /// Counts time spent embedding outside the writer (in the parse workers).
    pub fn add_embed_seconds(&mut self, seconds: f64) {
        self.stats.embed_seconds += seconds;
    }

    fn flush(&mut self) -> Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let started = std::time::Instant::now();
        let pending = std::mem::take(&mut self.pending);
        let texts: Vec<&str> = pending.iter().map(|(_, t)| t.as_str()).collect();
        let vectors = self.embedder.embed(&texts)?;
        if vectors.len() != texts.len() {
            bail!(
                "the embedder returned {} vectors for {} texts",
                vectors.len(),
                texts.len()
            );
        }
        for ((id, _), v) in pending.iter().zip(vectors) {
            self.add_vector(*id, &QVec::new(&v))?;
        }
        self.stats.embed_seconds += started.elapsed().as_secs_f64();
        Ok(())
    }

    /// Writes one segment file (atomically): the old main set's live vectors when
    /// `with_base`, then the old delta's, then this run's. Returns how many it holds.
    fn write_segment(&mut self, path: &Path, with_base: bool) -> Result<usize> {
        let dim = self.dim;
        let base_live: Vec<usize> = if with_base {
            (0..self.base.len())
                .filter(|p| !self.masked.contains(&(*p as u32)))
                .collect()
        } else {
            Vec::new()
        };
        let new_live: Vec<usize> = (0..self.new.ids.len())
            .filter(|p| !self.new.dropped.contains(&(*p as u32)))
            .collect();
        let n = base_live.len() + self.delta.len() + new_live.len();
        let tmp = path.with_extension("tmp");
        let ctx = || format!("writing {}", tmp.display());
        let mut out = BufWriter::with_capacity(1 << 16, File::create(&tmp).with_context(ctx)?);
        out.write_all(MAGIC).with_context(ctx)?;
        out.write_all(&(dim as u32).to_le_bytes())
            .with_context(ctx)?;
        out.write_all(&(n as u32).to_le_bytes()).with_context(ctx)?;
        let ids = base_live
            .iter()
            .map(|&p| self.base.ids[p])
            .chain(self.delta.keys().copied())
            .chain(new_live.iter().map(|&p| self.new.ids[p]));
        for id in ids {
            out.write_all(&id.to_le_bytes()).with_context(ctx)?;
        }
        let scales = base_live
            .iter()
            .map(|&p| self.base.scales[p])
            .chain(self.delta.values().map(|q| q.scale))
            .chain(new_live.iter().map(|&p| self.new.scales[p]));
        for s in scales {
            out.write_all(&s.to_le_bytes()).with_context(ctx)?;
        }
        let mut buf = vec![0u8; dim];
        if !base_live.is_empty() {
            let name = self.old.base.clone().unwrap_or_default();
            let from = self.dir.join(name);
            let rctx = || format!("reading {}", from.display());
            let mut r = BufReader::with_capacity(1 << 16, File::open(&from).with_context(rctx)?);
            r.seek(SeekFrom::Start((16 + self.base.len() * 12) as u64))
                .with_context(rctx)?;
            let mut live = base_live.iter().peekable();
            for p in 0..self.base.len() {
                r.read_exact(&mut buf).with_context(rctx)?;
                if live.next_if_eq(&&p).is_some() {
                    out.write_all(&buf).with_context(ctx)?;
                }
            }
        }
        for q in self.delta.values() {
            let bytes: Vec<u8> = q.values.iter().map(|&v| v as u8).collect();
            out.write_all(&bytes).with_context(ctx)?;
        }
        if let Some(mut f) = self.new.file.take() {
            let sctx = || format!("reading {}", self.new.path.display());
            f.flush().with_context(sctx)?;
            let mut file = f
                .into_inner()
                .map_err(|e| e.into_error())
                .with_context(sctx)?;
            file.seek(SeekFrom::Start(0)).with_context(sctx)?;
            let mut r = BufReader::with_capacity(1 << 16, file);
            let mut live = new_live.iter().peekable();
            for p in 0..self.new.ids.len() {
                r.read_exact(&mut buf).with_context(sctx)?;
                if live.next_if_eq(&&p).is_some() {
                    out.write_all(&buf).with_context(ctx)?;
                }
            }
        }
        out.into_inner()
            .map_err(|e| e.into_error())
            .and_then(|f| f.sync_all())
            .with_context(ctx)?;
        std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
        Ok(n)
    }

    /// Writes the new state for `generation` and makes it current. With `compact`, or
    /// when the delta and the masked vectors outgrow `delta_max`, the main set is
    /// rebuilt from everything live (and its HNSW graph with it).
    pub fn commit(mut self, generation: u64, compact: bool) -> Result<VectorWriteStats> {
        self.flush()?;
        let tag = format!("{generation}-{}", std::process::id());
        let mut manifest = Manifest {
            generation,
            embedder: self.embedder_id.clone(),
            dim: self.dim,
            base: self.old.base.clone(),
            delta: None,
            hnsw: self.old.hnsw.clone(),
            masked: self.masked.iter().copied().collect(),
        };
        let churn = self.delta.len() + self.new.live() + self.masked.len();
        if compact || churn > self.cfg.delta_max || self.old.base.is_none() {
            let name = format!("base-{tag}.vec");
            let path = self.dir.join(&name);
            let n = self.write_segment(&path, true)?;
            manifest.base = Some(name);
            manifest.masked.clear();
            manifest.hnsw = None;
            if self.cfg.hnsw_min_vectors > 0 && n >= self.cfg.hnsw_min_vectors {
                let base = Segment::read(&path)?;
                let points: Vec<QVec> = (0..base.len())
                    .map(|i| QVec {
                        values: base.vector(i).to_vec(),
                        scale: base.scales[i],
                    })
                    .collect();
                let values: Vec<u32> = (0..base.len() as u32).collect();
                let graph: Graph = instant_distance::Builder::default()
                    .seed(42)
                    .build(points, values);
                let bytes = postcard::to_stdvec(&graph).context("serializing the HNSW graph")?;
                let name = format!("hnsw-{tag}.bin");
                write_atomic(&self.dir.join(&name), &bytes)?;
                manifest.hnsw = Some(name);
                self.stats.hnsw_built = true;
            }
            self.stats.compacted = true;
            self.stats.vectors = n as u64;
        } else {
            let live = self.delta.len() + self.new.live();
            if live > 0 {
                let name = format!("delta-{tag}.vec");
                self.write_segment(&self.dir.join(&name), false)?;
                manifest.delta = Some(name);
            }
            self.stats.vectors = (self.base.len() - self.masked.len() + live) as u64;
        }
        let bytes = serde_json::to_vec_pretty(&manifest)?;
        write_atomic(&self.dir.join(MANIFEST), &bytes)?;
        // Files the new manifest does not name are no one's any more (the scratch file
        // of this run, and of runs that were killed, among them).
        let keep: Vec<&String> = [&manifest.base, &manifest.delta, &manifest.hnsw]
            .into_iter()
            .flatten()
            .collect();
        if let Ok(rd) = std::fs::read_dir(&self.dir) {
            for e in rd.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if name != MANIFEST && !keep.iter().any(|k| **k == name) {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
        Ok(self.stats)
    }
}

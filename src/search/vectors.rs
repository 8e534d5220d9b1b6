//! The semantic index under `.llmc/vectors/`: one vector per chunk, quantized to `i8`
//! with a scale per vector, in a main set (`base-*.vec`) and a small delta
//! (`delta-*.vec`) of vectors added since the main set was last rebuilt. Deleted or
//! replaced chunks are masked in the main set by position. Past
//! `search.hnsw_min_vectors` (when set), an HNSW graph (instant-distance) over the main
//! set is kept beside it (`hnsw-*.bin`); the delta is always scanned exactly.
//!
//! `manifest.json` names the files of the current state, the embedder that made the
//! vectors and the index generation they belong to; it is replaced by a rename, so a
//! reader sees either the old or the new state, never a mix.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read as _, Seek as _, SeekFrom, Write as _};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use super::embed::Embedder;

const MAGIC: &[u8; 8] = b"LLMCVEC1";
const MANIFEST: &str = "manifest.json";

/// The vector directory of a store directory.
pub fn vectors_dir(store_dir: &Path) -> PathBuf {
    store_dir.join("vectors")
}

/// What the vector directory holds.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Manifest {
    /// The index generation these vectors belong to.
    pub generation: u64,
    /// [`Embedder::id`] of the embedder that made them.
    pub embedder: String,
    /// Dimensions (0 while there are no vectors).
    pub dim: usize,
    pub base: Option<String>,
    pub delta: Option<String>,
    pub hnsw: Option<String>,
    /// Positions in the main set whose chunks are gone.
    pub masked: Vec<u32>,
}

/// Reads the manifest, or `None` when there is none.
pub fn read_manifest(dir: &Path) -> Result<Option<Manifest>> {
    let p = dir.join(MANIFEST);
    match std::fs::read(&p) {
        Ok(bytes) => Ok(Some(
            serde_json::from_slice(&bytes).with_context(|| format!("reading {}", p.display()))?,
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("reading {}", p.display())),
    }
}

/// A set of quantized vectors with their chunk ids.
#[derive(Debug, Clone, Default)]
pub struct Segment {
    pub dim: usize,
    pub ids: Vec<i64>,
    pub scales: Vec<f32>,
    /// `ids.len() * dim` values.
    pub data: Vec<i8>,
}

impl Segment {
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The quantized vector at `i`.
    pub fn vector(&self, i: usize) -> &[i8] {
        &self.data[i * self.dim..(i + 1) * self.dim]
    }

    /// Appends a vector.
    pub fn push(&mut self, id: i64, q: &QVec) {
        self.ids.push(id);
        self.scales.push(q.scale);
        self.data.extend_from_slice(&q.values);
    }

    /// Reads a segment file with one copy: the header, ids and scales are parsed, the
    /// vectors are read straight into their buffer.
    fn read(path: &Path) -> Result<Segment> {
        let (mut seg, mut f) = Segment::open_head(path)?;
        let mut raw = vec![0u8; seg.len() * seg.dim];
        f.read_exact(&mut raw)
            .with_context(|| format!("reading {}", path.display()))?;
        seg.data = raw.into_iter().map(|b| b as i8).collect();
        Ok(seg)
    }

    /// Reads a segment file's header, ids and scales (`data` stays empty and
    /// [`Segment::vector`] must not be called); the file is left open at its first vector.
    fn open_head(path: &Path) -> Result<(Segment, File)> {
        let ctx = || format!("reading {}", path.display());
        let mut f = File::open(path).with_context(ctx)?;
        let len = f.metadata().with_context(ctx)?.len() as usize;
        let mut head = [0u8; 16];
        f.read_exact(&mut head).with_context(ctx)?;
        if &head[..8] != MAGIC {
            bail!("{} is not a vector file", path.display());
        }
        let dim = u32_at(&head, 8) as usize;
        let n = u32_at(&head, 12) as usize;
        if len != 16 + n * (12 + dim) {
            bail!("{} is truncated", path.display());
        }
        let mut meta = vec![0u8; n * 12];
        f.read_exact(&mut meta).with_context(ctx)?;
        let (ids, scales) = meta.split_at(n * 8);
        let seg = Segment {
            dim,
            ids: ids
                .chunks_exact(8)
                .map(|c| i64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
                .collect(),
            scales: scales
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().unwrap_or([0; 4])))
                .collect(),
            data: Vec::new(),
        };
        Ok((seg, f))
    }
}

/// Where the vectors of a segment file begin.
fn data_offset(n: usize) -> u64 {
    16 + n as u64 * 12
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// A vector quantized to `i8`: `values[i] * scale` approximates the original.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QVec {
    pub values: Vec<i8>,
    pub scale: f32,
}

impl QVec {
    /// Quantizes `v`.
    pub fn new(v: &[f32]) -> QVec {
        let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
        if max == 0.0 {
            return QVec {
                values: vec![0; v.len()],
                scale: 0.0,
            };
        }
        let scale = max / 127.0;
        QVec {
            values: v.iter().map(|x| (x / scale).round() as i8).collect(),
            scale,
        }
    }
}

/// The dot product of two quantized vectors, unscaled.
#[inline]
pub fn dot_i8(a: &[i8], b: &[i8]) -> i32 {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| i32::from(x) * i32::from(y))
        .sum()
}

/// [`dot_i8`] of vector bytes as stored on disk and a quantized query.
#[inline]
fn dot_raw(a: &[u8], b: &[i8]) -> i32 {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| i32::from(x as i8) * i32::from(y))
        .sum()
}

impl instant_distance::Point for QVec {
    fn distance(&self, other: &Self) -> f32 {
        1.0 - dot_i8(&self.values, &other.values) as f32 * self.scale * other.scale
    }
}

/// The HNSW graph over the main set: values are positions in it.
type Graph = instant_distance::HnswMap<QVec, u32>;

/// The vectors as a reader sees them.
pub struct VectorIndex {
    pub manifest: Manifest,
    /// The main set's ids and scales; its vectors stay in `base_file` and are streamed
    /// through a small buffer by each search (no copy of the whole set in memory).
    base: Segment,
    /// Open from [`VectorIndex::open`] on, so a writer that replaces the file meanwhile
    /// does not pull it from under a search.
    base_file: Option<File>,
    /// The delta, read the same way as the main set.
    delta: Segment,
    delta_file: Option<File>,
    masked: Vec<bool>,
    graph: Option<Graph>,
}

/// How a vector search went.
#[derive(Debug, Clone, Copy, Default)]
pub struct VectorSearchInfo {
    /// Whether the HNSW graph was used for the main set.
    pub hnsw: bool,
    /// Vectors compared exactly.
    pub scanned: usize,
}

impl VectorIndex {
    /// Opens the vectors in `dir`; `None` when there are none.
    pub fn open(dir: &Path) -> Result<Option<VectorIndex>> {
        let Some(manifest) = read_manifest(dir)? else {
            return Ok(None);
        };
        let open = |name: &Option<String>| -> Result<(Segment, Option<File>)> {
            match name {
                Some(n) => {
                    let (seg, f) = Segment::open_head(&dir.join(n))?;
                    Ok((seg, Some(f)))
                }
                None => Ok((
                    Segment {
                        dim: manifest.dim,
                        ..Segment::default()
                    },
                    None,
                )),
            }
        };
        let (base, base_file) = open(&manifest.base)?;
        let (delta, delta_file) = open(&manifest.delta)?;
        let mut masked = vec![false; base.len()];
        for &p in &manifest.masked {
            if let Some(m) = masked.get_mut(p as usize) {
                *m = true;
            }
        }
        let graph = match &manifest.hnsw {
            Some(n) => {
                let p = dir.join(n);
                let bytes =
                    std::fs::read(&p).with_context(|| format!("reading {}", p.display()))?;
                Some(
                    postcard::from_bytes::<Graph>(&bytes)
                        .with_context(|| format!("reading {}", p.display()))?,
                )
            }
            None => None,
        };
        Ok(Some(VectorIndex {
            manifest,
            base,
            base_file,
            delta,
            delta_file,
            masked,
            graph,
        }))
    }

    /// Vectors that are live (not masked).
    pub fn live(&self) -> usize {
        self.masked.iter().filter(|m| !**m).count() + self.delta.len()
    }

    /// The `k` nearest live vectors to `query` among those whose id `keep` accepts, as
    /// (chunk id, cosine similarity), best first.
    pub fn search(
        &self,
        query: &[f32],
        k: usize,
        keep: &(dyn Fn(i64) -> bool + Sync),
    ) -> Result<(Vec<(i64, f32)>, VectorSearchInfo)> {
        if query.len() != self.manifest.dim && self.live() > 0 {
            bail!(
                "the query vector has {} dimensions, the index {}",
                query.len(),
                self.manifest.dim
            );
        }
        let q = QVec::new(query);
        let mut info = VectorSearchInfo::default();
        let mut hits: Vec<(i64, f32)> = Vec::new();
        match &self.graph {
            Some(graph) => {
                info.hnsw = true;
                let mut search = instant_distance::Search::default();
                for item in graph.search(&q, &mut search) {
                    let pos = *item.value as usize;
                    if self.masked.get(pos).copied().unwrap_or(true) {
                        continue;
                    }
                    let id = self.base.ids[pos];
                    if keep(id) {
                        hits.push((id, 1.0 - item.distance));
                        if hits.len() >= k {
                            break;
                        }
                    }
                }
            }
            None => {
                if let Some(file) = &self.base_file {
                    info.scanned += self.base.len();
                    hits = scan_file(file, &self.base, &self.masked, &q, k, keep)?;
                }
            }
        }
        if let Some(file) = &self.delta_file {
            info.scanned += self.delta.len();
            hits.extend(scan_file(file, &self.delta, &[], &q, k, keep)?);
        }
        top_k(&mut hits, k);
        Ok((hits, info))
    }
}

/// Keeps the `k` best of `hits`, best first (ties by id).
fn top_k(hits: &mut Vec<(i64, f32)>, k: usize) {
    let order = |a: &(i64, f32), b: &(i64, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
    if hits.len() > k && k > 0 {
        hits.select_nth_unstable_by(k - 1, order);
    }
    hits.truncate(k);
    hits.sort_by(order);
}

/// Vectors read per block by [`scan_file`]: about 1 MiB.
const BLOCK_BYTES: usize = 1 << 20;
/// Below this many vectors a scan stays on one thread.
const PARALLEL_MIN: usize = 16_384;

/// The `k` best live vectors (not `masked`, which may be shorter than the set) of a set
/// whose values are in `file`, read block by block; large sets are split between
/// threads (one per core, at most 4).
fn scan_file(
    file: &File,
    seg: &Segment,
    masked: &[bool],
    q: &QVec,
    k: usize,
    keep: &(dyn Fn(i64) -> bool + Sync),
) -> Result<Vec<(i64, f32)>> {
    let n = seg.len();
    let threads = if n >= PARALLEL_MIN {
        std::thread::available_parallelism().map_or(1, |t| t.get().min(4))
    } else {
        1
    };
    let part = n.div_ceil(threads.max(1)).max(1);
    let range = |lo: usize| -> Result<Vec<(i64, f32)>> {
        let hi = (lo + part).min(n);
        let dim = seg.dim.max(1);
        let per_block = (BLOCK_BYTES / dim).max(1);
        let mut buf = vec![0u8; per_block.min(hi - lo) * dim];
        let mut out = Vec::new();
        let mut at = lo;
        while at < hi {
            let m = per_block.min(hi - at);
            let bytes = &mut buf[..m * dim];
            read_exact_at(file, bytes, data_offset(n) + (at * dim) as u64)
                .context("reading the vectors")?;
            for (j, v) in bytes.chunks_exact(dim).enumerate() {
                let i = at + j;
                if masked.get(i).copied().unwrap_or(false) || !keep(seg.ids[i]) {
                    continue;
                }
                let d = dot_raw(v, &q.values) as f32 * seg.scales[i] * q.scale;
                out.push((seg.ids[i], d));
            }
            at += m;
        }
        top_k(&mut out, k);
        Ok(out)
    };
    if threads <= 1 {
        return range(0);
    }
    let parts: Vec<Result<Vec<(i64, f32)>>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .step_by(part)
            .map(|lo| s.spawn(move || range(lo)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("a vector scan thread panicked")))
            })
            .collect()
    });
    let mut hits = Vec::new();
    for p in parts {
        hits.extend(p?);
    }
    Ok(hits)
}

/// Reads `buf.len()` bytes of `file` at `at`, without moving a shared file position.
#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, at)
}

/// Reads `buf.len()` bytes of `file` at `at`, without moving a shared file position.
#[cfg(windows)]
fn read_exact_at(file: &File, mut buf: &mut [u8], mut at: u64) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt as _;
    while !buf.is_empty() {
        match file.seek_read(buf, at)? {
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                at += n as u64;
            }
        }
    }
    Ok(())
}

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

use crate::store::write_atomic;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::embed::HashEmbedder;

    fn cfg(hnsw_min_vectors: usize) -> VectorWriteConfig {
        VectorWriteConfig {
            delta_max: 3,
            hnsw_min_vectors,
            batch: 2,
        }
    }

    #[test]
    fn quantized_dot_products_approximate_cosines() {
        let a = [0.6f32, 0.8, 0.0];
        let b = [0.8f32, 0.6, 0.0];
        let (qa, qb) = (QVec::new(&a), QVec::new(&b));
        let d = dot_i8(&qa.values, &qb.values) as f32 * qa.scale * qb.scale;
        assert!((d - 0.96).abs() < 0.01, "{d}");
    }

    fn ids_of(dir: &Path, e: &HashEmbedder, q: &str) -> Result<Vec<i64>> {
        let idx = VectorIndex::open(dir)?.context("index exists")?;
        let qv = e.embed(&[q])?.remove(0);
        Ok(idx
            .search(&qv, 10, &|_| true)?
            .0
            .into_iter()
            .map(|h| h.0)
            .collect())
    }

    #[test]
    fn deltas_masks_and_compaction_keep_the_live_set() -> Result<()> {
        for hnsw_min in [1, 1000] {
            let dir = tempfile::tempdir()?;
            let e = HashEmbedder::new(64)?;
            let mut w = VectorWriter::open(dir.path(), &e, cfg(hnsw_min), true)?;
            for (id, t) in [(1, "alpha parser"), (2, "beta network"), (3, "gamma disk")] {
                w.add(id, t.into())?;
            }
            let s = w.commit(1, false)?;
            assert!(s.compacted);
            assert_eq!(s.hnsw_built, hnsw_min == 1);
            assert_eq!(ids_of(dir.path(), &e, "network")?[0], 2);

            // Replace chunk 2 and reuse its id for new text; delete 3.
            let mut w = VectorWriter::open(dir.path(), &e, cfg(hnsw_min), false)?;
            w.delete(2);
            w.delete(3);
            w.add(2, "delta storage".into())?;
            let s = w.commit(2, false)?;
            assert!(!s.compacted);
            assert_eq!(s.vectors, 2);
            let ids = ids_of(dir.path(), &e, "network storage")?;
            assert_eq!(ids.len(), 2, "{ids:?}");
            assert_eq!(ids[0], 2);

            // A forced compaction folds the delta in.
            let w = VectorWriter::open(dir.path(), &e, cfg(hnsw_min), false)?;
            let s = w.commit(3, true)?;
            assert!(s.compacted);
            let idx = VectorIndex::open(dir.path())?.context("exists")?;
            assert_eq!((idx.live(), idx.manifest.generation), (2, 3));
            let files = std::fs::read_dir(dir.path())?.count();
            assert_eq!(files, if hnsw_min == 1 { 3 } else { 2 });
        }
        Ok(())
    }
}

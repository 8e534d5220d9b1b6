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
//!
//! This file is the reader ([`VectorIndex`]); `vectors/format.rs` is the on-disk form and
//! `vectors/write.rs` the writer of an index run.

mod format;
mod write;

use std::fs::File;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use format::{Graph, data_offset, dot_raw, read_exact_at};
pub use format::{Manifest, QVec, Segment, dot_i8, read_manifest};
pub use write::{VectorWriteConfig, VectorWriteStats, VectorWriter};

/// The vector directory of a store directory.
pub fn vectors_dir(store_dir: &Path) -> PathBuf {
    store_dir.join("vectors")
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::embed::{Embedder, HashEmbedder};

    fn cfg(hnsw_min_vectors: usize) -> VectorWriteConfig {
        VectorWriteConfig {
            delta_max: 3,
            hnsw_min_vectors,
            batch: 2,
        }
    }

    /// The largest magnitude sets the scale wherever it stands: in the eight running
    /// maxima or in the rest past them, negative or not.
    #[test]
    fn the_scale_comes_from_the_largest_magnitude() {
        for n in [3usize, 8, 11, 64, 67] {
            for at in [0, n / 2, n - 1] {
                let mut v = vec![0.01f32; n];
                v[at] = -0.9;
                let q = QVec::new(&v);
                assert_eq!(q.values[at], -127, "{n} {at}");
                assert!((q.scale - 0.9 / 127.0).abs() < 1e-9, "{n} {at}");
            }
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

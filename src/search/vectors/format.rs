//! The on-disk form of the vectors: `manifest.json`, segment files (`LLMCVEC1`, the
//! dimension and count, then ids, scales and `i8` values), `i8` quantization and its dot
//! products, the HNSW graph's point type. Reading and writing both build on it.

use std::fs::File;
use std::io::Read as _;
use std::path::Path;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

pub(super) const MAGIC: &[u8; 8] = b"LLMCVEC1";
pub(super) const MANIFEST: &str = "manifest.json";

/// What the vector directory holds.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Manifest {
    /// The index generation these vectors belong to.
    pub generation: u64,
    /// [`Embedder::id`](crate::search::embed::Embedder::id) of the embedder that made them.
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
    pub(super) fn read(path: &Path) -> Result<Segment> {
        let (mut seg, mut f) = Segment::open_head(path)?;
        let mut raw = vec![0u8; seg.len() * seg.dim];
        f.read_exact(&mut raw)
            .with_context(|| format!("reading {}", path.display()))?;
        seg.data = raw.into_iter().map(|b| b as i8).collect();
        Ok(seg)
    }

    /// Reads a segment file's header, ids and scales (`data` stays empty and
    /// [`Segment::vector`] must not be called); the file is left open at its first vector.
    pub(super) fn open_head(path: &Path) -> Result<(Segment, File)> {
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
pub(super) fn data_offset(n: usize) -> u64 {
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
        // Eight running maxima: a fold in one order is not vectorized.
        let mut lanes = [0f32; 8];
        let mut chunks = v.chunks_exact(8);
        for c in &mut chunks {
            for (l, x) in lanes.iter_mut().zip(c) {
                *l = l.max(x.abs());
            }
        }
        let max = chunks
            .remainder()
            .iter()
            .chain(&lanes)
            .fold(0f32, |m, x| m.max(x.abs()));
        if max == 0.0 {
            return QVec {
                values: vec![0; v.len()],
                scale: 0.0,
            };
        }
        let scale = max / 127.0;
        let inverse = 127.0 / max;
        QVec {
            // Rounded half away from zero, as `f32::round` does, but without its call to
            // libm (baseline x86-64 has no rounding instruction), once per dimension of
            // every chunk's vector.
            values: v
                .iter()
                .map(|x| {
                    let y = x * inverse;
                    (y + 0.5f32.copysign(y)) as i8
                })
                .collect(),
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
pub(super) fn dot_raw(a: &[u8], b: &[i8]) -> i32 {
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
pub(super) type Graph = instant_distance::HnswMap<QVec, u32>;

/// Reads `buf.len()` bytes of `file` at `at`, without moving a shared file position.
#[cfg(unix)]
pub(super) fn read_exact_at(file: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, at)
}

/// Reads `buf.len()` bytes of `file` at `at`, without moving a shared file position.
#[cfg(windows)]
pub(super) fn read_exact_at(file: &File, mut buf: &mut [u8], mut at: u64) -> std::io::Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quantized_value_is_rounded_half_away_from_zero() {
        let q = QVec::new(&[127.0, -127.0, 2.5, -2.5, 0.49, -0.51, 0.0]);
        assert_eq!(q.values, vec![127, -127, 3, -3, 0, -1, 0]);
        assert_eq!(q.scale, 1.0);
        // The largest magnitude maps to ±127 whatever the scale.
        let q = QVec::new(&[0.003, -0.001]);
        assert_eq!(q.values, vec![127, -42]);
        assert_eq!(QVec::new(&[0.0, 0.0]).values, vec![0, 0]);
    }
}

//! Embedders: text in, one L2-normalized vector per text out. [`HashEmbedder`] is built
//! in (no network, no download, no server); the Ollama embedder lives in
//! `crate::llm::ollama`. [`from_config`] picks one; its [`Embedder::id`] is recorded
//! beside the vectors so that vectors of two embedders never mix.

use anyhow::Result;
use rayon::prelude::*;

use super::tokenize::{split_identifier, words};
use crate::config::EmbedConfig;

/// Turns texts into vectors.
pub trait Embedder: Send + Sync {
    /// Names the embedder, its model and its version: vectors with another id are not
    /// comparable.
    fn id(&self) -> String;

    /// One vector per text, in order, each L2-normalized.
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>>;

    /// Whether the embedder is local and cheap enough to run in an index run's parse
    /// workers, one file's chunks at a time (the built-in one). One that batches
    /// requests over the network says no and is fed from the write loop instead.
    fn inline(&self) -> bool {
        false
    }
}

/// The embedder the configuration names.
pub fn from_config(cfg: &EmbedConfig) -> Result<Box<dyn Embedder>> {
    match cfg.provider.as_str() {
        "builtin" => Ok(Box::new(HashEmbedder::new(cfg.dim)?)),
        "ollama" => Ok(Box::new(crate::llm::ollama::OllamaEmbedder::new(cfg)?)),
        other => Err(crate::error::LlmcError::Config(format!(
            "`embed.provider` is `{other}`; expected `builtin` or `ollama`"
        ))
        .into()),
    }
}

/// A training-free embedder over signed, hashed features: identifier parts (split on
/// `_`, camelCase and digits), whole identifiers, and character 3- to 5-grams of each
/// part; common English and keyword stop words are left out. Counts are damped with a
/// square root before L2 normalization.
#[derive(Debug, Clone)]
pub struct HashEmbedder {
    dim: usize,
}

/// Bumped whenever the features change, so old vectors are re-embedded.
const HASH_VERSION: u32 = 2;

const WORD_WEIGHT: f32 = 1.0;
const IDENT_WEIGHT: f32 = 0.7;
const NGRAM_WEIGHT: f32 = 0.25;

impl HashEmbedder {
    /// An embedder of `dim` dimensions (at least 16).
    pub fn new(dim: usize) -> Result<HashEmbedder> {
        if !(16..=65536).contains(&dim) {
            return Err(crate::error::LlmcError::Config(format!(
                "`embed.dim` is {dim}; expected 16 to 65536"
            ))
            .into());
        }
        Ok(HashEmbedder { dim })
    }

    /// The vector of one text.
    pub fn embed_one(&self, text: &str) -> Vec<f32> {
        let mut v = vec![0f32; self.dim];
        let mut buf = String::new();
        for (_, word) in words(text) {
            if word.len() > 64 {
                continue;
            }
            let parts = split_identifier(word);
            let mut kept = 0;
            let mut joined = String::new();
            for &(a, b) in &parts {
                buf.clear();
                buf.extend(word[a..b].chars().flat_map(char::to_lowercase));
                joined.push_str(&buf);
                if buf.len() < 2 || buf.bytes().all(|c| c.is_ascii_digit()) || is_stop(&buf) {
                    continue;
                }
                kept += 1;
                self.add(&mut v, b'w', buf.as_bytes(), WORD_WEIGHT);
                let padded = format!("<{buf}>");
                let chars: Vec<usize> = padded
                    .char_indices()
                    .map(|(i, _)| i)
                    .chain([padded.len()])
                    .collect();
                for n in 3..=5 {
                    for w in chars.windows(n + 1) {
                        self.add(&mut v, b'g', &padded.as_bytes()[w[0]..w[n]], NGRAM_WEIGHT);
                    }
                }
            }
            if kept > 0 && parts.len() > 1 {
                self.add(&mut v, b'i', joined.as_bytes(), IDENT_WEIGHT);
            }
        }
        for x in &mut v {
            *x = x.signum() * x.abs().sqrt();
        }
        normalize(&mut v);
        v
    }

    fn add(&self, v: &mut [f32], class: u8, bytes: &[u8], weight: f32) {
        let h = xxhash_rust::xxh3::xxh3_64_with_seed(bytes, u64::from(class));
        let i = (h % self.dim as u64) as usize;
        let sign = if h >> 63 == 0 { 1.0 } else { -1.0 };
        v[i] += sign * weight;
    }
}

impl Embedder for HashEmbedder {
    fn id(&self) -> String {
        format!("builtin-hash-v{HASH_VERSION}/{}", self.dim)
    }

    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        Ok(texts.par_iter().map(|t| self.embed_one(t)).collect())
    }

    fn inline(&self) -> bool {
        true
    }
}

/// Scales `v` to unit length (a zero vector stays zero).
pub fn normalize(v: &mut [f32]) {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        for x in v {
            *x /= norm;
        }
    }
}

fn is_stop(w: &str) -> bool {
    // Sorted, for the binary search.
    const STOP: &[&str] = &[
        "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been",
        "but", "by", "can", "could", "def", "do", "does", "each", "else", "false", "fn", "for",
        "from", "func", "function", "has", "have", "how", "if", "in", "into", "is", "it", "its",
        "let", "may", "mut", "none", "not", "of", "on", "or", "pub", "return", "returns", "self",
        "should", "so", "some", "such", "than", "that", "the", "their", "then", "there", "these",
        "this", "to", "true", "use", "used", "var", "was", "we", "what", "when", "where", "which",
        "while", "who", "why", "will", "with", "would", "you",
    ];
    STOP.binary_search(&w).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cos(a: &[f32], b: &[f32]) -> f32 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    #[test]
    fn stop_words_are_sorted() {
        let e = HashEmbedder::new(64).expect("dim");
        assert_eq!(e.embed_one("the of to"), vec![0.0; 64]);
        for w in ["true", "false"] {
            assert!(is_stop(w), "{w}");
        }
    }

    #[test]
    fn related_texts_are_closer_than_unrelated_ones() -> Result<()> {
        let e = HashEmbedder::new(1024)?;
        let q = e.embed_one("parse the configuration file");
        let near = e.embed_one("fn parse_config(path: &Path) -> Config { read configuration }");
        let far = e.embed_one("fn draw_circle(radius: f64) { canvas.arc(radius) }");
        assert!(cos(&q, &near) > cos(&q, &far) + 0.1);
        let n: f32 = near.iter().map(|x| x * x).sum();
        assert!((n - 1.0).abs() < 1e-4);
        assert!(e.id().starts_with("builtin-hash"));
        Ok(())
    }
}

//! Embedders: text in, one L2-normalized vector per text out. [`HashEmbedder`] is built
//! in (no network, no download, no server); [`OllamaEmbedder`] asks an Ollama server
//! through `llm::ollama::Connection`, the one module that touches the network (search
//! imports llm for it; llm imports nothing of search). [`from_config`] picks one; its
//! [`Embedder::id`] is recorded beside the vectors so that vectors of two embedders
//! never mix.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Duration;

use anyhow::{Result, anyhow, bail};
use rayon::prelude::*;

use super::tokenize::{split_identifier, words};
use crate::config::{EmbedConfig, EmbedProvider};
use crate::error::LlmcError;
use crate::llm::LlmError;
use crate::llm::ollama::Connection;

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
    match cfg.provider {
        EmbedProvider::Builtin => Ok(Box::new(HashEmbedder::new(cfg.dim)?)),
        EmbedProvider::Ollama => Ok(Box::new(OllamaEmbedder::new(cfg)?)),
    }
}

/// The [`Embedder::id`] of the embedder `cfg` names, without making it (no server is
/// asked): what an index's vectors are checked against before they are read.
pub fn configured_id(cfg: &EmbedConfig) -> String {
    match cfg.provider {
        EmbedProvider::Builtin => builtin_id(cfg.dim),
        EmbedProvider::Ollama => ollama_id(&cfg.ollama_model),
    }
}

fn builtin_id(dim: usize) -> String {
    format!("builtin-hash-v{HASH_VERSION}/{dim}")
}

fn ollama_id(model: &str) -> String {
    format!("ollama/{model}")
}

/// Embeddings from an Ollama server, in batches, each request under a timeout.
#[derive(Debug)]
pub struct OllamaEmbedder {
    conn: Connection,
    model: String,
    batch: usize,
}

impl OllamaEmbedder {
    /// Connects to the configured server and checks that it has the model.
    pub fn new(cfg: &EmbedConfig) -> Result<OllamaEmbedder> {
        let conn = Connection::new(
            &cfg.ollama_url,
            cfg.allow_remote,
            Duration::from_secs(cfg.timeout_secs.max(1)),
            "embed",
            "builtin",
        )
        .map_err(embed_error)?;
        conn.check_model(&cfg.ollama_model).map_err(embed_error)?;
        Ok(OllamaEmbedder {
            conn,
            model: cfg.ollama_model.clone(),
            batch: cfg.batch_size.max(1),
        })
    }

    fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let embeddings = self
            .conn
            .embed(&self.model, texts)
            .map_err(|e| anyhow!("embedding {} texts with `{}`: {e}", texts.len(), self.model))?;
        if embeddings.len() != texts.len() {
            bail!(
                "Ollama returned {} embeddings for {} texts",
                embeddings.len(),
                texts.len()
            );
        }
        Ok(embeddings
            .into_iter()
            .map(|mut v| {
                normalize(&mut v);
                v
            })
            .collect())
    }
}

/// A refused remote host or a malformed URL is a configuration error (exit code 2).
fn embed_error(e: LlmError) -> anyhow::Error {
    match e {
        LlmError::RemoteRefused(msg) | LlmError::Bad(msg) => LlmcError::Config(msg).into(),
        other => other.into(),
    }
}

impl Embedder for OllamaEmbedder {
    fn id(&self) -> String {
        ollama_id(&self.model)
    }

    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        // A model reads the head and the body as one text.
        let texts: Vec<String> = texts.iter().map(|t| t.replace(HEAD_END, "\n")).collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let mut out = Vec::with_capacity(texts.len());
        for batch in texts.chunks(self.batch) {
            out.extend(self.embed_batch(batch)?);
        }
        Ok(out)
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
const HASH_VERSION: u32 = 4;

const WORD_WEIGHT: f32 = 1.0;
const IDENT_WEIGHT: f32 = 0.7;
const NGRAM_WEIGHT: f32 = 0.25;

/// Ends the head of a chunk's text to embed (see [`HashEmbedder::embed_one`]).
pub const HEAD_END: char = '\u{1e}';

/// The head's share of a chunk's vector.
const HEAD_SHARE: f32 = 0.5;

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

    /// The vector of one text. A chunk's text whose head (its symbol and doc comment)
    /// stands before [`HEAD_END`] is two vectors mixed: the head's and the body's, each
    /// of unit length, the head weighing [`HEAD_SHARE`]. A long body then no longer
    /// drowns the words that name and describe it.
    pub fn embed_one(&self, text: &str) -> Vec<f32> {
        let Some((head, body)) = text.split_once(HEAD_END) else {
            return self.embed_words(text);
        };
        let h = self.embed_words(head);
        let mut v = self.embed_words(body);
        for (x, y) in v.iter_mut().zip(&h) {
            *x = *x * (1.0 - HEAD_SHARE) + y * HEAD_SHARE;
        }
        normalize(&mut v);
        v
    }

    /// The damped, normalized bag of features of `text`'s words.
    fn embed_words(&self, text: &str) -> Vec<f32> {
        let mut v = vec![0f32; self.dim];
        WORD_CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            if cache.dim != self.dim {
                cache.clear();
                cache.dim = self.dim;
            }
            for (_, word) in words(text) {
                if word.len() > 64 {
                    continue;
                }
                let key = word_key(word);
                if let Some(&(at, len)) = cache.words.get(&key) {
                    apply(&mut v, &cache.features[at as usize..(at + len) as usize]);
                    continue;
                }
                let features = self.word_features(word);
                apply(&mut v, &features);
                if cache.words.len() >= WORD_CACHE_MAX
                    || cache.features.len() + features.len() > FEATURES_MAX
                {
                    cache.clear();
                }
                let at = cache.features.len() as u32;
                cache.features.extend_from_slice(&features);
                cache.words.insert(key, (at, features.len() as u32));
            }
        });
        for x in &mut v {
            *x = x.signum() * x.abs().sqrt();
        }
        normalize(&mut v);
        v
    }

    /// One word's features in the order they are added to the vector.
    fn word_features(&self, word: &str) -> Vec<(u32, f32)> {
        let mut out = Vec::new();
        let mut buf = String::new();
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
            out.push(self.feature(b'w', buf.as_bytes(), WORD_WEIGHT));
            let padded = format!("<{buf}>");
            let chars: Vec<usize> = padded
                .char_indices()
                .map(|(i, _)| i)
                .chain([padded.len()])
                .collect();
            for n in 3..=5 {
                for w in chars.windows(n + 1) {
                    out.push(self.feature(b'g', &padded.as_bytes()[w[0]..w[n]], NGRAM_WEIGHT));
                }
            }
        }
        if kept > 0 && parts.len() > 1 {
            out.push(self.feature(b'i', joined.as_bytes(), IDENT_WEIGHT));
        }
        out
    }

    /// The dimension a feature lands in and its signed weight.
    fn feature(&self, class: u8, bytes: &[u8], weight: f32) -> (u32, f32) {
        let h = xxhash_rust::xxh3::xxh3_64_with_seed(bytes, u64::from(class));
        let i = (h % self.dim as u64) as u32;
        let sign = if h >> 63 == 0 { 1.0 } else { -1.0 };
        (i, sign * weight)
    }
}

/// Adds a word's features to a vector, in order (so a cached word adds exactly what a
/// fresh one does).
fn apply(v: &mut [f32], features: &[(u32, f32)]) {
    for &(i, w) in features {
        v[i as usize] += w;
    }
}

/// Words whose features were computed on this thread: code repeats its identifiers, and
/// hashing a word's n-grams is most of the embedder's work. A word is found by its
/// [`word_key`], its features (dimension, signed weight, in the order they are added)
/// are a range of one buffer: a lookup touches the table and that range, no key or
/// boxed slice of its own.
struct WordCache {
    dim: usize,
    words: HashMap<u64, (u32, u32), BuildHasherDefault<KeyHasher>>,
    features: Vec<(u32, f32)>,
}

impl WordCache {
    fn clear(&mut self) {
        self.words.clear();
        self.features.clear();
    }
}

/// A word's key in the cache: its 64-bit hash with its length in the top byte. Two
/// words of one length meet on one key with odds of one in 2^56 per pair, far below
/// one in a million for the cache's 32,768 words.
fn word_key(word: &str) -> u64 {
    let h = xxhash_rust::xxh3::xxh3_64(word.as_bytes());
    (h >> 8) | ((word.len() as u64) << 56)
}

/// The cache's keys are hashes already: the table uses them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        // hashbrown reads its control byte from the top seven bits, which hold the
        // length: mix the low bits up.
        self.0 = n.rotate_left(32) ^ n;
    }
}

/// Past this many words, or features of all words, the cache starts over: at most
/// 8 MB of features and 1 MB of table per thread whatever the words' lengths, and a
/// word's range of the buffer fits its `u32` offsets.
const WORD_CACHE_MAX: usize = 32_768;
const FEATURES_MAX: usize = 1 << 20;

thread_local! {
    static WORD_CACHE: RefCell<WordCache> = const {
        RefCell::new(WordCache {
            dim: 0,
            words: HashMap::with_hasher(BuildHasherDefault::new()),
            features: Vec::new(),
        })
    };
}

impl Embedder for HashEmbedder {
    fn id(&self) -> String {
        builtin_id(self.dim)
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
    let norm = sum_of_squares(v).sqrt();
    if norm > 0.0 {
        for x in v {
            *x /= norm;
        }
    }
}

/// The sum of the squares of `v`, in eight running sums (a sum in one order cannot be
/// vectorized; it was the embedder's slowest loop).
fn sum_of_squares(v: &[f32]) -> f32 {
    let mut lanes = [0f32; 8];
    let mut chunks = v.chunks_exact(8);
    for c in &mut chunks {
        for (l, x) in lanes.iter_mut().zip(c) {
            *l += x * x;
        }
    }
    let rest: f32 = chunks.remainder().iter().map(|x| x * x).sum();
    lanes.iter().sum::<f32>() + rest
}

pub(crate) fn is_stop(w: &str) -> bool {
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

    /// Every length, the eight running sums and the rest past them: unit length after.
    #[test]
    fn normalize_gives_unit_length_at_any_length() {
        for n in [1usize, 7, 8, 9, 17, 1024, 1029] {
            let mut v: Vec<f32> = (0..n).map(|i| (i as f32 * 0.37).sin() + 0.1).collect();
            normalize(&mut v);
            let norm: f64 = v.iter().map(|&x| f64::from(x) * f64::from(x)).sum();
            assert!((norm - 1.0).abs() < 1e-5, "{n}: {norm}");
        }
        let mut zero = vec![0f32; 9];
        normalize(&mut zero);
        assert_eq!(zero, vec![0f32; 9]);
    }

    #[test]
    fn cached_words_embed_exactly_as_fresh_ones() -> Result<()> {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/search/tokenize.rs"
        ))?;
        let (small, large) = (HashEmbedder::new(64)?, HashEmbedder::new(1024)?);
        let first = large.embed_one(&text);
        // The other dimension starts the cache over; the second pass at 1,024 finds
        // every word cached by the first.
        let other = small.embed_one(&text);
        assert_eq!(other.len(), 64);
        WORD_CACHE.with(|c| c.borrow_mut().words.clear());
        let cold = large.embed_one(&text);
        let warm = large.embed_one(&text);
        assert!(WORD_CACHE.with(|c| c.borrow().words.len()) > 100);
        assert_eq!(first, cold);
        assert_eq!(cold, warm);
        assert_ne!(cold, vec![0.0; 1024]);
        Ok(())
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

    #[test]
    fn a_remote_server_is_refused_without_opt_in() {
        let cfg = EmbedConfig {
            provider: EmbedProvider::Ollama,
            ollama_url: "http://10.1.2.3:11434".into(),
            ..EmbedConfig::default()
        };
        let err = OllamaEmbedder::new(&cfg).expect_err("refused");
        assert!(err.to_string().contains("embed.allow_remote"), "{err}");
        assert!(matches!(
            err.downcast_ref::<LlmcError>(),
            Some(LlmcError::Config(_))
        ));
    }

    fn definition(text: String) -> crate::model::Chunk {
        crate::model::Chunk {
            start_line: 1,
            end_line: 1,
            kind: crate::model::ChunkKind::Definition,
            symbol: None,
            symbol_index: None,
            text,
        }
    }

    #[test]
    fn a_long_body_does_not_drown_the_head_that_names_it() {
        let e = HashEmbedder::new(1024).expect("dim");
        let q = e.embed_one("how does fzf return new Terminal object?");
        // fzf's NewTerminal: its doc comment is the question, its body 400 lines.
        let body: String = (0..400)
            .map(|i| format!("\tpreviewBox{i} := util.NewEventBox(opts.Layout{i}, height{i})\n"))
            .collect();
        let long = e.embed_one(&crate::search::sync::embed_text(
            "src/terminal.go",
            &definition(format!(
                "func NewTerminal(opts *Options) (*Terminal, error) {{\n{body}}}"
            )),
            "NewTerminal",
            "NewTerminal returns new Terminal object",
        ));
        // A three-line method of the same file, which says `Terminal` and `return`.
        let short = e.embed_one(&crate::search::sync::embed_text(
            "src/terminal.go",
            &definition(
                "func (t *Terminal) environ() []string {\n\treturn t.environImpl(false)\n}".into(),
            ),
            "Terminal.environ",
            "",
        ));
        assert!(
            cos(&q, &long) > cos(&q, &short),
            "{} <= {}",
            cos(&q, &long),
            cos(&q, &short)
        );
    }
}

//! Search benchmark: `cargo bench --bench search [-- TREE] [--sizes=2000,10000]`.
//!
//! On a tree (default: this machine's Python standard library without site-packages and
//! its test suites), chunked exactly as `llmc index` chunks it:
//! - built-in embedder throughput in chunks/s, on one core and on all cores, and the time
//!   to embed every chunk of the tree;
//! - vector search as a cold `llmc search` pays for it, per query: open the vector files
//!   (read + parse, or read + deserialize the HNSW graph) and find the 50 nearest, for an
//!   exact scan over quantized vectors and for the HNSW graph, at several sizes, with the
//!   HNSW's build time and its recall@10 against the exact scan.
//!
//! `scripts/csn_eval.py --bench` measures whole-process `llmc search` times.

use std::path::{Path, PathBuf};
use std::time::Instant;

use llmc::search::embed::{Embedder, HashEmbedder};
use llmc::search::sync::embed_text;
use llmc::search::vectors::{VectorIndex, VectorWriteConfig, VectorWriter};
use llmc::syntax::chunk::ChunkConfig;

const EXCLUDED: [&str; 5] = ["site-packages", "test", "tests", "idle_test", "__pycache__"];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let tree = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .unwrap_or_else(stdlib);
    let sizes: Vec<usize> = args
        .iter()
        .find_map(|a| a.strip_prefix("--sizes="))
        .unwrap_or("2000,10000,30000")
        .split(',')
        .filter_map(|s| s.parse().ok())
        .collect();
    let texts = chunk_texts(&tree);
    println!(
        "llmc search benchmark on {} cores: {} ({} chunks)",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        tree.display(),
        texts.len()
    );
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let e = match HashEmbedder::new(1024) {
        Ok(e) => e,
        Err(err) => panic!("embedder: {err:#}"),
    };

    let t = Instant::now();
    for s in &refs {
        std::hint::black_box(e.embed_one(s));
    }
    let one = refs.len() as f64 / t.elapsed().as_secs_f64();
    let t = Instant::now();
    let vectors = e.embed(&refs).unwrap_or_default();
    let all_secs = t.elapsed().as_secs_f64();
    println!(
        "embedder builtin-hash/1024: {one:.0} chunks/s on one core, {:.0} chunks/s on all cores; \
         all {} chunks in {all_secs:.2}s",
        refs.len() as f64 / all_secs,
        vectors.len()
    );

    let queries: Vec<Vec<f32>> = refs
        .iter()
        .step_by((refs.len() / 50).max(1))
        .take(50)
        .map(|t| e.embed_one(&t.chars().take(80).collect::<String>()))
        .collect();
    for &n in &sizes {
        if n > refs.len() {
            continue;
        }
        let exact = build(&e, &refs[..n], usize::MAX);
        let (exact_ms, exact_hits) = per_query(exact.path(), &queries);
        let t = Instant::now();
        let hnsw = build(&e, &refs[..n], 1);
        let build_s = t.elapsed().as_secs_f64();
        let (hnsw_ms, hnsw_hits) = per_query(hnsw.path(), &queries);
        let recall: f64 = exact_hits
            .iter()
            .zip(&hnsw_hits)
            .map(|(a, b)| {
                let a10 = &a[..a.len().min(10)];
                a10.iter().filter(|x| b.contains(x)).count() as f64 / a10.len().max(1) as f64
            })
            .sum::<f64>()
            / exact_hits.len().max(1) as f64;
        println!(
            "{n:>6} vectors: exact open+search {exact_ms:.1} ms/query; \
             hnsw open+search {hnsw_ms:.1} ms/query (build {build_s:.1}s, recall@10 {recall:.3})"
        );
    }
}

fn build(e: &HashEmbedder, texts: &[&str], hnsw_min_vectors: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap_or_else(|err| panic!("tempdir: {err}"));
    let cfg = VectorWriteConfig {
        delta_max: 0,
        hnsw_min_vectors,
        batch: 4096,
    };
    let result = (|| -> anyhow::Result<()> {
        let mut w = VectorWriter::open(dir.path(), e, cfg, true)?;
        for (i, t) in texts.iter().enumerate() {
            w.add(i as i64, t.to_string())?;
        }
        w.commit(1, true)?;
        Ok(())
    })();
    if let Err(err) = result {
        panic!("building vectors: {err:#}");
    }
    dir
}

/// Milliseconds per query for open + search (each query opens afresh, like a cold
/// process), and the ids found.
fn per_query(dir: &Path, queries: &[Vec<f32>]) -> (f64, Vec<Vec<i64>>) {
    let mut hits = Vec::new();
    let t = Instant::now();
    for q in queries {
        let found = VectorIndex::open(dir)
            .and_then(|i| match i {
                Some(i) => i.search(q, 50, &|_| true),
                None => anyhow::bail!("no vectors"),
            })
            .unwrap_or_else(|err| panic!("search: {err:#}"));
        hits.push(found.0.into_iter().map(|h| h.0).collect());
    }
    (
        t.elapsed().as_secs_f64() * 1000.0 / queries.len() as f64,
        hits,
    )
}

fn stdlib() -> PathBuf {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['stdlib'])",
        ])
        .output()
        .unwrap_or_else(|err| panic!("python3: {err}"));
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

/// The embedding texts of every chunk of every `.py` file, as `llmc index` makes them.
fn chunk_texts(tree: &Path) -> Vec<String> {
    let mut files = Vec::new();
    collect(tree, &mut files);
    files.sort();
    let opts = llmc::syntax::FileOptions {
        chunks: ChunkConfig {
            window_lines: 60,
            max_chunk_lines: 150,
            text: true,
        },
        refs: false,
    };
    let mut out = Vec::new();
    for f in files {
        let Ok(bytes) = std::fs::read(&f) else {
            continue;
        };
        let rel = f
            .strip_prefix(tree)
            .unwrap_or(&f)
            .to_string_lossy()
            .into_owned();
        let size = bytes.len() as u64;
        let file = llmc::index::index_bytes(&rel, bytes, String::new(), size, 0, None, opts);
        for c in &file.chunks {
            let doc = c
                .symbol_index
                .and_then(|i| file.symbols.get(i))
                .map_or("", |s| s.doc.as_str());
            out.push(embed_text(&rel, c, c.symbol.as_deref().unwrap_or(""), doc));
        }
    }
    out
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        match e.file_type() {
            Ok(t) if t.is_dir() && !EXCLUDED.contains(&name.as_str()) => collect(&p, out),
            Ok(t) if t.is_file() && name.ends_with(".py") => out.push(p),
            _ => {}
        }
    }
}

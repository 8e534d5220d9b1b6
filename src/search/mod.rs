//! The lexical and semantic memories and raw retrieval over them: a code-aware tokenizer
//! ([`tokenize`]), a tantivy BM25 index ([`lexical`]), embedders ([`embed`]), quantized
//! vectors with an HNSW graph and an exact delta ([`vectors`]), reciprocal rank fusion
//! ([`fuse`]) and the hook that keeps them in step with an index run ([`sync`]).
//!
//! [`search`] answers one query. The search indexes hold chunk ids only: paths, lines,
//! symbols and kinds come from the SQLite store, and a hit whose chunk the store no
//! longer has is dropped. Nothing here prints.

pub mod embed;
pub mod fuse;
pub mod generations;
pub mod indexes;
pub mod lexical;
pub mod sync;
pub mod tokenize;
pub mod vectors;

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use serde::Serialize;

use crate::config::Config;
use crate::error::LlmcError;
use crate::model::Memory;
use crate::store::Store;
use fuse::{RankedList, RouteRank};
pub use indexes::{Indexes, Kept, Opened, OtherEmbedder, embedder_for, out_of_step};
// Plain data in `model` (so the store could hand it out); its reader is here.
pub use crate::model::ChunkLoc;

/// Which routes a search runs (`search.mode`, `--mode`): the configuration's enum.
pub use crate::config::SearchMode as Mode;
pub use crate::source::is_test_path;

/// Which chunk ids a search may return: all, or those in a set of id ranges.
#[derive(Debug, Clone, Default)]
pub struct IdFilter {
    /// Sorted, disjoint, inclusive ranges; `None` keeps everything.
    ranges: Option<Arc<Vec<(i64, i64)>>>,
}

impl IdFilter {
    /// A filter keeping only ids in `ranges` (inclusive).
    pub fn ranges(mut ranges: Vec<(i64, i64)>) -> IdFilter {
        ranges.sort_unstable();
        IdFilter {
            ranges: Some(Arc::new(ranges)),
        }
    }

    /// Whether `id` passes.
    pub fn keep(&self, id: i64) -> bool {
        match &self.ranges {
            None => true,
            Some(r) => {
                let i = r.partition_point(|&(lo, _)| lo <= id);
                i > 0 && r[i - 1].1 >= id
            }
        }
    }
}

/// One search.
#[derive(Debug, Clone)]
pub struct SearchRequest {
    pub query: String,
    pub mode: Mode,
    pub k: usize,
    /// Only files of this language (as `llmc status` names them).
    pub lang: Option<String>,
    /// Only files whose path (relative to the root) matches this glob.
    pub path_glob: Option<String>,
    /// No tests, test fixtures or test data ([`is_test_path`]).
    pub no_tests: bool,
}

/// A hit, with its chunk's location from the store.
#[derive(Debug, Clone, Serialize)]
pub struct Hit {
    #[serde(flatten)]
    pub loc: ChunkLoc,
    pub score: f64,
    pub routes: Vec<RouteHit>,
}

/// A hit's rank and score in one route.
#[derive(Debug, Clone, Serialize)]
pub struct RouteHit {
    pub route: Memory,
    /// 1-based.
    pub rank: usize,
    pub score: f32,
}

impl From<&RouteRank> for RouteHit {
    fn from(r: &RouteRank) -> Self {
        RouteHit {
            route: r.route,
            rank: r.rank,
            score: r.score,
        }
    }
}

/// What a search found, and how.
#[derive(Debug, Clone, Serialize)]
pub struct SearchResult {
    pub query: String,
    pub mode: Mode,
    pub hits: Vec<Hit>,
    /// Milliseconds per step.
    pub timings: Vec<(&'static str, f64)>,
    /// Whether the vector search used the HNSW graph.
    pub hnsw: bool,
    /// Hits dropped because the store no longer has their chunk.
    pub stale_hits: usize,
    /// Set when the search indexes are from another generation than the store.
    pub warning: Option<String>,
}

/// Runs one search over the indexes of `root`: the store's generation and the search
/// indexes of that same generation. A generation removed while it was being read (the
/// reader overtaken by two index runs) is read again from the new one.
pub fn search(root: &Path, config: &Config, req: &SearchRequest) -> Result<SearchResult> {
    search_with(config, req, &|| Indexes::open(root))
}

/// [`search`] over the indexes `open` gives (opened for this search, or kept open by a
/// long-running process: [`Kept::open`]).
pub fn search_with(
    config: &Config,
    req: &SearchRequest,
    open: &dyn Fn() -> Result<Indexes>,
) -> Result<SearchResult> {
    retry_changed(|| search_once(config, req, open))
}

/// Runs `f` again (twice at most) when it fails with [`LlmcError::IndexChanged`].
pub fn retry_changed<T>(mut f: impl FnMut() -> Result<T>) -> Result<T> {
    let mut tries = 0;
    loop {
        match f() {
            Err(e) if tries < 2 && is_changed(&e) => tries += 1,
            other => return other,
        }
    }
}

fn is_changed(e: &anyhow::Error) -> bool {
    e.chain()
        .any(|c| matches!(c.downcast_ref::<LlmcError>(), Some(LlmcError::IndexChanged)))
}

/// The directory of generation `generation` of a search index (`parent` is
/// `.llmc/lexical` or `.llmc/vectors`), or why there is none: overtaken by newer
/// generations ([`LlmcError::IndexChanged`]), or `None` when it was never built.
pub fn generation_dir(parent: &Path, generation: u64) -> Result<Option<std::path::PathBuf>> {
    let dir = generations::gen_dir(parent, generation);
    if dir.is_dir() {
        Ok(Some(dir))
    } else if generations::newer_exists(parent, generation) {
        Err(LlmcError::IndexChanged.into())
    } else {
        Ok(None)
    }
}

fn search_once(
    config: &Config,
    req: &SearchRequest,
    open: &dyn Fn() -> Result<Indexes>,
) -> Result<SearchResult> {
    let mut timings = Vec::new();
    let t = Instant::now();
    let indexes = open()?;
    let store = &indexes.store;
    let dir = &indexes.dir;
    let filter = id_filter(store, req)?;
    timings.push(("store", ms(t)));
    let candidates = config.search.candidates.max(req.k);
    let mut lists = Vec::new();
    let mut hnsw = false;
    let mut warning = None;
    // A mode needs the memories it reads; hybrid makes do with the one that was built.
    let built = indexes.built;
    let mode = match (req.mode, built.lexical, built.semantic) {
        (Mode::Lexical | Mode::Hybrid, false, false) | (Mode::Lexical, false, _) => {
            return Err(LlmcError::MemoryOff(Memory::Lexical).into());
        }
        (Mode::Semantic, _, false) => {
            return Err(LlmcError::MemoryOff(Memory::Semantic).into());
        }
        (Mode::Hybrid, true, false) => {
            warning = Some(format!(
                "{}: lexical results only",
                LlmcError::MemoryOff(Memory::Semantic)
            ));
            Mode::Lexical
        }
        (Mode::Hybrid, false, true) => {
            warning = Some(format!(
                "{}: semantic results only",
                LlmcError::MemoryOff(Memory::Lexical)
            ));
            Mode::Semantic
        }
        (mode, _, _) => mode,
    };
    let mut step = |name: &'static str, t: Instant| timings.push((name, ms(t)));

    if matches!(mode, Mode::Lexical | Mode::Hybrid) {
        let t = Instant::now();
        let (lex, behind) = match indexes.lexical()? {
            Opened::Ready {
                index,
                out_of_step: b,
            } => (index, b),
            Opened::Missing => return Err(missing(dir, "the lexical index is missing")),
            Opened::Broken(e) => return Err(e),
        };
        if behind {
            warning.get_or_insert_with(out_of_step);
        }
        let hits = lex.search(&req.query, candidates, req.lang.as_deref(), &filter)?;
        lists.push(RankedList {
            route: Memory::Lexical,
            weight: config.search.lexical_weight,
            hits,
        });
        step("lexical", t);
    }
    if matches!(mode, Mode::Semantic | Mode::Hybrid) {
        let t = Instant::now();
        let (index, behind) = match indexes.vectors()? {
            Opened::Ready {
                index,
                out_of_step: b,
            } => (index, b),
            Opened::Missing => return Err(missing(dir, "the vector index is missing")),
            Opened::Broken(e) => return Err(missing(dir, &format!("{e:#}"))),
        };
        step("vectors_open", t);
        let t = Instant::now();
        let embedder = match embedder_for(&index, &config.embed)? {
            Ok(e) => e,
            Err(OtherEmbedder {
                made_by,
                configured,
            }) => {
                return Err(missing(
                    dir,
                    &format!(
                        "the vectors were made by `{made_by}`, the configuration asks for `{configured}`; run `llmc index` to re-embed"
                    ),
                ));
            }
        };
        if behind {
            warning.get_or_insert_with(out_of_step);
        }
        let q = embedder
            .embed(&[req.query.as_str()])?
            .pop()
            .context("the embedder returned no vector")?;
        step("embed_query", t);
        let t = Instant::now();
        let lang_filter = match &req.lang {
            Some(l) => {
                let f = lang_ranges(store, l)?;
                Some(f)
            }
            None => None,
        };
        let keep = |id: i64| filter.keep(id) && lang_filter.as_ref().is_none_or(|f| f.keep(id));
        let (hits, info) = index.search(&q, candidates, &keep)?;
        hnsw = info.hnsw;
        lists.push(RankedList {
            route: Memory::Semantic,
            weight: config.search.semantic_weight,
            hits,
        });
        step("semantic", t);
    }
    let t = Instant::now();
    let fused = match config.search.fusion {
        crate::config::Fusion::Scores => fuse::by_score(&lists),
        crate::config::Fusion::Ranks => fuse::rrf(&lists, config.search.rrf_k),
    };
    let mut hits = Vec::new();
    let mut stale_hits = 0;
    for f in fused {
        if hits.len() >= req.k {
            break;
        }
        match store.read(|c| crate::store::chunk_loc(c, f.id))? {
            Some(loc) => hits.push(Hit {
                loc,
                score: match mode {
                    Mode::Hybrid => f.score,
                    _ => f64::from(f.routes[0].score),
                },
                routes: f.routes.iter().map(RouteHit::from).collect(),
            }),
            None => stale_hits += 1,
        }
    }
    timings.push(("fuse", ms(t)));
    Ok(SearchResult {
        query: req.query.clone(),
        mode,
        hits,
        timings,
        hnsw,
        stale_hits,
        warning,
    })
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

fn missing(dir: &Path, reason: &str) -> anyhow::Error {
    LlmcError::IndexUnusable {
        path: dir.to_path_buf(),
        reason: reason.to_string(),
    }
    .into()
}

/// The lines of a hit worth showing: up to `n` lines of `lines` (the first being line
/// `first`) that hold the most distinct tokens of `query` ([`tokenize::tokens`], a
/// plural or `-ing`/`-ed` form counting as its stem), in line order; the hit's first
/// non-blank line when none holds any.
pub fn best_lines(lines: &[String], first: u32, query: &str, n: usize) -> Vec<(u32, String)> {
    fn root(t: &str) -> &str {
        for suffix in ["ing", "ed", "es", "s"] {
            if let Some(r) = t.strip_suffix(suffix)
                && r.len() >= 3
            {
                return r;
            }
        }
        t
    }
    let wanted: std::collections::HashSet<String> = tokenize::tokens(query)
        .into_iter()
        .filter(|t| t.text.len() >= 2)
        .map(|t| root(&t.text).to_string())
        .collect();
    let mut scored: Vec<(usize, usize)> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            let have: std::collections::HashSet<&str> = tokenize::tokens(l)
                .iter()
                .filter_map(|t| wanted.get(root(&t.text)).map(String::as_str))
                .collect();
            (!have.is_empty()).then_some((have.len(), i))
        })
        .collect();
    // Most tokens first, then the earlier line; shown in line order.
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut picked: Vec<usize> = scored.into_iter().take(n).map(|(_, i)| i).collect();
    if picked.is_empty()
        && let Some(i) = lines.iter().position(|l| !l.trim().is_empty())
    {
        picked.push(i);
    }
    picked.sort_unstable();
    picked
        .into_iter()
        .map(|i| (first + i as u32, lines[i].clone()))
        .collect()
}

/// The `--path` glob as a matcher, or a usage error that says how to write one.
pub fn path_matcher(glob: &str) -> Result<globset::GlobMatcher> {
    Ok(globset::GlobBuilder::new(glob)
        .literal_separator(false)
        .build()
        .map_err(|e| {
            LlmcError::Usage(format!(
                "--path {glob:?} is not a valid glob ({}): use a glob like 'src/**/*.rs', quoted so the shell leaves it alone",
                e.kind()
            ))
        })?
        .compile_matcher())
}

/// The indexed paths that `--path`, `--lang` and `--no-tests` keep, and every indexed
/// language (to name them when `--lang` names none of them).
pub fn scoped_paths(
    c: &rusqlite::Connection,
    glob: Option<&globset::GlobMatcher>,
    lang: Option<&str>,
    no_tests: bool,
) -> rusqlite::Result<(
    std::collections::HashSet<String>,
    std::collections::BTreeSet<String>,
)> {
    let mut stmt = c.prepare("SELECT path, lang FROM files")?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
    let mut out = std::collections::HashSet::new();
    let mut langs = std::collections::BTreeSet::new();
    for row in rows {
        let (path, l) = row?;
        if !langs.contains(&l) {
            langs.insert(l.clone());
        }
        if glob.is_some_and(|g| !g.is_match(&path))
            || lang.is_some_and(|want| want != l)
            || (no_tests && is_test_path(&path))
        {
            continue;
        }
        out.insert(path);
    }
    Ok((out, langs))
}

/// The id filter for `--path` and `--no-tests`, from the files table's chunk ranges.
fn id_filter(store: &Store, req: &SearchRequest) -> Result<IdFilter> {
    if req.path_glob.is_none() && !req.no_tests {
        return Ok(IdFilter::default());
    }
    let matcher = match &req.path_glob {
        Some(glob) => Some(path_matcher(glob)?),
        None => None,
    };
    let ranges = file_ranges(store, None)?
        .into_iter()
        .filter(|(p, _)| matcher.as_ref().is_none_or(|m| m.is_match(p)))
        .filter(|(p, _)| !(req.no_tests && is_test_path(p)))
        .map(|(_, r)| r)
        .collect();
    Ok(IdFilter::ranges(ranges))
}

/// The languages of the indexed files, sorted (what `--lang` can name).
pub fn indexed_languages(root: &Path) -> Result<Vec<String>> {
    let store = Store::open_existing(root)?;
    store.read(|c| {
        let mut stmt = c.prepare("SELECT DISTINCT lang FROM files ORDER BY lang")?;
        let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
        rows.collect()
    })
}

fn lang_ranges(store: &Store, lang: &str) -> Result<IdFilter> {
    Ok(IdFilter::ranges(
        file_ranges(store, Some(lang))?
            .into_iter()
            .map(|(_, r)| r)
            .collect(),
    ))
}

fn file_ranges(store: &Store, lang: Option<&str>) -> Result<Vec<(String, (i64, i64))>> {
    store.read(|c| {
        let mut stmt = c.prepare(
            "SELECT path, chunk_lo, chunk_hi FROM files
             WHERE chunk_lo IS NOT NULL AND (?1 IS NULL OR lang = ?1)",
        )?;
        let rows = stmt.query_map([lang], |r| {
            Ok((r.get::<_, String>(0)?, (r.get(1)?, r.get(2)?)))
        })?;
        rows.collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_paths_by_the_usual_layouts() {
        for p in [
            "tests/test_app.py",
            "src/pkg/tests/helpers.py",
            "conftest.py",
            "pkg/test_models.py",
            "pkg/models_test.py",
            "mux_test.go",
            "src/ky.test.ts",
            "web/app.spec.js",
            "src/test/java/org/AppTest.java",
            "testdata/real/a.jsonl",
            "__tests__/x.js",
            "okio/src/jvmTest/kotlin/okio/SocketTest.kt",
            "okio/src/commonTest/kotlin/okio/Helpers.kt",
            "src/BufferTest.kt",
            "tests/shared/src/test/scala/cats/tests/ChainSuite.scala",
            "core/ChainSpec.scala",
            "test/Serilog.Tests/Core/LoggerTests.cs",
            "Serilog.Tests/Support/Some.cs",
            "Tests/ArgumentParserTests/HelpTests.swift",
            "spec/models/user_spec.rb",
            "lib/user_spec.rb",
            "tests/Unit/RouterTest.php",
            "test_max_level_features/main.rs",
        ] {
            assert!(is_test_path(p), "{p}");
        }
        for p in [
            "src/app.py",
            "src/testing_utils_are_code.py",
            "latest.py",
            "src/contest/run.go",
            "docs/testing.md",
            "src/Tester.java",
            "okio/src/jvmMain/kotlin/okio/Buffer.kt",
            "core/src/main/scala/cats/Test.scala",
            "src/Latest.kt",
            "src/Contest.cs",
            "Sources/ArgumentParser/Parsable.swift",
            "src/Contest/Run.kt",
            "lib/inspect.rb",
            "src/latest_features/main.rs",
        ] {
            assert!(!is_test_path(p), "{p}");
        }
    }

    #[test]
    fn id_filters_test_inclusive_ranges() {
        let f = IdFilter::ranges(vec![(10, 12), (1, 3)]);
        let kept: Vec<i64> = (0..15).filter(|&i| f.keep(i)).collect();
        assert_eq!(kept, [1, 2, 3, 10, 11, 12]);
        assert!(IdFilter::default().keep(99));
        assert!(!IdFilter::ranges(Vec::new()).keep(1));
    }
}

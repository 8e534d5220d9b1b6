//! The sections of the configuration (`[index]`, `[search]`, `[embed]`, `[route]`,
//! `[ask]`, `[llm]`), their defaults (equal to `llmc.toml.example`, a test checks), and
//! the typed values a key holds: the choice keys are enums and a `[route]` entry is a
//! parsed [`RouteEntry`], so nothing downstream decodes a string again.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::LlmcError;
use crate::model::{Intent, Memory, MemorySet};

/// A key whose value is one of a few names: the enum, its names (serde's, lowercase),
/// and how an error message lists them.
macro_rules! choice {
    ($(#[$m:meta])* pub enum $name:ident ($expected:literal) { $($(#[$vm:meta])* $v:ident = $s:literal,)* }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
        pub enum $name {
            $($(#[$vm])* #[serde(rename = $s)] $v,)*
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &[$name] = &[$($name::$v,)*];
            /// The values as an error message lists them.
            pub const EXPECTED: &str = $expected;

            /// The name written in `llmc.toml`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$v => $s,)*
                }
            }

            /// The value named `s`, if any.
            pub fn from_name(s: &str) -> Option<$name> {
                $name::ALL.iter().copied().find(|v| v.as_str() == s)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.pad(self.as_str())
            }
        }

        // Code written against the string form (`provider == "builtin"`) keeps working.
        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }
    };
}

choice! {
    /// `search.mode`, and `llmc search --mode`: which routes a search runs.
    pub enum SearchMode ("lexical, semantic or hybrid") {
        Lexical = "lexical",
        Semantic = "semantic",
        Hybrid = "hybrid",
    }
}

choice! {
    /// `search.fusion`: how a hybrid search merges its lexical and semantic lists.
    pub enum Fusion ("scores or ranks") {
        /// Each list's scores scaled to 0..1, times its weight, summed.
        Scores = "scores",
        /// Weighted reciprocal rank fusion with constant `rrf_k`.
        Ranks = "ranks",
    }
}

impl SearchMode {
    /// Parses `--mode`: `lexical`, `semantic` or `hybrid`.
    pub fn parse(s: &str) -> Result<SearchMode, LlmcError> {
        SearchMode::from_name(s).ok_or_else(|| {
            LlmcError::Config(format!(
                "unknown search mode `{s}`; expected {}",
                SearchMode::EXPECTED
            ))
        })
    }
}

choice! {
    /// `embed.provider`: which embedder makes the vectors.
    pub enum EmbedProvider ("`builtin` or `ollama`") {
        /// Hashed features: no network, no download, no server.
        Builtin = "builtin",
        Ollama = "ollama",
    }
}

choice! {
    /// `graph.precise`: whether `llmc index` runs the SCIP indexers found on PATH.
    pub enum PreciseMode ("`off` or `auto`") {
        Off = "off",
        /// Run the indexers for the repository's languages that are on PATH.
        Auto = "auto",
    }
}

choice! {
    /// `llm.provider`: the language model behind `llmc ask`, if any.
    pub enum LlmProvider ("`none` or `ollama`") {
        None = "none",
        Ollama = "ollama",
    }
}

/// One `[route]` entry, parsed when the configuration loads: the memories an intent
/// consults with their fusion weights (`"graph=1.0 lexical=0.3"` in `llmc.toml`).
#[derive(Debug, Clone, PartialEq)]
pub struct RouteEntry(pub Vec<(Memory, f32)>);

impl RouteEntry {
    /// Parses `"graph=1.0 lexical=0.3"` (spaces or commas between); the error says what
    /// is wrong with which part.
    pub fn parse(entry: &str) -> Result<RouteEntry, String> {
        let mut out = Vec::new();
        for part in entry.split([' ', ',']).filter(|p| !p.is_empty()) {
            let (name, weight) = part
                .split_once('=')
                .ok_or_else(|| format!("`{part}`: expected RETRIEVER=WEIGHT, e.g. graph=1.0"))?;
            let memory = Memory::parse(name.trim()).ok_or_else(|| {
                format!("`{name}`: unknown retriever (known: graph, history, lexical, semantic)")
            })?;
            let weight: f32 = weight
                .trim()
                .parse()
                .map_err(|_| format!("`{part}`: the weight must be a number"))?;
            if !(0.0..=10.0).contains(&weight) {
                return Err(format!("`{part}`: the weight must be between 0 and 10"));
            }
            out.push((memory, weight));
        }
        if out.is_empty() {
            return Err("a route needs at least one retriever".into());
        }
        Ok(RouteEntry(out))
    }

    /// The memories and weights, in the order written.
    pub fn steps(&self) -> &[(Memory, f32)] {
        &self.0
    }
}

// Written back as in `llmc.toml` (`{:?}` keeps `1.0` a float), so the key's type stays
// "a string" for the type checks and the defaults' listing.
impl Serialize for RouteEntry {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let text: Vec<String> = self.0.iter().map(|(m, w)| format!("{m}={w:?}")).collect();
        s.serialize_str(&text.join(" "))
    }
}

impl<'de> Deserialize<'de> for RouteEntry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RouteEntry, D::Error> {
        let text = String::deserialize(d)?;
        RouteEntry::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// `[ask]`: the stages of `llmc ask` after routing, each of which can be switched off to
/// fall back to the simpler path.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AskConfig {
    /// Sources in an answer.
    pub k: usize,
    /// Candidates each retriever contributes before fusion.
    pub candidates: usize,
    /// Fuse the retrievers' lists by weighted reciprocal rank; off keeps only the list of
    /// the heaviest retriever.
    pub fuse: bool,
    /// The constant of reciprocal rank fusion.
    pub rrf_k: f64,
    /// Ask the nearest labelled example questions for a second opinion on the intent.
    pub prototypes: bool,
    /// Add graph neighbours of the best candidates.
    pub expand: bool,
    /// How many of the best candidates are expanded.
    pub expand_top: usize,
    /// Neighbours added per expanded candidate.
    pub expand_neighbours: usize,
    /// A neighbour's score is its candidate's times this.
    pub expand_decay: f64,
    /// A definition with more call edges than this is a hub and is not expanded unless
    /// the question names it.
    pub hub_edges: usize,
    /// Check the evidence and compute the confidence; off trusts the first retrieval.
    pub verify: bool,
    /// Retry with another strategy when the evidence is weak.
    pub refine: bool,
    /// Extra attempts refine may make.
    pub max_refine: usize,
    /// Below this confidence the evidence is weak and refine tries again.
    pub refine_below: f64,
    /// Below this confidence llmc abstains (exit code 1) instead of answering.
    pub abstain_below: f64,
    /// Keep answers under `.llmc/cache/` until a file they cite changes.
    pub cache: bool,
}

impl Default for AskConfig {
    fn default() -> Self {
        AskConfig {
            k: 8,
            candidates: 30,
            fuse: true,
            rrf_k: 60.0,
            prototypes: true,
            expand: true,
            expand_top: 5,
            expand_neighbours: 3,
            expand_decay: 0.5,
            hub_edges: 50,
            verify: true,
            refine: true,
            max_refine: 2,
            refine_below: 0.6,
            abstain_below: 0.3,
            cache: true,
        }
    }
}

/// `[index]`: what is indexed and how.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct IndexConfig {
    /// Files larger than this many bytes are skipped.
    pub max_file_size: u64,
    /// Index files that look like secrets (`.env*`, keys, certificates, credentials).
    pub include_secrets: bool,
    /// Index hidden files and directories (names starting with `.`).
    pub include_hidden: bool,
    /// Index a build's output: source maps, minified files, files that end with a
    /// `sourceMappingURL` comment (bundles, compiled JavaScript). The history never reads
    /// their definitions.
    pub include_generated: bool,
    /// Worker threads for walking and parsing; 0 means one per core.
    pub threads: usize,
    /// Lines per window of unstructured text, long sections and loose code.
    pub window_lines: usize,
    /// A definition longer than this that holds other definitions keeps only its head in
    /// its own chunk.
    pub max_chunk_lines: usize,
    /// Build the code graph (call sites and imports, resolved across files).
    pub graph: bool,
    /// Read the git history (commits, files and definitions they changed).
    pub history: bool,
    /// Build the lexical (BM25) index of the chunks.
    pub lexical: bool,
    /// Embed every chunk for semantic search.
    pub semantic: bool,
}

impl Default for IndexConfig {
    fn default() -> Self {
        IndexConfig {
            max_file_size: 1024 * 1024,
            include_secrets: false,
            include_hidden: false,
            include_generated: false,
            threads: 0,
            window_lines: 60,
            max_chunk_lines: 150,
            graph: true,
            history: true,
            lexical: true,
            semantic: true,
        }
    }
}

/// `[graph]`: compiler-precise edges from SCIP indexes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GraphConfig {
    /// SCIP index files to read (paths from the root), beside an `index.scip` at the root.
    pub scip: Vec<String>,
    /// `auto`: run the SCIP indexers found on PATH during `llmc index`.
    pub precise: PreciseMode,
    /// Seconds each indexer may run.
    pub precise_timeout_secs: u64,
}

impl Default for GraphConfig {
    fn default() -> Self {
        GraphConfig {
            scip: Vec::new(),
            precise: PreciseMode::Off,
            precise_timeout_secs: 600,
        }
    }
}

/// `[route]`: which retrievers each intent of `ask` consults, with their fusion weights
/// (`"graph=1.0 lexical=0.3"`), and when an unsure classification widens the plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RouteConfig {
    pub callers: RouteEntry,
    pub callees: RouteEntry,
    pub definition: RouteEntry,
    pub imports: RouteEntry,
    pub history: RouteEntry,
    pub concept: RouteEntry,
    pub howto: RouteEntry,
    pub locate: RouteEntry,
    pub compare: RouteEntry,
    /// Below this classifier confidence, every retriever joins the plan.
    pub widen_below: f32,
    /// The weight of a retriever added by widening.
    pub widen_weight: f32,
}

impl Default for RouteConfig {
    fn default() -> Self {
        RouteConfig {
            callers: RouteEntry(vec![(Memory::Graph, 1.0), (Memory::Lexical, 0.3)]),
            callees: RouteEntry(vec![(Memory::Graph, 1.0), (Memory::Lexical, 0.3)]),
            definition: RouteEntry(vec![
                (Memory::Graph, 1.0),
                (Memory::Lexical, 0.6),
                (Memory::Semantic, 0.3),
            ]),
            imports: RouteEntry(vec![(Memory::Graph, 1.0), (Memory::Lexical, 0.3)]),
            history: RouteEntry(vec![(Memory::History, 1.0), (Memory::Lexical, 0.3)]),
            concept: RouteEntry(vec![
                (Memory::Semantic, 1.0),
                (Memory::Lexical, 0.8),
                // The graph only breaks ties for prose questions (llmc.toml.example).
                (Memory::Graph, 0.02),
            ]),
            howto: RouteEntry(vec![(Memory::Semantic, 1.0), (Memory::Lexical, 0.7)]),
            locate: RouteEntry(vec![
                (Memory::Lexical, 1.0),
                (Memory::Semantic, 1.0),
                (Memory::Graph, 0.02),
            ]),
            compare: RouteEntry(vec![
                (Memory::Graph, 1.0),
                (Memory::Lexical, 0.8),
                (Memory::Semantic, 0.6),
            ]),
            widen_below: 0.5,
            widen_weight: 0.5,
        }
    }
}

impl RouteConfig {
    /// The table entry for an intent.
    pub fn entry(&self, intent: Intent) -> &RouteEntry {
        match intent {
            Intent::Callers => &self.callers,
            Intent::Callees => &self.callees,
            Intent::Definition => &self.definition,
            Intent::Imports => &self.imports,
            Intent::History => &self.history,
            Intent::Concept => &self.concept,
            Intent::Howto => &self.howto,
            Intent::Locate => &self.locate,
            Intent::Compare => &self.compare,
        }
    }
}

impl IndexConfig {
    /// The memories this configuration asks `llmc index` to build.
    pub fn memories(&self) -> MemorySet {
        MemorySet {
            graph: self.graph,
            history: self.history,
            lexical: self.lexical,
            semantic: self.semantic,
        }
    }

    /// The number of worker threads to use.
    pub fn worker_threads(&self) -> usize {
        if self.threads > 0 {
            self.threads
        } else {
            std::thread::available_parallelism().map_or(2, |n| n.get())
        }
    }
}

/// `[search]`: raw retrieval (`llmc search`) and the lexical and vector indexes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SearchConfig {
    /// The mode when `--mode` is not given: `lexical`, `semantic` or `hybrid`.
    pub mode: SearchMode,
    /// Hits to show when `--k` is not given.
    pub k: usize,
    /// How hybrid search fuses its lists: by their scaled scores or by their ranks.
    pub fusion: Fusion,
    /// The constant of reciprocal rank fusion (`fusion = "ranks"`): a hit at rank r
    /// scores weight / (rrf_k + r).
    pub rrf_k: f64,
    /// The weight of the lexical (BM25) list in hybrid fusion.
    pub lexical_weight: f64,
    /// The weight of the semantic (embedding) list in hybrid fusion.
    pub semantic_weight: f64,
    /// Candidates each route contributes to fusion (at least `k`).
    pub candidates: usize,
    /// Vectors added or changed since the last compaction that are searched exactly beside
    /// the main vector set; past this many, the next index run folds them in.
    pub delta_max: usize,
    /// From this many vectors on, an HNSW graph is built over the main vector set and
    /// searched instead of scanning it; 0 (the default) never builds one.
    pub hnsw_min_vectors: usize,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            mode: SearchMode::Hybrid,
            k: 10,
            fusion: Fusion::Scores,
            rrf_k: 60.0,
            lexical_weight: 2.0,
            semantic_weight: 1.0,
            candidates: 100,
            delta_max: 2000,
            hnsw_min_vectors: 0,
        }
    }
}

/// `[embed]`: which embedder makes the vectors of the semantic index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EmbedConfig {
    /// `builtin` (hashed features, no network, no download) or `ollama`.
    pub provider: EmbedProvider,
    /// Dimensions of the built-in embedder.
    pub dim: usize,
    /// The Ollama server (only for `provider = "ollama"`).
    pub ollama_url: String,
    /// The Ollama embedding model.
    pub ollama_model: String,
    /// Texts per Ollama request.
    pub batch_size: usize,
    /// Seconds before an Ollama request is given up.
    pub timeout_secs: u64,
    /// Allow an Ollama server on another machine (code would leave this one).
    pub allow_remote: bool,
}

impl Default for EmbedConfig {
    fn default() -> Self {
        EmbedConfig {
            provider: EmbedProvider::Builtin,
            dim: 1024,
            ollama_url: "http://127.0.0.1:11434".into(),
            ollama_model: "nomic-embed-text".into(),
            batch_size: 32,
            timeout_secs: 60,
            allow_remote: false,
        }
    }
}

/// `[llm]`: the optional local language model behind `llmc ask` (synthesis with
/// citations, the fallback classifier). Off unless `provider = "ollama"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LlmConfig {
    /// `none` (no language model) or `ollama`.
    pub provider: LlmProvider,
    /// The Ollama server.
    pub ollama_url: String,
    /// The chat model.
    pub model: String,
    /// Seconds before one LLM call is given up.
    pub timeout_secs: u64,
    /// LLM calls allowed per question.
    pub budget: u32,
    /// Allow an Ollama server on another machine (code would leave this one).
    pub allow_remote: bool,
    /// Characters of each source's text put in a prompt; longer text is cut.
    pub max_source_chars: usize,
}

impl Default for LlmConfig {
    fn default() -> Self {
        LlmConfig {
            provider: LlmProvider::None,
            ollama_url: "http://127.0.0.1:11434".into(),
            model: "qwen2.5-coder:1.5b".into(),
            timeout_secs: 20,
            budget: 8,
            allow_remote: false,
            max_source_chars: 1500,
        }
    }
}

/// Threads per core `index.threads` may ask for: more only queue on the cores and cost
/// a stack each (100,000 threads took a 2-core machine to a load of 2,300).
pub const MAX_THREADS_PER_CORE: usize = 8;

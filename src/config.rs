//! Configuration: compiled-in defaults < `llmc.toml` at the root < `LLMC_*` environment
//! variables < `--config KEY=VALUE` flags. Every key is documented in
//! `llmc.toml.example`; an unknown key is an error that names it and where it came from.

use std::path::Path;

use anyhow::Result;
use serde::{Deserialize, Serialize};
use toml::{Table, Value};

use crate::error::LlmcError;

/// The configuration file's name at the repository root.
pub const CONFIG_FILE: &str = "llmc.toml";

/// The documented example, which is also the source of truth for the defaults.
pub const EXAMPLE: &str = include_str!("../llmc.toml.example");

/// All of llmc's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
#[derive(Default)]
pub struct Config {
    pub index: IndexConfig,
    pub search: SearchConfig,
    pub embed: EmbedConfig,
    pub route: RouteConfig,
    pub ask: AskConfig,
    pub llm: LlmConfig,
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
            abstain_below: 0.35,
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

/// `[route]`: which retrievers each intent of `ask` consults, with their fusion weights
/// (`"graph=1.0 lexical=0.3"`), and when an unsure classification widens the plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RouteConfig {
    pub callers: String,
    pub callees: String,
    pub definition: String,
    pub imports: String,
    pub history: String,
    pub concept: String,
    pub howto: String,
    pub locate: String,
    pub compare: String,
    /// Below this classifier confidence, every retriever joins the plan.
    pub widen_below: f32,
    /// The weight of a retriever added by widening.
    pub widen_weight: f32,
}

impl Default for RouteConfig {
    fn default() -> Self {
        RouteConfig {
            callers: "graph=1.0 lexical=0.3".into(),
            callees: "graph=1.0 lexical=0.3".into(),
            definition: "graph=1.0 lexical=0.6 semantic=0.3".into(),
            imports: "graph=1.0 lexical=0.3".into(),
            history: "history=1.0 lexical=0.3".into(),
            concept: "semantic=1.0 lexical=0.8 graph=0.2".into(),
            howto: "semantic=1.0 lexical=0.7".into(),
            locate: "lexical=1.0 semantic=1.0 graph=0.2".into(),
            compare: "graph=1.0 lexical=0.8 semantic=0.6".into(),
            widen_below: 0.5,
            widen_weight: 0.5,
        }
    }
}

impl RouteConfig {
    /// The table entry for an intent.
    pub fn entry(&self, intent: crate::ask::classify::Intent) -> &str {
        use crate::ask::classify::Intent;
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
    pub fn memories(&self) -> crate::model::MemorySet {
        crate::model::MemorySet {
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
    pub mode: String,
    /// Hits to show when `--k` is not given.
    pub k: usize,
    /// The constant of reciprocal rank fusion: a hit at rank r scores weight / (rrf_k + r).
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
            mode: "hybrid".into(),
            k: 10,
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
    pub provider: String,
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
            provider: "builtin".into(),
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
    pub provider: String,
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
            provider: "none".into(),
            ollama_url: "http://127.0.0.1:11434".into(),
            model: "qwen2.5-coder:1.5b".into(),
            timeout_secs: 20,
            budget: 8,
            allow_remote: false,
            max_source_chars: 1500,
        }
    }
}

/// The values of `llm.provider`.
pub const LLM_PROVIDERS: &[&str] = &["none", "ollama"];

/// Threads per core `index.threads` may ask for: more only queue on the cores and cost
/// a stack each (100,000 threads took a 2-core machine to a load of 2,300).
pub const MAX_THREADS_PER_CORE: usize = 8;

impl Config {
    /// Checks values whose type is right but whose value is not one llmc knows, or is
    /// outside the range llmc can work with (every number has one: a `k` of 2^60 would
    /// ask tantivy for that many slots).
    fn validate(&self) -> Result<(), LlmcError> {
        if !LLM_PROVIDERS.contains(&self.llm.provider.as_str()) {
            return Err(LlmcError::Config(format!(
                "`llm.provider` is `{}`; expected `none` or `ollama`",
                self.llm.provider
            )));
        }
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let max_threads = MAX_THREADS_PER_CORE * cores;
        let (i, s, e, a, l, r) = (
            &self.index,
            &self.search,
            &self.embed,
            &self.ask,
            &self.llm,
            &self.route,
        );
        let counts: [(&str, u64, u64, u64); 20] = [
            ("index.threads", i.threads as u64, 0, max_threads as u64),
            ("index.max_file_size", i.max_file_size, 0, MAX_FILE_SIZE),
            ("index.window_lines", i.window_lines as u64, 1, 100_000),
            (
                "index.max_chunk_lines",
                i.max_chunk_lines as u64,
                1,
                1_000_000,
            ),
            ("search.k", s.k as u64, 1, MAX_K),
            ("search.candidates", s.candidates as u64, 1, MAX_CANDIDATES),
            ("search.delta_max", s.delta_max as u64, 0, 100_000_000),
            (
                "search.hnsw_min_vectors",
                s.hnsw_min_vectors as u64,
                0,
                1 << 32,
            ),
            ("embed.dim", e.dim as u64, 1, 16_384),
            ("embed.batch_size", e.batch_size as u64, 1, 4_096),
            ("embed.timeout_secs", e.timeout_secs, 1, 86_400),
            ("ask.k", a.k as u64, 1, MAX_K),
            ("ask.candidates", a.candidates as u64, 1, MAX_CANDIDATES),
            ("ask.expand_top", a.expand_top as u64, 0, 1_000),
            (
                "ask.expand_neighbours",
                a.expand_neighbours as u64,
                0,
                1_000,
            ),
            ("ask.hub_edges", a.hub_edges as u64, 0, 100_000_000),
            ("ask.max_refine", a.max_refine as u64, 0, 10),
            ("llm.timeout_secs", l.timeout_secs, 1, 86_400),
            ("llm.budget", u64::from(l.budget), 0, 100),
            (
                "llm.max_source_chars",
                l.max_source_chars as u64,
                1,
                10_000_000,
            ),
        ];
        for (key, value, min, max) in counts {
            if value < min || value > max {
                let why = if key == "index.threads" {
                    format!(
                        " ({MAX_THREADS_PER_CORE} per core on this machine's {cores}; 0 means \
                         one per core)"
                    )
                } else {
                    String::new()
                };
                return Err(LlmcError::Config(format!(
                    "`{key}` is {value}; it must be between {min} and {max}{why}"
                )));
            }
        }
        let numbers: [(&str, f64, f64, f64); 9] = [
            ("search.rrf_k", s.rrf_k, 0.0, 1e6),
            ("search.lexical_weight", s.lexical_weight, 0.0, 1e6),
            ("search.semantic_weight", s.semantic_weight, 0.0, 1e6),
            ("ask.rrf_k", a.rrf_k, 0.0, 1e6),
            ("ask.expand_decay", a.expand_decay, 0.0, 1.0),
            ("ask.refine_below", a.refine_below, 0.0, 1.0),
            ("ask.abstain_below", a.abstain_below, 0.0, 1.0),
            ("route.widen_below", f64::from(r.widen_below), 0.0, 1.0),
            ("route.widen_weight", f64::from(r.widen_weight), 0.0, 1e6),
        ];
        for (key, value, min, max) in numbers {
            if !value.is_finite() || value < min || value > max {
                return Err(LlmcError::Config(format!(
                    "`{key}` is {value}; it must be a number between {min} and {max}"
                )));
            }
        }
        Ok(())
    }
}

/// The most results `search.k`, `ask.k` and `--k` may ask for.
pub const MAX_K: u64 = 10_000;
/// The most candidates a route may contribute before fusion.
pub const MAX_CANDIDATES: u64 = 100_000;
/// The largest `index.max_file_size`: a file is read whole into memory.
pub const MAX_FILE_SIZE: u64 = 1 << 30;

/// Loads the configuration for `root` with the given environment and `--config` flags.
pub fn load(
    root: &Path,
    env: impl IntoIterator<Item = (String, String)>,
    flags: &[String],
) -> Result<Config> {
    Ok(load_with_sources(root, env, flags)?.0)
}

/// [`load`], and where the settings came from, one line per layer that set something
/// (for `--verbose`).
pub fn load_with_sources(
    root: &Path,
    env: impl IntoIterator<Item = (String, String)>,
    flags: &[String],
) -> Result<(Config, Vec<String>)> {
    let path = root.join(CONFIG_FILE);
    let mut sources = Vec::new();
    let mut table = match std::fs::read_to_string(&path) {
        Ok(text) => text
            .parse::<Table>()
            .map_err(|e| LlmcError::Config(syntax_error(&path, &text, &e)))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            sources.push(format!("no {}: defaults", path.display()));
            Table::new()
        }
        Err(e) => {
            return Err(LlmcError::Config(format!("reading {}: {e}", path.display())).into());
        }
    };
    let known = known_keys();
    // Check the file's keys first, so the error names the file.
    let mut file_keys = Vec::new();
    for (section, value) in &table {
        let Some(inner) = value.as_table() else {
            let suffix = format!(".{section}");
            let hint = match known.iter().find(|k| k.ends_with(&suffix)) {
                Some(k) => format!(
                    "put it under [{}] (it is `{k}`)",
                    k.split('.').next().unwrap_or_default()
                ),
                None => {
                    "every key belongs to a section like [index]: see llmc.toml.example".to_string()
                }
            };
            return Err(LlmcError::Config(format!(
                "{}: `{section}` is outside any section: {hint}",
                path.display()
            ))
            .into());
        };
        for (key, value) in inner {
            let full = format!("{section}.{key}");
            if !known.contains(&full) {
                return Err(unknown_key(&full, &path.display().to_string(), &known).into());
            }
            check_type(&full, value, &path.display().to_string())?;
            file_keys.push(full);
        }
    }
    if path.is_file() {
        sources.push(format!("{} ({})", path.display(), listed(&file_keys)));
    }
    let mut env: Vec<(String, String)> = env
        .into_iter()
        .filter(|(k, _)| k.starts_with("LLMC_"))
        .collect();
    env.sort();
    for (var, raw) in env {
        let key =
            env_key(&var, &known).ok_or_else(|| unknown_key(&var, "the environment", &known))?;
        let value = parse_value(&raw);
        check_type(&key, &value, &var)?;
        sources.push(format!("environment {var} ({key})"));
        set(&mut table, &key, value);
    }
    for flag in flags {
        let (key, raw) = flag.split_once('=').ok_or_else(|| {
            LlmcError::Config(format!(
                "--config {flag}: expected KEY=VALUE, e.g. --config index.max_file_size=2000000"
            ))
        })?;
        let key = key.trim();
        if !known.iter().any(|k| k == key) {
            return Err(unknown_key(key, "--config", &known).into());
        }
        let value = parse_value(raw.trim());
        check_type(key, &value, "--config")?;
        sources.push(format!("--config {flag}"));
        set(&mut table, key, value);
    }
    let config: Config = Value::Table(table)
        .try_into()
        .map_err(|e: toml::de::Error| {
            LlmcError::Config(format!(
                "invalid configuration ({} and overrides): {}",
                path.display(),
                e.message().trim()
            ))
        })?;
    config.validate()?;
    Ok((config, sources))
}

fn listed(keys: &[String]) -> String {
    if keys.is_empty() {
        "sets no key".to_string()
    } else {
        keys.join(", ")
    }
}

/// `llmc.toml:3:7: expected ...`, from a TOML parse error and the text it came from.
fn syntax_error(path: &Path, text: &str, e: &toml::de::Error) -> String {
    let at = e
        .span()
        .map(|span| {
            let before = text.get(..span.start).unwrap_or(text);
            let line = before.matches('\n').count() + 1;
            let col = before
                .rfind('\n')
                .map_or(before.len(), |i| before.len() - i - 1)
                + 1;
            format!(":{line}:{col}")
        })
        .unwrap_or_default();
    format!(
        "{}{at}: not valid TOML: {} (fix the file; every key is shown in llmc.toml.example)",
        path.display(),
        e.message().trim()
    )
}

/// Every key as `section.key`, from the defaults.
pub fn known_keys() -> Vec<String> {
    let mut keys = Vec::new();
    if let Ok(Value::Table(t)) = Value::try_from(Config::default()) {
        for (section, v) in t {
            if let Value::Table(inner) = v {
                keys.extend(inner.keys().map(|k| format!("{section}.{k}")));
            }
        }
    }
    keys.sort();
    keys
}

/// Checks that `value` has the type of `key`'s default, naming the key and its source.
fn check_type(key: &str, value: &Value, source: &str) -> Result<(), LlmcError> {
    let default = Value::try_from(Config::default()).ok().and_then(|t| {
        let (section, k) = key.split_once('.')?;
        t.get(section)?.get(k).cloned()
    });
    let Some(default) = default else {
        return Ok(());
    };
    let ok = match (&default, value) {
        (Value::Integer(_), Value::Integer(n)) => *n >= 0,
        (Value::Float(_), Value::Integer(_)) => true,
        (a, b) => a.type_str() == b.type_str(),
    };
    if ok {
        Ok(())
    } else {
        let expected = match default {
            Value::Integer(_) => "a non-negative integer",
            Value::Boolean(_) => "true or false",
            Value::String(_) => "a string",
            Value::Float(_) => "a number",
            _ => "a list",
        };
        Err(LlmcError::Config(format!(
            "`{key}` in {source} must be {expected}, not {value}"
        )))
    }
}

/// `LLMC_INDEX_MAX_FILE_SIZE` → `index.max_file_size`.
fn env_key(var: &str, known: &[String]) -> Option<String> {
    let rest = var.strip_prefix("LLMC_")?.to_ascii_lowercase();
    known
        .iter()
        .find(|k| k.replacen('.', "_", 1) == rest)
        .cloned()
}

fn unknown_key(key: &str, source: &str, known: &[String]) -> LlmcError {
    // The environment names a variable, the rest a key; compare like with like.
    let as_key = key
        .strip_prefix("LLMC_")
        .map_or_else(|| key.to_string(), |rest| rest.to_ascii_lowercase());
    let nearest = known
        .iter()
        .map(|k| {
            let candidate = if key.starts_with("LLMC_") {
                k.replacen('.', "_", 1)
            } else {
                k.clone()
            };
            (edit_distance(&as_key, &candidate), k)
        })
        .min_by_key(|(d, _)| *d)
        .filter(|(d, _)| *d <= 3);
    let hint = match nearest {
        Some((_, k)) if key.starts_with("LLMC_") => format!(
            "did you mean `LLMC_{}`? ",
            k.replacen('.', "_", 1).to_ascii_uppercase()
        ),
        Some((_, k)) => format!("did you mean `{k}`? "),
        None => String::new(),
    };
    // The section's keys when the section is known, else the sections: never all of
    // them on one line.
    let section = as_key.split(['.', '_']).next().unwrap_or("");
    let in_section: Vec<&str> = known
        .iter()
        .filter(|k| k.split('.').next() == Some(section))
        .map(String::as_str)
        .collect();
    let listing = if in_section.is_empty() {
        let mut sections: Vec<&str> = known.iter().filter_map(|k| k.split('.').next()).collect();
        sections.dedup();
        format!("the sections are {}", sections.join(", "))
    } else {
        format!("[{section}] has {}", in_section.join(", "))
    };
    LlmcError::Config(format!(
        "unknown configuration key `{key}` in {source}: {hint}{listing}; every key is \
         documented in llmc.toml.example"
    ))
}

/// Levenshtein distance over chars, for "did you mean".
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

fn parse_value(raw: &str) -> Value {
    format!("v = {raw}")
        .parse::<Table>()
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| Value::String(raw.to_string()))
}

fn set(table: &mut Table, key: &str, value: Value) {
    let Some((section, k)) = key.split_once('.') else {
        return;
    };
    let entry = table
        .entry(section.to_string())
        .or_insert_with(|| Value::Table(Table::new()));
    if let Value::Table(t) = entry {
        t.insert(k.to_string(), value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_with(toml: &str, env: &[(&str, &str)], flags: &[&str]) -> Result<Config> {
        let dir = tempfile::tempdir()?;
        std::fs::write(dir.path().join(CONFIG_FILE), toml)?;
        load(
            dir.path(),
            env.iter().map(|(k, v)| (k.to_string(), v.to_string())),
            &flags.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        )
    }

    #[test]
    fn the_example_documents_every_key_with_its_default() -> Result<()> {
        let parsed: Table = EXAMPLE.parse()?;
        let from_example: Config = Value::Table(parsed.clone()).try_into()?;
        assert_eq!(from_example, Config::default());
        let mut example_keys: Vec<String> = parsed
            .iter()
            .flat_map(|(s, v)| {
                v.as_table()
                    .into_iter()
                    .flat_map(move |t| t.keys().map(move |k| format!("{s}.{k}")))
            })
            .collect();
        example_keys.sort();
        assert_eq!(example_keys, known_keys());
        Ok(())
    }

    #[test]
    fn layers_apply_in_order() -> Result<()> {
        let c = load_with(
            "[index]\nmax_file_size = 10\nthreads = 1\n",
            &[("LLMC_INDEX_THREADS", "3")],
            &[],
        )?;
        assert_eq!((c.index.max_file_size, c.index.threads), (10, 3));
        let c = load_with(
            "[index]\nthreads = 1\n",
            &[("LLMC_INDEX_THREADS", "3")],
            &["index.threads=4"],
        )?;
        assert_eq!(c.index.threads, 4);
        Ok(())
    }

    #[test]
    fn an_integer_is_a_number() -> Result<()> {
        let c = load_with("[route]\nwiden_weight = 1\n", &[], &["route.widen_below=0"])?;
        assert_eq!((c.route.widen_weight, c.route.widen_below), (1.0, 0.0));
        Ok(())
    }

    #[test]
    fn unknown_keys_are_named() {
        let err = load_with("[index]\nmax_filesize = 10\n", &[], &[]).expect_err("unknown key");
        assert!(err.to_string().contains("`index.max_filesize`"), "{err}");
        let err = load_with("", &[("LLMC_INDEX_NOPE", "1")], &[]).expect_err("unknown env");
        assert!(err.to_string().contains("`LLMC_INDEX_NOPE`"), "{err}");
        let err = load_with("", &[], &["nope.x=1"]).expect_err("unknown flag");
        assert!(err.to_string().contains("`nope.x`"), "{err}");
        let err = load_with("[index]\nthreads = \"many\"\n", &[], &[]).expect_err("bad type");
        assert!(err.to_string().contains("threads"), "{err}");
    }

    #[test]
    fn an_unknown_llm_provider_is_a_config_error_naming_the_key() -> Result<()> {
        let err = load_with("[llm]\nprovider = \"openai\"\n", &[], &[]).expect_err("bad");
        let msg = err.to_string();
        assert!(
            msg.contains("`llm.provider`") && msg.contains("openai"),
            "{msg}"
        );
        assert!(matches!(
            err.downcast_ref::<LlmcError>(),
            Some(LlmcError::Config(_))
        ));
        let c = load_with("", &[("LLMC_LLM_PROVIDER", "ollama")], &["llm.budget=2"])?;
        assert_eq!((c.llm.provider.as_str(), c.llm.budget), ("ollama", 2));
        Ok(())
    }

    #[test]
    fn a_near_miss_gets_a_suggestion() {
        let err = load_with("[index]\nmax_filesize = 10\n", &[], &[]).expect_err("unknown key");
        assert!(
            err.to_string()
                .contains("did you mean `index.max_file_size`?"),
            "{err}"
        );
        let err = load_with("", &[("LLMC_INDEX_THREAD", "1")], &[]).expect_err("unknown env");
        assert!(
            err.to_string()
                .contains("did you mean `LLMC_INDEX_THREADS`?"),
            "{err}"
        );
        let err = load_with("", &[], &["zzz.qqqqqqqq=1"]).expect_err("far off");
        assert!(!err.to_string().contains("did you mean"), "{err}");
    }

    #[test]
    fn a_syntax_error_names_file_line_and_column() {
        let err = load_with("[index]\nthreads = 1\nmax_file_size = = 3\n", &[], &[])
            .expect_err("bad toml");
        let msg = err.to_string();
        assert!(msg.contains("llmc.toml:3:"), "{msg}");
        assert!(msg.contains("not valid TOML"), "{msg}");
    }

    #[test]
    fn sources_say_which_layer_set_what() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let flags = ["index.threads=2".to_string()];
        let (_, sources) = load_with_sources(
            dir.path(),
            [("LLMC_SEARCH_K".to_string(), "3".to_string())],
            &flags,
        )?;
        assert!(sources[0].starts_with("no "), "{sources:?}");
        assert!(
            sources[1].contains("LLMC_SEARCH_K (search.k)"),
            "{sources:?}"
        );
        assert_eq!(sources[2], "--config index.threads=2");
        Ok(())
    }
}

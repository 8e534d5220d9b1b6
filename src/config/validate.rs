//! Checks of values whose type is right: choice keys name a known value, `[route]`
//! entries parse, and every number is within the range llmc can work with. Each error
//! names the key.

use toml::{Table, Value};

use super::sections::{EmbedProvider, LlmProvider, PreciseMode, SearchMode};
use super::{Config, MAX_THREADS_PER_CORE, RouteEntry};
use crate::error::LlmcError;

/// Checks the keys whose value is one of a few names, and the `[route]` entries, on the
/// merged table (defaults aside): an unknown name or a bad route is an error naming its
/// key, before deserialization could report it without one.
pub(super) fn check_values(table: &Table) -> Result<(), LlmcError> {
    let get = |section: &str, key: &str| table.get(section)?.get(key)?.as_str();
    /// A choice key: section, key, whether a name is known, the names for the message.
    type Choice = (&'static str, &'static str, fn(&str) -> bool, &'static str);
    let choices: [Choice; 4] = [
        (
            "graph",
            "precise",
            |s| PreciseMode::from_name(s).is_some(),
            PreciseMode::EXPECTED,
        ),
        (
            "search",
            "mode",
            |s| SearchMode::from_name(s).is_some(),
            SearchMode::EXPECTED,
        ),
        (
            "embed",
            "provider",
            |s| EmbedProvider::from_name(s).is_some(),
            EmbedProvider::EXPECTED,
        ),
        (
            "llm",
            "provider",
            |s| LlmProvider::from_name(s).is_some(),
            LlmProvider::EXPECTED,
        ),
    ];
    for (section, key, known, expected) in choices {
        if let Some(v) = get(section, key)
            && !known(v)
        {
            return Err(LlmcError::Config(format!(
                "`{section}.{key}` is `{v}`; expected {expected}"
            )));
        }
    }
    if let Some(Value::Table(route)) = table.get("route") {
        for (key, value) in route {
            if let Value::String(entry) = value
                && let Err(e) = RouteEntry::parse(entry)
            {
                return Err(LlmcError::Config(format!(
                    "`route.{key}` is \"{entry}\": {e}"
                )));
            }
        }
    }
    Ok(())
}

impl Config {
    /// Checks values whose type is right but whose value is not one llmc knows, or is
    /// outside the range llmc can work with (every number has one: a `k` of 2^60 would
    /// ask tantivy for that many slots).
    pub(super) fn validate(&self) -> Result<(), LlmcError> {
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
        let counts: [(&str, u64, u64, u64); 21] = [
            (
                "graph.precise_timeout_secs",
                self.graph.precise_timeout_secs,
                1,
                86_400,
            ),
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
        for path in &self.graph.scip {
            if path.is_empty() || path.contains('\0') {
                return Err(LlmcError::Config(format!(
                    "`graph.scip` lists {path:?}; expected paths of SCIP index files"
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

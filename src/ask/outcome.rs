//! What `llmc ask` returns: the JSON contract of `--json`, `llmc eval` and the answer
//! cache. Every name here is part of that contract: the typed values below serialize to
//! exactly the strings earlier versions wrote, and a rename is a breaking change.

use serde::{Deserialize, Serialize};

use super::classify::{Entity, Intent};
use crate::graph::{Def, Row, SetAside};
use crate::history::query::LogCommit;
use crate::model::Memory;
use crate::search::ChunkLoc;

/// An enum of fixed names: each variant's string is written once, and serde, `as_str`
/// and `Display` (which honours width and alignment, as the strings did) all use it.
macro_rules! named {
    ($(#[$m:meta])* pub enum $name:ident { $($(#[$vm:meta])* $v:ident = $s:literal,)* }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name {
            $($(#[$vm])* #[serde(rename = $s)] $v,)*
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &[$name] = &[$($name::$v,)*];

            /// The name written in JSON and the trace.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$v => $s,)*
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.pad(self.as_str())
            }
        }

        // Scripts and tests compare with the JSON strings.
        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }
    };
}

named! {
    /// Whether llmc answered.
    pub enum Status {
        Answered = "answered",
        Abstained = "abstained",
    }
}

named! {
    /// Why llmc did not answer.
    pub enum AbstainReason {
        /// Nothing in the repository matches.
        NoMatch = "no_match",
        /// Related code was found, but not what was asked.
        OffTarget = "off_target",
        /// A question for the code graph names something no definition has.
        NotDefined = "not_defined",
    }
}

named! {
    /// Where a candidate's evidence comes from: a memory's list, or graph expansion.
    pub enum Route {
        Graph = "graph",
        History = "history",
        Lexical = "lexical",
        Semantic = "semantic",
        /// Added as a graph neighbour of a better candidate.
        GraphExpand = "graph-expand",
    }
}

impl From<Memory> for Route {
    fn from(m: Memory) -> Route {
        match m {
            Memory::Graph => Route::Graph,
            Memory::History => Route::History,
            Memory::Lexical => Route::Lexical,
            Memory::Semantic => Route::Semantic,
        }
    }
}

named! {
    /// How a refine attempt changes the query, in the order they are tried.
    pub enum Strategy {
        SplitIdentifiers = "split-identifiers",
        RepositoryVocabulary = "repository-vocabulary",
        SwitchLexicalSemantic = "switch-lexical-semantic",
        WidenRoute = "widen-route",
    }
}

named! {
    /// A stage's name in the trace. A refine attempt's pass records its stages under
    /// `refine.` ([`Stage::in_refine`]).
    pub enum Stage {
        Cache = "cache",
        Classify = "classify",
        Route = "route",
        Retrieve = "retrieve",
        Fuse = "fuse",
        Expand = "expand",
        Verify = "verify",
        Refine = "refine",
        Answer = "answer",
        Total = "total",
        RefineRetrieve = "refine.retrieve",
        RefineFuse = "refine.fuse",
        RefineExpand = "refine.expand",
        RefineVerify = "refine.verify",
    }
}

impl Stage {
    /// The name of a pass stage when a refine attempt runs it.
    pub fn in_refine(self) -> Stage {
        match self {
            Stage::Retrieve => Stage::RefineRetrieve,
            Stage::Fuse => Stage::RefineFuse,
            Stage::Expand => Stage::RefineExpand,
            Stage::Verify => Stage::RefineVerify,
            other => other,
        }
    }
}

/// One question and its options.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AskRequest {
    pub question: String,
    /// Sources in the answer (default `ask.k`).
    pub k: Option<usize>,
    /// Skip the cache (neither read nor written).
    pub no_cache: bool,
    /// Skip the LLM even when one is configured.
    pub no_llm: bool,
    /// Which files the answer may cite.
    #[serde(default)]
    pub scope: Scope,
}

/// Which files an answer may cite (`--path`, `--lang`, `--no-tests`); the default is all.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scope {
    /// Only files whose path matches this glob.
    pub path: Option<String>,
    /// Only files of this language (as `llmc status` names them).
    pub lang: Option<String>,
    /// No tests, test fixtures or test data ([`crate::search::is_test_path`]).
    pub no_tests: bool,
}

impl Scope {
    /// Whether every file is in scope.
    pub fn is_all(&self) -> bool {
        *self == Scope::default()
    }
}

/// One stage's entry in the trace.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StageTrace {
    pub stage: Stage,
    pub decision: String,
    pub reasons: Vec<String>,
    pub ms: f64,
}

/// A route's evidence for a candidate.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Evidence {
    pub route: Route,
    /// 1-based rank in that route's list.
    pub rank: usize,
    pub score: f32,
}

/// A line of a source that matters to the question.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Line {
    pub line: u32,
    pub text: String,
}

/// A chunk that may answer the question.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Candidate {
    #[serde(flatten)]
    pub loc: ChunkLoc,
    /// The fused score.
    pub score: f64,
    pub evidence: Vec<Evidence>,
    /// Added by graph expansion as a neighbour of this symbol.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expanded_from: Option<String>,
    /// The lines that matter (filled for the sources of the answer).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<Line>,
}

/// The confidence and its parts.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Confidence {
    /// The estimated probability that the first source (or commit) is right: a logistic
    /// function of the signals below, fitted on real repositories (`ask::calibration`).
    pub score: f64,
    /// High ≥ 0.90, Medium ≥ 0.70, else Low.
    pub label: String,
    pub retrieval: f64,
    pub coverage: f64,
    pub grounding: f64,
    /// (best − second) ÷ best of the fused scores.
    pub margin: f64,
    /// The share of the question's words that no chunk of the repository holds.
    #[serde(default)]
    pub unknown: f64,
    /// 1 when more than one retriever found the first source.
    #[serde(default)]
    pub agree: f64,
    /// 1 when the answer is read from commits (a history question with commits).
    #[serde(default)]
    pub history: f64,
    /// 1 when the answer is read from the graph (a structural question with a fact).
    #[serde(default)]
    pub graph: f64,
    /// When a word of the question is in no chunk: how much that says, by the size of
    /// the repository (1 from a few thousand chunks up); else 0.
    #[serde(default)]
    pub absent: f64,
    /// 1 when the first source holds the question's sentence as written.
    #[serde(default)]
    pub verbatim: f64,
}

/// Why llmc did not answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Abstention {
    /// `no_match`: nothing in the repository matches; `off_target`: related code was
    /// found, but not what was asked; `not_defined`: a question for the code graph
    /// (callers, callees, a definition) names something no definition has.
    pub reason: AbstainReason,
    pub message: String,
    /// The nearest misses.
    pub nearest: Vec<Candidate>,
    /// Identifiers of this repository worth asking about instead.
    pub try_identifiers: Vec<String>,
}

/// One refine attempt.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Attempt {
    pub strategy: Strategy,
    pub query: String,
    pub targets: Vec<String>,
    pub plan: Vec<String>,
    /// Candidates the attempt found that the previous best did not.
    pub new_candidates: usize,
    pub confidence_before: f64,
    pub confidence_after: f64,
    pub kept: bool,
}

/// The answer text, read from the memories (and, when configured, synthesized).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AnswerText {
    /// `graph`, `history`, `sources`, or several joined by `+`.
    pub kind: String,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub synthesis: Option<Synthesized>,
}

/// An LLM's answer over the sources, with its grounding check.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Synthesized {
    pub model: String,
    pub text: String,
    /// Source numbers (1-based) it cites.
    pub cited: Vec<usize>,
    pub grounded: bool,
    pub problems: Vec<String>,
    pub calls: u32,
}

/// Index freshness, filled by the caller that refreshed (or did not refresh) it.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Freshness {
    pub generation: u64,
    /// When the index was last written: RFC 3339, UTC (`2026-11-26T01:39:34Z`).
    pub indexed_at: Option<String>,
    /// The same instant in seconds since the Unix epoch.
    #[serde(default)]
    pub indexed_at_unix: Option<i64>,
    /// Files re-indexed before answering.
    pub refreshed_files: u64,
    /// There was no index: it was built for this question.
    #[serde(default)]
    pub built: bool,
    /// Files changed on disk since the index and not re-indexed (`--no-refresh`).
    pub stale: bool,
}

impl Freshness {
    /// The freshness of an index last written `at`, nothing else said.
    pub fn written_at(at: Option<jiff::Timestamp>) -> Freshness {
        Freshness {
            indexed_at: at.map(|t| t.to_string()),
            indexed_at_unix: at.map(|t| t.as_second()),
            ..Freshness::default()
        }
    }
}

/// Everything `llmc ask` found out.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Outcome {
    pub question: String,
    /// How the question's words were read ("read `David Lord` as an author"), shown
    /// before the answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub readings: Vec<String>,
    pub status: Status,
    pub intents: Vec<Intent>,
    pub entities: Vec<Entity>,
    pub answer: Option<AnswerText>,
    pub sources: Vec<Candidate>,
    pub graph: Vec<GraphFact>,
    pub history: Vec<HistoryFact>,
    pub confidence: Confidence,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub abstention: Option<Abstention>,
    pub refine: Vec<Attempt>,
    pub warnings: Vec<String>,
    pub freshness: Freshness,
    pub cached: bool,
    pub trace: Vec<StageTrace>,
}

/// What the graph says about one named target for one intent.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GraphFact {
    pub intent: Intent,
    /// The name as the question wrote it (or as refine corrected it).
    pub target: String,
    /// The definitions it names.
    pub definitions: Vec<Def>,
    /// Call sites (callers, callees) or import lines: the first ones, when there are more
    /// than an answer lists.
    pub rows: Vec<Row>,
    /// How many rows there are in all (more than `rows` holds when the list was cut).
    #[serde(default)]
    pub total: usize,
    /// For callers: the call sites not listed because nothing proves they mean the target
    /// (matched by name only, or an unknown receiver), so "no callers" can be told from
    /// "none proven".
    #[serde(default)]
    pub set_aside: SetAside,
    /// For callers: uses that are not calls (decorators, values passed on).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<Row>,
    /// For callers of an implementing method: the calls of the trait or interface method it
    /// implements (dispatch may reach it or another implementation).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub through_trait: Vec<Row>,
    /// For callees of a definition that makes no call itself: the calls of the functions
    /// defined in it (a closure it returns or registers), each row's `target` naming the
    /// nested function.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nested: Vec<Row>,
    /// For imports: the rows are the lines that import the target (who imports it), not
    /// the lines the target imports.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub importers: bool,
}

/// What the history says about one target.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HistoryFact {
    /// The target as the question named it; `*` for the whole repository.
    pub target: String,
    /// Only commits by this author (a name the question gives).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// The date window, as dates (YYYY-MM-DD).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
    /// Oldest first: the question asks when the target was introduced.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub oldest_first: bool,
    /// Commits that match, of which `commits` holds the first ones.
    #[serde(default)]
    pub total: usize,
    pub commits: Vec<LogCommit>,
    /// For a "why" question that names nothing: the question's words the commits'
    /// messages hold (two or more each), best match first; the target is then `*`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub message_words: Vec<String>,
    /// When it was introduced: the one word beside the target that its first commit binds
    /// as a name in it (a parameter, a field, a method; the commit's message may not say
    /// so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub added_name: Option<String>,
    /// The target is no definition or file the history knows: these are the commits
    /// whose changes add or remove it as text (`git log -S`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pickaxe: bool,
    /// While the history is read in part (newest first): how far back it reaches. An
    /// introduction read from it is then only the oldest commit read so far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial: Option<String>,
}

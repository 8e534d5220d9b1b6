//! The command line: clap types only. `app` turns them into work.

use std::path::PathBuf;

use clap::builder::RangedU64ValueParser;
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::model::Resolution;

/// A count from 1 to `max` (`-k`, `--limit`): 0 and absurd sizes are usage errors.
fn count<T>(max: u64) -> RangedU64ValueParser<T>
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
{
    RangedU64ValueParser::<T>::new().range(1..=max)
}

/// The most results `-k` may ask for (the same bound as `search.k` and `ask.k`).
const MAX_K: u64 = crate::config::MAX_K;

/// `--max-tokens`: from [`crate::budget::MIN_TOKENS`] up.
fn tokens() -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::<usize>::new().range(crate::budget::MIN_TOKENS as u64..=100_000_000)
}

/// Ask questions about a git repository: exact sources, a confidence and a trace.
#[derive(Debug, Parser)]
#[command(name = "llmc", version, about, long_about = None)]
pub struct Cli {
    /// Run as if llmc was started in DIR
    #[arg(short = 'C', long = "dir", global = true, value_name = "DIR")]
    pub dir: Option<PathBuf>,

    /// Set a configuration key for this run, e.g. --config index.max_file_size=2000000
    #[arg(long = "config", global = true, value_name = "KEY=VALUE")]
    pub config: Vec<String>,

    /// Print nothing on stderr but errors
    #[arg(short, long, global = true)]
    pub quiet: bool,

    /// Print more on stderr: where the root and the configuration came from, timings
    #[arg(short, long, global = true, conflicts_with = "quiet")]
    pub verbose: bool,

    /// Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never
    #[arg(
        long,
        global = true,
        value_name = "WHEN",
        value_enum,
        default_value_t = ColorChoice::Auto
    )]
    pub color: ColorChoice,

    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Ask a question about the repository: an answer with sources, a confidence and a
    /// trace (indexes first when needed)
    Ask(AskArgs),
    /// Index the repository (incrementally: only new and changed files are parsed)
    Index(IndexArgs),
    /// Show what the index holds and what changed since
    Status(StatusArgs),
    /// Ask the code graph: callers, callees, definitions, imports, importers
    Graph(GraphArgs),
    /// The commits that changed a definition, a file or a directory, newest first
    Log(LogArgs),
    /// Raw retrieval: the chunks that best match QUERY, by BM25, embeddings or both
    Search(SearchArgs),
    /// Run a labelled set of questions (JSONL) through `ask` and score the answers
    Eval(EvalArgs),
    /// Print the documented example configuration, or the configuration in effect here
    Config(ConfigArgs),
    /// Print a shell completion script on stdout (see the README for where to put it)
    Completions(CompletionsArgs),
    /// Print the man page (roff) on stdout, e.g. `llmc man | man -l -`
    Man,
    /// Serve the repository to coding agents over MCP on stdin/stdout (tools: ask, callers,
    /// callees, definition, imports, importers, history, search, status)
    Mcp(McpArgs),
}

/// `llmc mcp`.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// With no index yet, wait this long for the first one before answering that indexing
    /// started (the index goes on being built)
    #[arg(long, default_value_t = 20, value_name = "SECONDS")]
    pub index_wait: u64,
}

/// `llmc config`.
#[derive(Debug, Args)]
pub struct ConfigArgs {
    #[command(subcommand)]
    pub command: ConfigCommand,
}

/// What `llmc config` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Subcommand)]
pub enum ConfigCommand {
    /// Print the example configuration: every key with its default and what it does
    /// (`llmc config example > llmc.toml`, then edit); needs no repository
    Example,
    /// Print the configuration in effect here as TOML: every key with its value after
    /// llmc.toml, LLMC_* variables and --config, below comments saying which set what
    Show,
}

/// When to colour human output (`--color`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless the NO_COLOR environment variable is set and not empty
    Auto,
    /// Always, even into a pipe (never in JSON)
    Always,
    /// Never
    Never,
}

/// `llmc completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// What `llmc graph` asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GraphRelation {
    /// Call sites of the target, each with its enclosing definition
    Callers,
    /// What the target calls
    Callees,
    /// The definitions the target names
    Defs,
    /// What a file imports (TARGET is a path)
    Imports,
    /// The files that import a file (TARGET is a path), a module, a package, or a name a
    /// file defines (the import lines that name it)
    Importers,
}

/// `llmc graph`.
#[derive(Debug, Args)]
pub struct GraphArgs {
    /// The question
    pub relation: GraphRelation,

    /// `name`, `Type.method`, `Type::method`, `path:name`, or a path for imports/importers
    pub target: String,

    /// Follow edges transitively up to N levels (cycles are cut)
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = count::<u32>(64))]
    pub depth: u32,

    /// Keep only edges resolved at least this strongly (exact > import > scope > name-only)
    #[arg(long, value_name = "LEVEL", value_enum)]
    pub resolution: Option<Resolution>,

    /// Print at most N rows (a longer answer is summarized by file first)
    #[arg(long, default_value_t = 50, value_name = "N", value_parser = count::<usize>(1_000_000))]
    pub limit: usize,

    /// Skip the first N rows (to page through a long answer); with --max-tokens, the first
    /// N items of the answer's lists
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub offset: usize,

    /// Fit the output in about N tokens (bytes / 4): the rows that fit, then what was left
    /// out and the command that prints the next page
    #[arg(long, value_name = "N", value_parser = tokens())]
    pub max_tokens: Option<usize>,

    /// Print as JSON on stdout
    #[arg(long)]
    pub json: bool,
}

/// `llmc ask`.
#[derive(Debug, Args)]
pub struct AskArgs {
    /// The question, e.g. "who calls parse_config?" (several words are joined)
    #[arg(required = true, num_args = 1.., value_name = "QUESTION")]
    pub question: Vec<String>,

    /// Print one JSON document on stdout (documented in the README)
    #[arg(long)]
    pub json: bool,

    /// Show every stage's decision, reasons and milliseconds
    #[arg(long)]
    pub trace: bool,

    /// Show this many sources (default from `ask.k`)
    #[arg(long, short = 'k', value_name = "N", value_parser = count::<usize>(MAX_K))]
    pub k: Option<usize>,

    /// Answer from the index as it is, even if files changed since it was built
    #[arg(long)]
    pub no_refresh: bool,

    /// Neither read nor write the answer cache
    #[arg(long)]
    pub no_cache: bool,

    /// Do not call the configured LLM: the programmatic answer only
    #[arg(long)]
    pub no_llm: bool,

    /// Cite only files whose path matches this glob (e.g. 'src/**/*.rs')
    #[arg(long, value_name = "GLOB")]
    pub path: Option<String>,

    /// Cite only files of this language (as `llmc status` names them)
    #[arg(long, value_name = "L")]
    pub lang: Option<String>,

    /// Cite no tests, test fixtures or test data
    #[arg(long)]
    pub no_tests: bool,

    /// Fit the output in about N tokens (bytes / 4): the answer, then the lines, rows and
    /// sources that fit, then what was left out and the command that prints the next page
    #[arg(long, value_name = "N", value_parser = tokens())]
    pub max_tokens: Option<usize>,

    /// With --max-tokens: skip the first N items (the next page's start, as printed)
    #[arg(long, default_value_t = 0, value_name = "N", requires = "max_tokens")]
    pub offset: usize,
}

/// `llmc index`.
#[derive(Debug, Args)]
pub struct IndexArgs {
    /// Start over from an empty index (also repairs a corrupt or outdated one)
    #[arg(long)]
    pub rebuild: bool,

    /// Only read the git history not read yet, to its end, in the foreground (what
    /// `llmc index` and `llmc ask` otherwise leave to a background run)
    #[arg(long, conflicts_with = "rebuild")]
    pub history_only: bool,
    /// Run the SCIP indexers found on PATH (scip-typescript, scip-python, rust-analyzer,
    /// scip-go) for compiler-precise call edges; their indexes go under .llmc/scip/
    #[arg(long)]
    pub precise: bool,

    /// Print the run's statistics as JSON on stdout
    #[arg(long)]
    pub json: bool,
}

/// `llmc status`.
#[derive(Debug, Args)]
pub struct StatusArgs {
    /// Print as JSON on stdout
    #[arg(long)]
    pub json: bool,

    /// List at most this many changed files (all with --json)
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub max_changed: usize,
}

/// `llmc log`.
#[derive(Debug, Args)]
pub struct LogArgs {
    /// A definition (`parse`, `Stack::push`, `src/a.rs:parse`), a file or a directory;
    /// without one, every commit
    #[arg(value_name = "TARGET")]
    pub target: Option<String>,

    /// Only commits authored at or after DATE (2024-03-01, yesterday, "3 months ago")
    #[arg(long, value_name = "DATE")]
    pub since: Option<String>,

    /// Only commits authored at or before DATE
    #[arg(long, value_name = "DATE")]
    pub until: Option<String>,

    /// Only commits whose author name or email contains NAME (any case)
    #[arg(long, value_name = "NAME")]
    pub author: Option<String>,

    /// Only commits whose message contains TEXT (any case)
    #[arg(long, value_name = "TEXT")]
    pub grep: Option<String>,

    /// At most N commits
    #[arg(short = 'n', long, value_name = "N", value_parser = count::<usize>(1_000_000))]
    pub limit: Option<usize>,

    /// Oldest first: the commit that introduced a definition or file at the top
    #[arg(long)]
    pub reverse: bool,

    /// Skip the first N commits (a later page)
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub offset: usize,

    /// Fit the output in about N tokens (bytes / 4): the commits that fit, then how many
    /// were left out and the command that prints the next page
    #[arg(long, value_name = "N", value_parser = tokens())]
    pub max_tokens: Option<usize>,

    /// Print as JSON on stdout
    #[arg(long)]
    pub json: bool,
}

/// `llmc search`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// What to look for: identifiers, error strings, or a question in words
    #[arg(required = true, num_args = 1.., value_name = "QUERY")]
    pub query: Vec<String>,

    /// lexical (BM25 over code-aware tokens), semantic (embeddings) or hybrid (both, fused);
    /// default from `search.mode`
    #[arg(long, value_parser = ["lexical", "semantic", "hybrid"])]
    pub mode: Option<String>,

    /// Show this many hits (default from `search.k`)
    #[arg(long, short = 'k', value_name = "N", value_parser = count::<usize>(MAX_K))]
    pub k: Option<usize>,

    /// Only files of this language (e.g. rust, python, markdown)
    #[arg(long, value_name = "L")]
    pub lang: Option<String>,

    /// Only files whose path matches this glob (e.g. 'src/**/*.rs')
    #[arg(long, value_name = "GLOB")]
    pub path: Option<String>,

    /// No tests, test fixtures or test data (as `ask --no-tests`)
    #[arg(long)]
    pub no_tests: bool,

    /// Skip the first N hits (a later page of the -k best)
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub offset: usize,

    /// Fit the output in about N tokens (bytes / 4): the hits that fit, then how many were
    /// left out and the command that prints the next page
    #[arg(long, value_name = "N", value_parser = tokens())]
    pub max_tokens: Option<usize>,

    /// Print as JSON on stdout
    #[arg(long)]
    pub json: bool,
}

/// `llmc eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The labelled set: one JSON object per line (format in the README)
    #[arg(value_name = "FILE.jsonl")]
    pub file: PathBuf,

    /// Cut-off for Recall@k, MRR@k and nDCG@k (and the sources each answer lists)
    #[arg(long, short = 'k', default_value_t = 10, value_name = "N", value_parser = count::<usize>(MAX_K))]
    pub k: usize,

    /// Also ask every question through each retriever alone and through `llmc search
    /// --mode hybrid`, and print MRR@k of each beside ask's, per intent
    #[arg(long)]
    pub compare: bool,

    /// Print one JSON document on stdout: metrics overall, per intent and per question
    #[arg(long)]
    pub json: bool,
}

impl Command {
    /// Whether the output (and so any error) is JSON.
    pub fn json(&self) -> bool {
        match self {
            Command::Ask(a) => a.json,
            Command::Index(a) => a.json,
            Command::Status(a) => a.json,
            Command::Graph(a) => a.json,
            Command::Log(a) => a.json,
            Command::Search(a) => a.json,
            Command::Eval(a) => a.json,
            Command::Completions(_) | Command::Man | Command::Config(_) | Command::Mcp(_) => false,
        }
    }
}

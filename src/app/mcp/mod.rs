//! `llmc mcp`: the repository served to coding agents over the Model Context Protocol
//! (stdio, the official Rust SDK `rmcp`). One tool per question llmc answers; each takes
//! JSON arguments, answers with the same document as the command's `--json` (plus
//! `freshness`, `warnings` and the budget's `omitted` manifest), sized for `max_tokens`.
//!
//! The store and the search indexes stay open between calls ([`Session`]); before each
//! call the index is checked for changed files and brought up to date, as `llmc ask` does.
//! Calls run on tokio's blocking threads, so several may be in flight at once. Whatever
//! fails is a tool error (`isError`) whose message says what to do: a bad argument names
//! the argument and why, an unknown name lists the nearest names, a missing index starts
//! being built. Nothing but the protocol is written to stdout.

mod outputs;

use std::path::Path;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt as _};
use serde_json::{Map, Value, json};

use super::pages::{self, Next};
use super::{Ctx, ask as app_ask, graph as app_graph, log as app_log, search as app_search};
use crate::ask::fresh::{Fresh, Notice};
use crate::ask::session::Session;
use crate::ask::{AskRequest, Freshness, Scope};
use crate::budget::{self, JsonPages, Shape, Window};
use crate::cli::McpArgs;
use crate::error::{Exit, LlmcError};
use crate::graph::Relation;
use crate::history::query::Target;
use crate::model::Resolution;
use crate::progress::{NoProgress, Progress};
use crate::store::Store;

/// Serves MCP on stdin/stdout until the client closes the connection.
pub fn cmd_mcp(ctx: &Ctx, args: &McpArgs) -> Result<Exit> {
    let server = Server {
        shared: Arc::new(Shared::new(ctx, Duration::from_secs(args.index_wait))),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .context("starting the MCP server's runtime")?;
    runtime.block_on(async move {
        let running = server
            .serve((tokio::io::stdin(), tokio::io::stdout()))
            .await
            .context("starting the MCP session")?;
        running.waiting().await.context("serving MCP")?;
        Ok::<_, anyhow::Error>(())
    })?;
    Ok(Exit::Ok)
}

/// The MCP handler: every call goes to [`Shared::call`] on a blocking thread.
struct Server {
    shared: Arc<Shared>,
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("llmc", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.to_string();
        let Some(spec) = SPECS.iter().find(|s| s.name == name) else {
            let names: Vec<&str> = SPECS.iter().map(|s| s.name).collect();
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown tool `{name}`: llmc's tools are {}",
                    names.join(", ")
                ),
                None,
            ));
        };
        let args = request.arguments.unwrap_or_default();
        let shared = Arc::clone(&self.shared);
        let done = tokio::task::spawn_blocking(move || shared.call(spec, &args)).await;
        let result = match done {
            Ok(Ok(text)) => success(text),
            Ok(Err(e)) => e.into_result(),
            Err(e) => ToolError::new("internal", format!("the tool failed: {e}")).into_result(),
        };
        Ok(result.into())
    }
}

/// A page of JSON as the tool's result: the text measured for the budget, and the same
/// document as structured content.
fn success(text: String) -> CallToolResult {
    match serde_json::from_str::<Value>(&text) {
        Ok(value) => {
            let mut result = CallToolResult::structured(value);
            result.content = vec![ContentBlock::text(text)];
            result
        }
        Err(e) => ToolError::new("internal", format!("the answer is not JSON: {e}")).into_result(),
    }
}

const INSTRUCTIONS: &str = "llmc answers questions about this git repository from its \
index: the code graph (callers, callees, definitions, imports), the git history and \
search over the code and docs. `ask` takes a question in words and routes it; the other \
tools ask one memory directly. Every answer is checked against the files first (changed \
files are re-indexed; `freshness` says so), fits in `max_tokens` (default 2000, counted \
as bytes / 4 of the JSON), and lists what did not fit in `omitted` with the exact call \
for the next page (`omitted.next`).";

/// A tool's failure, as the model sees it: a message saying what to do, and its kind.
#[derive(Debug)]
struct ToolError {
    kind: &'static str,
    message: String,
    extra: Map<String, Value>,
}

impl ToolError {
    fn new(kind: &'static str, message: impl Into<String>) -> ToolError {
        ToolError {
            kind,
            message: message.into(),
            extra: Map::new(),
        }
    }

    fn with(mut self, key: &str, value: impl Into<Value>) -> ToolError {
        self.extra.insert(key.into(), value.into());
        self
    }

    fn bad_argument(tool: &str, argument: &str, why: impl std::fmt::Display) -> ToolError {
        ToolError::new(
            "bad_argument",
            format!("`{tool}`: argument `{argument}`: {why}"),
        )
        .with("argument", argument)
    }

    fn into_result(self) -> CallToolResult {
        let mut error = self.extra;
        error.insert("kind".into(), self.kind.into());
        error.insert("message".into(), self.message.clone().into());
        let mut result = CallToolResult::error(vec![ContentBlock::text(self.message)]);
        result.structured_content = Some(json!({ "error": error }));
        result
    }
}

impl From<anyhow::Error> for ToolError {
    /// A library failure: its typed kind when it has one.
    fn from(e: anyhow::Error) -> ToolError {
        let message = format!("{e:#}");
        let typed = e.chain().find_map(|c| c.downcast_ref::<LlmcError>());
        match typed {
            Some(t @ (LlmcError::Usage(_) | LlmcError::Config(_))) => {
                ToolError::new("bad_argument", message).with("llmc", t.kind())
            }
            Some(t) => ToolError::new(t.kind(), message),
            None => ToolError::new("error", message),
        }
    }
}

// ---------------------------------------------------------------------------------
// The tools: their arguments (checked here, so an error names the argument and why)
// and their descriptions, written for a model choosing a tool.

/// What an argument holds.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Str,
    Bool,
    Int { min: u64, max: u64 },
    Choice(&'static [&'static str]),
}

#[derive(Debug, Clone, Copy)]
struct Param {
    name: &'static str,
    kind: Kind,
    required: bool,
    doc: &'static str,
}

const fn param(name: &'static str, kind: Kind, doc: &'static str) -> Param {
    Param {
        name,
        kind,
        required: false,
        doc,
    }
}

const fn required(name: &'static str, kind: Kind, doc: &'static str) -> Param {
    Param {
        name,
        kind,
        required: true,
        doc,
    }
}

const MAX_K: u64 = crate::config::MAX_K;
const COUNT: Kind = Kind::Int {
    min: 1,
    max: 1_000_000,
};

/// Every tool takes these.
const PAGE: [Param; 2] = [
    param(
        "max_tokens",
        Kind::Int {
            min: budget::MIN_TOKENS as u64,
            max: 100_000_000,
        },
        "Budget for the answer, in tokens estimated as bytes / 4 of the JSON returned \
         (default 2000, at least 100). The answer comes first; lists are cut to what fits \
         and `omitted` says what was left out and gives the call for the next page.",
    ),
    param(
        "offset",
        Kind::Int {
            min: 0,
            max: u64::MAX,
        },
        "Where the page starts in the answer's lists (default 0): copy it from \
         `omitted.next.arguments` to get the next page.",
    ),
];

const TARGET_DOC: &str = "A definition: `name`, `Type.method`, `Type::method` or \
                          `path:name` (e.g. `parse_config`, `Store.open`, `src/db.py:connect`).";
const PATH_DOC: &str = "A file of the repository, as a path from its root (or from where \
                        the server was started).";
const RESOLUTIONS: &[&str] = &[
    "precise",
    "exact",
    "import",
    "scope",
    "name-only",
    "unresolved",
];

const GRAPH_PARAMS: [Param; 3] = [
    required("target", Kind::Str, TARGET_DOC),
    param(
        "depth",
        Kind::Int { min: 1, max: 64 },
        "Follow edges transitively up to this many levels (default 1; cycles are cut).",
    ),
    param(
        "resolution",
        Kind::Choice(RESOLUTIONS),
        "Keep only edges resolved at least this strongly (precise > exact > import > \
         scope > name-only; precise edges come from a SCIP index). By default callers are the edges proven by evidence (exact, import, \
         scope); name-only guesses and unresolved call sites are counted in `set_aside`; \
         `unresolved` lists those too.",
    ),
];

struct Spec {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    params: &'static [Param],
    output: fn() -> Value,
}

const SPECS: &[Spec] = &[
    Spec {
        name: "ask",
        title: "Ask about the repository",
        description: "Ask a question about this repository in plain words and get an answer \
            read from its index, with sources, a confidence and the index's freshness. Routes \
            by itself to the code graph (who calls X, what does X call, where is X defined, \
            what imports F), the git history (who changed X, when was X added, why did X \
            change) or search over code and docs (how/where is something done). Use it when \
            unsure which tool fits. Returns `status` `answered` or `abstained` (nothing in \
            the repository answers: `abstention` says why and which names to try); \
            `answer.text` is the answer, then `graph`, `history` and `sources` support it.",
        params: &[
            required(
                "question",
                Kind::Str,
                "The question, e.g. \"who calls parse_config?\", \"how are retries \
                 handled?\", \"why was Store.open changed?\".",
            ),
            param(
                "k",
                Kind::Int { min: 1, max: MAX_K },
                "Sources to list (default 10).",
            ),
            param(
                "path",
                Kind::Str,
                "Cite only files matching this glob (e.g. `src/**/*.rs`).",
            ),
            param(
                "lang",
                Kind::Str,
                "Cite only files of this language (python, rust, typescript, …).",
            ),
            param(
                "no_tests",
                Kind::Bool,
                "Cite no tests, fixtures or test data.",
            ),
            param(
                "no_cache",
                Kind::Bool,
                "Answer afresh, not from the answer cache.",
            ),
            param(
                "trace",
                Kind::Bool,
                "Include the pipeline's trace (each stage's decision and milliseconds).",
            ),
            param(
                "llm",
                Kind::Bool,
                "Also have the LLM configured for llmc (if any) write a prose answer.",
            ),
        ],
        output: outputs::ask,
    },
    Spec {
        name: "callers",
        title: "Callers of a function or method",
        description: "Every call site of a function or method in the repository, each with \
            its path, line and the definition it sits in (`symbol`), resolved by evidence \
            (imports, types, scope), not by name alone. Use before changing a function's \
            signature or behaviour, or to see how it is used. Also lists uses that are not \
            calls (`references`: decorators, values passed on, calls a macro's body writes) and calls through the trait \
            or interface method it implements (`through_trait`); `set_aside` counts call \
            sites only a name matches.",
        params: &[GRAPH_PARAMS[0], GRAPH_PARAMS[1], GRAPH_PARAMS[2], LIMIT],
        output: outputs::graph,
    },
    Spec {
        name: "callees",
        title: "What a function calls",
        description: "What a function or method calls: each call site in its body with the \
            callee and where the callee is defined in the repository (`defined_at`), or \
            `external`/`unresolved`. `depth` > 1 follows the calls transitively.",
        params: &[GRAPH_PARAMS[0], GRAPH_PARAMS[1], GRAPH_PARAMS[2], LIMIT],
        output: outputs::graph,
    },
    Spec {
        name: "definition",
        title: "Where a name is defined",
        description: "Where a name is defined: every definition with that name (functions, \
            methods, classes, types, constants), with path, line range and kind. A bare name \
            lists all of them; `Type.method` or `path:name` narrows it.",
        params: &[GRAPH_PARAMS[0], LIMIT],
        output: outputs::graph,
    },
    Spec {
        name: "imports",
        title: "What a file imports",
        description: "What a file imports: each import line with the module or name it \
            brings in and the repository file it resolves to (`defined_at`).",
        params: &[required("path", Kind::Str, PATH_DOC), LIMIT],
        output: outputs::graph,
    },
    Spec {
        name: "importers",
        title: "Which files import a file",
        description: "The files that import a file, each with the import line. Use to see \
            what depends on a module before changing it.",
        params: &[required("path", Kind::Str, PATH_DOC), LIMIT],
        output: outputs::graph,
    },
    Spec {
        name: "history",
        title: "Commits that changed something",
        description: "The git commits that changed a definition (followed across renames \
            and moves), a file or a directory, or every commit: hash, date, author, message \
            and what each changed (files with lines added and removed; for a definition, the \
            hunks that touched it). Newest first; `reverse` puts the oldest (the one that \
            introduced it) first. Use for who/when/why questions about code.",
        params: &[
            param(
                "target",
                Kind::Str,
                "A definition (`parse`, `Stack::push`, `src/a.rs:parse`), a file or a \
                 directory; omitted: every commit.",
            ),
            param(
                "since",
                Kind::Str,
                "Only commits authored at or after this date (2024-03-01, yesterday, \
                 \"3 months ago\").",
            ),
            param(
                "until",
                Kind::Str,
                "Only commits authored at or before this date.",
            ),
            param(
                "author",
                Kind::Str,
                "Only commits whose author name or email contains this (any case).",
            ),
            param(
                "grep",
                Kind::Str,
                "Only commits whose message contains this (any case).",
            ),
            param("reverse", Kind::Bool, "Oldest first."),
            LIMIT,
        ],
        output: outputs::history,
    },
    Spec {
        name: "search",
        title: "Search code and docs",
        description: "Raw retrieval: the chunks of code and docs that best match a query, by \
            BM25 over code-aware tokens (identifiers split and joined) and by embeddings, \
            fused (hybrid, the default). Each hit has path, line range, symbol, kind and its \
            rank in each route. Use for text, error messages, or when `ask` abstains.",
        params: &[
            required(
                "query",
                Kind::Str,
                "Identifiers, an error message or words (e.g. `retry backoff`).",
            ),
            param(
                "mode",
                Kind::Choice(&["lexical", "semantic", "hybrid"]),
                "lexical (BM25), semantic (embeddings) or hybrid (both, fused; default).",
            ),
            param(
                "k",
                Kind::Int { min: 1, max: MAX_K },
                "How many hits (default 10).",
            ),
            param("lang", Kind::Str, "Only files of this language."),
            param("path", Kind::Str, "Only files matching this glob."),
            param("no_tests", Kind::Bool, "No tests, fixtures or test data."),
        ],
        output: outputs::search,
    },
    Spec {
        name: "status",
        title: "What the index holds",
        description: "What llmc's index of the repository holds: files and definitions per \
            language, chunks, skipped files, the git history read, the generation and when \
            it was written, and files changed on disk since (normally none: every call \
            re-indexes changed files first).",
        params: &[],
        output: outputs::status,
    },
];

const LIMIT: Param = param(
    "limit",
    COUNT,
    "At most this many items per page (the budget may allow fewer).",
);

/// The tools as `tools/list` gives them.
fn tools() -> Vec<Tool> {
    SPECS
        .iter()
        .map(|spec| {
            let schema = match input_schema(spec) {
                Value::Object(m) => m,
                _ => Map::new(),
            };
            let output = match (spec.output)() {
                Value::Object(m) => m,
                _ => Map::new(),
            };
            let mut tool = Tool::new(spec.name, spec.description, Arc::new(schema))
                .with_raw_output_schema(Arc::new(output))
                .with_title(spec.title);
            tool.annotations = Some(
                rmcp::model::ToolAnnotations::new()
                    .read_only(true)
                    .destructive(false)
                    .idempotent(true)
                    .open_world(false),
            );
            tool
        })
        .collect()
}

fn params_of(spec: &Spec) -> impl Iterator<Item = &Param> {
    spec.params.iter().chain(PAGE.iter())
}

fn input_schema(spec: &Spec) -> Value {
    let mut props = Map::new();
    let mut req = Vec::new();
    for p in params_of(spec) {
        let mut s = match p.kind {
            Kind::Str => json!({"type": "string"}),
            Kind::Bool => json!({"type": "boolean"}),
            Kind::Int { min, max } => json!({"type": "integer", "minimum": min, "maximum": max}),
            Kind::Choice(c) => json!({"type": "string", "enum": c}),
        };
        s["description"] = p.doc.into();
        props.insert(p.name.into(), s);
        if p.required {
            req.push(p.name);
        }
    }
    json!({
        "type": "object",
        "properties": props,
        "required": req,
        "additionalProperties": false,
    })
}

/// A call's arguments, checked against the tool's parameters.
struct Args<'a> {
    tool: &'static str,
    map: &'a JsonObject,
}

impl<'a> Args<'a> {
    fn check(spec: &Spec, map: &'a JsonObject) -> Result<Args<'a>, ToolError> {
        for (key, value) in map {
            let Some(p) = params_of(spec).find(|p| p.name == key) else {
                let names: Vec<&str> = params_of(spec).map(|p| p.name).collect();
                let near = names
                    .iter()
                    .find(|n| strsim::damerau_levenshtein(n, key) <= 2)
                    .map(|n| format!(" (did you mean `{n}`?)"))
                    .unwrap_or_default();
                return Err(ToolError::bad_argument(
                    spec.name,
                    key,
                    format!(
                        "no such argument{near}; `{}` takes {}",
                        spec.name,
                        names.join(", ")
                    ),
                ));
            };
            if value.is_null() {
                continue;
            }
            let wrong = |what: &str| {
                ToolError::bad_argument(spec.name, key, format!("expected {what}, got {value}"))
            };
            match p.kind {
                Kind::Str => {
                    value.as_str().ok_or_else(|| wrong("a string"))?;
                }
                Kind::Bool => {
                    value.as_bool().ok_or_else(|| wrong("true or false"))?;
                }
                Kind::Int { min, max } => {
                    let n = value
                        .as_u64()
                        .ok_or_else(|| wrong(&format!("a whole number from {min}")))?;
                    if n < min || n > max {
                        return Err(ToolError::bad_argument(
                            spec.name,
                            key,
                            format!("{n} is out of range: from {min} to {max}"),
                        ));
                    }
                }
                Kind::Choice(choices) => {
                    let s = value
                        .as_str()
                        .ok_or_else(|| wrong(&format!("one of {}", choices.join(", "))))?;
                    if !choices.contains(&s) {
                        return Err(ToolError::bad_argument(
                            spec.name,
                            key,
                            format!("`{s}` is not one of {}", choices.join(", ")),
                        ));
                    }
                }
            }
        }
        for p in params_of(spec).filter(|p| p.required) {
            let missing = match map.get(p.name) {
                None | Some(Value::Null) => true,
                Some(Value::String(s)) => s.trim().is_empty(),
                _ => false,
            };
            if missing {
                return Err(ToolError::bad_argument(
                    spec.name,
                    p.name,
                    format!("is required: {}", p.doc),
                ));
            }
        }
        Ok(Args {
            tool: spec.name,
            map,
        })
    }

    fn str(&self, key: &str) -> Option<String> {
        self.map
            .get(key)
            .and_then(Value::as_str)
            .map(str::to_string)
    }

    fn flag(&self, key: &str) -> bool {
        self.map.get(key).and_then(Value::as_bool).unwrap_or(false)
    }

    fn int(&self, key: &str) -> Option<usize> {
        self.map
            .get(key)
            .and_then(Value::as_u64)
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
    }

    fn max_tokens(&self) -> usize {
        self.int("max_tokens").unwrap_or(budget::DEFAULT_TOKENS)
    }

    fn offset(&self) -> usize {
        self.int("offset").unwrap_or(0)
    }

    /// The call that returns the page starting at `offset`: these arguments, with it (and
    /// with `max_tokens` when it is not the budget of this call).
    fn next(&self, offset: usize, max_tokens: usize) -> Value {
        let mut a = self.map.clone();
        a.insert("offset".into(), offset.into());
        if max_tokens != self.max_tokens() {
            a.insert("max_tokens".into(), max_tokens.into());
        }
        json!({ "tool": self.tool, "arguments": a })
    }
}

// ---------------------------------------------------------------------------------
// Running a call.

/// What every call shares: the session (handles kept open) and the first index's state.
struct Shared {
    ctx: Ctx,
    session: Session,
    /// How long a call waits for a first index before saying it is being built.
    wait: Duration,
    first: Mutex<FirstIndex>,
    first_done: Condvar,
}

/// The index built when the server found none.
enum FirstIndex {
    NotStarted,
    Running(Instant),
    Failed(String),
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Shared {
    fn new(ctx: &Ctx, wait: Duration) -> Shared {
        Shared {
            ctx: Ctx {
                root: ctx.root.clone(),
                prefix: ctx.prefix.clone(),
                config: ctx.config.clone(),
                config_sources: ctx.config_sources.clone(),
                quiet: true,
                verbose: false,
                out: super::style::Style::PLAIN,
                err: super::style::Style::PLAIN,
            },
            session: Session::new(&ctx.root, ctx.config.clone()),
            wait,
            first: Mutex::new(FirstIndex::NotStarted),
            first_done: Condvar::new(),
        }
    }

    fn root(&self) -> &Path {
        &self.ctx.root
    }

    /// Runs one call; the answer is the page's JSON text.
    fn call(self: &Arc<Self>, spec: &'static Spec, map: &JsonObject) -> Result<String, ToolError> {
        let args = Args::check(spec, map)?;
        self.ready()?;
        let notices = Mutex::new(Vec::new());
        let say = |n: Notice| lock(&notices).push(n);
        let progress = || -> Box<dyn Progress> { Box::new(NoProgress) };
        let fresh = Fresh {
            refresh: true,
            progress: &progress,
            say: &say,
        };
        let mut a = match spec.name {
            "ask" => self.ask(&args, &fresh)?,
            "callers" => self.graph(&args, &fresh, Relation::Callers)?,
            "callees" => self.graph(&args, &fresh, Relation::Callees)?,
            "definition" => self.graph(&args, &fresh, Relation::Defs)?,
            "imports" => self.graph(&args, &fresh, Relation::Imports)?,
            "importers" => self.graph(&args, &fresh, Relation::Importers)?,
            "history" => self.history(&args, &fresh)?,
            "search" => self.search(&args, &fresh)?,
            "status" => self.status(&fresh)?,
            other => {
                return Err(ToolError::new(
                    "bad_argument",
                    format!("unknown tool `{other}`"),
                ));
            }
        };
        // What the freshness check said on the way: warnings, and the note of a refresh.
        for n in lock(&notices).drain(..) {
            match n {
                Notice::Warn(w) => push_warning(&mut a.doc, w),
                Notice::Note(note) => {
                    if let Some(f) = a.doc.get_mut("freshness").and_then(Value::as_object_mut) {
                        f.insert("note".into(), note.into());
                    }
                }
            }
        }
        let mut pages = JsonPages::new(a.doc, a.lists);
        if let Some((start, total)) = a.part {
            pages = pages.part(0, start, total);
        }
        let limit = a.limit;
        let graph_fields = a.graph_fields;
        let adjust = |v: &mut Value, w: &Window| {
            if graph_fields {
                app_graph::paged_fields(v, w, limit);
            }
        };
        let fitted = pages::json_page(
            pages,
            args.max_tokens(),
            args.offset(),
            limit,
            &Next::Tool(&|n, m| args.next(n, m)),
            &adjust,
            &super::json_compact,
        );
        Ok(fitted.text)
    }

    /// Makes sure there is an index: the first call without one starts building it and
    /// every call waits for it a while, then says it is being built.
    fn ready(self: &Arc<Self>) -> Result<(), ToolError> {
        if Store::exists(self.root()) {
            return Ok(());
        }
        let mut state = lock(&self.first);
        let started = match &*state {
            FirstIndex::Running(t) => *t,
            FirstIndex::NotStarted | FirstIndex::Failed(_) => {
                let t = Instant::now();
                *state = FirstIndex::Running(t);
                let shared = Arc::clone(self);
                std::thread::spawn(move || shared.build_first());
                t
            }
        };
        let deadline = Instant::now() + self.wait;
        loop {
            match &*state {
                FirstIndex::Running(_) if Store::exists(self.root()) => return Ok(()),
                FirstIndex::NotStarted => return Ok(()),
                FirstIndex::Failed(e) => {
                    return Err(ToolError::new(
                        "index_failed",
                        format!("indexing {} failed: {e}", self.root().display()),
                    ));
                }
                FirstIndex::Running(_) => {}
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(ToolError::new(
                    "index_building",
                    format!(
                        "no index yet: indexing {} started {:.0} s ago and goes on in the \
                         background; call again in a few seconds (`status` answers once it \
                         is done)",
                        self.root().display(),
                        started.elapsed().as_secs_f64()
                    ),
                ));
            }
            state = self
                .first_done
                .wait_timeout(state, deadline - now)
                .map(|(g, _)| g)
                .unwrap_or_else(|e| e.into_inner().0);
        }
    }

    /// Builds the first index, then wakes the calls waiting for it.
    fn build_first(&self) {
        let progress = || -> Box<dyn Progress> { Box::new(NoProgress) };
        let fresh = Fresh {
            refresh: true,
            progress: &progress,
            say: &|_| {},
        };
        let outcome = crate::ask::ensure_index(self.root(), &self.ctx.config, &fresh);
        // A long history goes on in a background run (`llmc index --history-only`).
        crate::app::index::continue_if_partial(&self.ctx);
        let mut state = lock(&self.first);
        *state = match outcome {
            Ok(_) => FirstIndex::NotStarted,
            Err(e) => FirstIndex::Failed(format!("{e:#}")),
        };
        self.first_done.notify_all();
    }

    fn ask(&self, args: &Args, fresh: &Fresh) -> Result<Answer, ToolError> {
        let question = args.str("question").unwrap_or_default();
        let req = AskRequest {
            question,
            k: args.int("k"),
            no_cache: args.flag("no_cache"),
            no_llm: !args.flag("llm"),
            scope: Scope {
                path: args.str("path").map(|g| self.ctx.scope_glob(&g)),
                lang: args.str("lang"),
                no_tests: args.flag("no_tests"),
            },
        };
        let outcome = self.session.ask(&req, fresh)?;
        let (doc, lists) = app_ask::json_lists(&outcome, args.flag("trace"))?;
        Ok(Answer::new(doc, lists))
    }

    fn graph(&self, args: &Args, fresh: &Fresh, relation: Relation) -> Result<Answer, ToolError> {
        let target = args
            .str(
                if matches!(relation, Relation::Imports | Relation::Importers) {
                    "path"
                } else {
                    "target"
                },
            )
            .unwrap_or_default();
        let depth = args.int("depth").map_or(1, |d| d as u32);
        let resolution = args.str("resolution").and_then(|r| resolution_of(&r));
        let (answer, freshness) = self.session.fresh(fresh, &|| {
            let store = self.session.store()?;
            app_graph::check_memory(&store, relation)?;
            app_graph::answer(&self.ctx, &store, relation, &target, depth, resolution)
        })?;
        if answer.candidates.is_empty() {
            return Err(self.unknown(&target, relation));
        }
        let mut doc = app_graph::to_json(&answer, relation);
        add_freshness(&mut doc, &freshness);
        Ok(Answer {
            limit: args.int("limit"),
            graph_fields: true,
            ..Answer::new(doc, app_graph::json_lists())
        })
    }

    fn history(&self, args: &Args, fresh: &Fresh) -> Result<Answer, ToolError> {
        let mut filter = app_log::filter(
            args.str("since").as_deref(),
            args.str("until").as_deref(),
            args.str("author"),
            args.str("grep"),
            args.flag("reverse"),
        )?;
        let offset = args.offset();
        let most = app_log::window(args.max_tokens());
        filter.offset = offset;
        filter.limit = Some(args.int("limit").map_or(most, |n| n.min(most)));
        let text = args.str("target").unwrap_or_default();
        let (read, freshness) = self.session.fresh(fresh, &|| {
            let store = self.session.store()?;
            if let Some(note) = store.meta(crate::history::meta::NOTE)? {
                return Ok(Err(note));
            }
            let note = app_log::history_note(&self.ctx, &store)?;
            let log = app_log::query(&self.ctx, &store, &text, &filter)?;
            let notes: Vec<String> = note
                .into_iter()
                .chain(app_log::ambiguity(&text, &log))
                .chain(app_log::shallow_note(&store)?)
                .collect();
            // A name the history never saw may still be defined (in files not committed).
            let known = match &log.target {
                Target::Symbol { name, .. } if log.matched.is_empty() => {
                    store.read(|c| crate::store::lookups::is_defined(c, name))?
                }
                _ => true,
            };
            Ok(Ok((log, notes, known)))
        })?;
        let (log, notes, known) = read.map_err(|note| {
            ToolError::new(
                "no_history",
                format!("no history to read: {note}; the other tools answer from the files"),
            )
        })?;
        if let Target::Symbol { name, .. } = &log.target
            && !known
        {
            return Err(self.unknown(name, Relation::Defs));
        }
        let mut doc = app_log::to_json(&text, &log);
        add_freshness(&mut doc, &freshness);
        for n in notes {
            push_warning(&mut doc, n.trim_start_matches("llmc: ").to_string());
        }
        Ok(Answer {
            part: Some((offset, log.total)),
            limit: Some(log.commits.len()),
            ..Answer::new(doc, app_log::json_lists())
        })
    }

    fn search(&self, args: &Args, fresh: &Fresh) -> Result<Answer, ToolError> {
        let req = app_search::request(
            &self.ctx,
            &args.str("query").unwrap_or_default(),
            args.str("mode").as_deref(),
            args.int("k"),
            args.str("lang"),
            args.str("path").as_deref(),
            args.flag("no_tests"),
        )?;
        let config = self.session.config();
        let (result, freshness) = self.session.fresh(fresh, &|| {
            crate::search::search_with(config, &req, &|| self.session.indexes())
        })?;
        let mut doc = app_search::to_json(&result);
        add_freshness(&mut doc, &freshness);
        if let Some(w) = result.warning {
            push_warning(&mut doc, w);
        }
        if result.hits.is_empty()
            && let Some(lang) = &req.lang
        {
            let langs = crate::search::indexed_languages(self.root())?;
            if !langs.contains(lang) {
                return Err(ToolError::bad_argument(
                    "search",
                    "lang",
                    format!(
                        "no indexed file is in `{lang}` (the index has: {})",
                        langs.join(", ")
                    ),
                ));
            }
        }
        Ok(Answer::new(doc, app_search::json_lists()))
    }

    fn status(&self, fresh: &Fresh) -> Result<Answer, ToolError> {
        let (status, freshness) = self.session.fresh(fresh, &|| {
            crate::index::status::status(self.root(), &self.ctx.config)
        })?;
        let mut doc = serde_json::to_value(&status).map_err(anyhow::Error::from)?;
        add_freshness(&mut doc, &freshness);
        let lists = ["modified", "added", "deleted"]
            .iter()
            .map(|k| {
                pages::list(
                    &format!("changed.{k}"),
                    &format!("/changed/{k}"),
                    Shape::Array,
                )
            })
            .collect();
        Ok(Answer::new(doc, lists))
    }

    /// The error for a name (or path) the index does not know, with the nearest ones.
    fn unknown(&self, target: &str, relation: Relation) -> ToolError {
        let paths = matches!(relation, Relation::Imports | Relation::Importers);
        let nearest = if paths {
            self.session
                .store()
                .and_then(|store| {
                    store.read(|c| {
                        let mut stmt = c.prepare_cached("SELECT path FROM files")?;
                        stmt.query_map([], |r| r.get::<_, String>(0))?
                            .collect::<rusqlite::Result<Vec<_>>>()
                    })
                })
                .map(|all| nearest_paths(target, &all, 5))
        } else {
            self.session
                .indexes()
                .and_then(|i| i.vocabulary())
                .map(|vocab| {
                    let (_, name) = crate::graph::split_path_target(target);
                    crate::ask::names::nearest_names(name, &vocab, 5)
                })
        }
        .unwrap_or_default();
        let what = if paths {
            format!("no indexed file matches `{target}`")
        } else {
            format!("no definition named `{target}` in the index")
        };
        let hint = if nearest.is_empty() {
            if paths {
                "; give a path from the repository's root (`search` finds files by words)"
                    .to_string()
            } else {
                "; `search` finds text and identifiers by words".to_string()
            }
        } else {
            let quoted: Vec<String> = nearest.iter().map(|n| format!("`{n}`")).collect();
            format!("; nearest: {}", quoted.join(", "))
        };
        ToolError::new(
            if paths {
                "unknown_path"
            } else {
                "unknown_symbol"
            },
            format!("{what}{hint}"),
        )
        .with("nearest", nearest)
    }
}

/// A tool's whole answer and how to page it.
struct Answer {
    doc: Value,
    lists: pages::Lists,
    /// The first list holds only its items from `.0` of `.1` (read one page at a time).
    part: Option<(usize, usize)>,
    /// The most items a page may hold.
    limit: Option<usize>,
    /// A graph answer: its `truncated`, `offset` and `limit` say what the page is.
    graph_fields: bool,
}

impl Answer {
    fn new(doc: Value, lists: pages::Lists) -> Answer {
        Answer {
            doc,
            lists,
            part: None,
            limit: None,
            graph_fields: false,
        }
    }
}

fn add_freshness(doc: &mut Value, f: &Freshness) {
    if let Value::Object(m) = doc {
        m.insert(
            "freshness".into(),
            serde_json::to_value(f).unwrap_or(Value::Null),
        );
        m.entry("warnings").or_insert_with(|| json!([]));
    }
}

fn push_warning(doc: &mut Value, w: String) {
    if let Value::Object(m) = doc
        && let Value::Array(a) = m.entry("warnings").or_insert_with(|| json!([]))
        && !a.iter().any(|x| x.as_str() == Some(w.as_str()))
    {
        a.push(w.into());
    }
}

fn resolution_of(s: &str) -> Option<Resolution> {
    match s {
        "precise" => Some(Resolution::Precise),
        "exact" => Some(Resolution::Exact),
        "import" => Some(Resolution::Import),
        "scope" => Some(Resolution::Scope),
        "name-only" => Some(Resolution::NameOnly),
        "unresolved" => Some(Resolution::Unresolved),
        _ => None,
    }
}

/// Indexed paths nearest `target`: those ending with its file name first, then by edit
/// distance of the whole path.
fn nearest_paths(target: &str, paths: &[String], n: usize) -> Vec<String> {
    let name = target.rsplit('/').next().unwrap_or(target);
    let mut scored: Vec<(usize, &String)> = paths
        .iter()
        .filter_map(|p| {
            let file = p.rsplit('/').next().unwrap_or(p);
            let d = strsim::damerau_levenshtein(name, file);
            (d <= (name.chars().count() / 3).max(1))
                .then(|| (d * 100 + strsim::damerau_levenshtein(target, p).min(99), p))
        })
        .collect();
    scored.sort();
    scored.into_iter().take(n).map(|(_, p)| p.clone()).collect()
}

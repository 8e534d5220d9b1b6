//! `llmc ask`: one question, routed to the right memories, checked, retried when weak,
//! answered with sources — or an honest "not found".
//!
//! One typed [`State`] flows through the stages, each a function that appends its
//! decision, reasons and milliseconds to the trace:
//!
//! classify → route → retrieve → fuse → graph-expand → verify → refine → answer
//!
//! `ask_once` is that line, read top to bottom; one pass (retrieve to verify) is
//! [`pass::run_pass`]. Each stage after routing can be switched off in `[ask]` to fall
//! back to the simpler path; the trace says so. Nothing here prints: `app::ask` renders
//! the [`Outcome`].

pub mod answer;
pub mod cache;
pub mod calibration;
pub mod classify;
pub mod cues;
pub mod entities;
pub mod expand;
pub mod fresh;
pub mod names;
pub mod outcome;
pub mod pass;
pub mod prototype;
pub mod readings;
pub mod refine;
pub mod retrieve;
pub mod route;
pub mod session;
pub mod slot;
pub mod text;
pub mod verify;

use std::path::Path;
use std::time::Instant;

use anyhow::Result;

use crate::config::Config;
use crate::llm;
use classify::{Classification, EntityKind, Intent};
// The outcome types keep their old paths (`crate::ask::Outcome`, …).
pub use fresh::{ask_fresh, ensure_index};
pub use outcome::{
    AbstainReason, Abstention, AnswerText, AskRequest, Attempt, Candidate, Confidence, Evidence,
    Freshness, GraphFact, HistoryFact, Line, Outcome, Route, Scope, Stage, StageTrace, Status,
    Strategy, Synthesized,
};
pub use pass::{Pass, Query, ids, run_pass};
use retrieve::Memories;
use route::Plan;
pub use slot::LlmSlot;

/// The state that flows through the stages.
pub struct State<'a> {
    pub question: String,
    pub classification: Classification,
    pub plan: Plan,
    /// Subject words of the question.
    pub terms: Vec<String>,
    pub since: Option<i64>,
    pub until: Option<i64>,
    /// Only commits by this author: a name of the repository's authors the question gives.
    pub author: Option<String>,
    /// The question asks when something was added: its oldest commit answers.
    pub introduced: bool,
    /// The question asks when something was removed: the commits whose messages say so.
    pub removed: bool,
    /// The question asks why something changed: commit messages in full.
    pub why: bool,
    /// A "why" question about the code whose words a commit's subject states: the history
    /// is asked for the commits by their messages, not for the words as names.
    pub why_by_message: bool,
    /// Commits whose message holds this text first (a quoted message in the question).
    pub grep: Option<String>,
    /// How the question's words were read, shown in the answer ("read `David Lord` as an
    /// author").
    pub readings: Vec<String>,
    pub best: Option<Pass>,
    pub attempts: Vec<Attempt>,
    pub trace: Vec<StageTrace>,
    pub memories: Memories<'a>,
    pub text: crate::source::SourceText,
    /// The paths an answer may cite, when `--path`, `--lang` or `--no-tests` narrow it.
    pub allowed: Option<std::collections::HashSet<String>>,
}

impl State<'_> {
    /// Whether the answer may cite `path`.
    pub fn in_scope(&self, path: &str) -> bool {
        self.allowed.as_ref().is_none_or(|a| a.contains(path))
    }
}

impl State<'_> {
    fn record(&mut self, stage: Stage, t: Instant, decision: String, reasons: Vec<String>) {
        self.trace.push(StageTrace {
            stage,
            decision,
            reasons,
            ms: t.elapsed().as_secs_f64() * 1000.0,
        });
    }
}

/// The plan as `memory=weight` words.
pub fn plan_text(p: &Plan) -> String {
    p.steps
        .iter()
        .map(|s| format!("{}={:.2}", s.memory, s.weight))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The longest question asked as written, in characters; a longer one is cut there
/// (and the answer says so): every word of a question is looked up.
pub const MAX_QUESTION_CHARS: usize = 2_000;

/// The question as it is asked: cut to [`MAX_QUESTION_CHARS`], with the warning that
/// says so when it was.
fn bounded_question(question: &str) -> (String, Option<String>) {
    let total = question.chars().count();
    if total <= MAX_QUESTION_CHARS {
        return (question.to_string(), None);
    }
    let cut: String = question.chars().take(MAX_QUESTION_CHARS).collect();
    let warning = format!(
        "the question has {total} characters: only the first {MAX_QUESTION_CHARS} were asked"
    );
    (cut, Some(warning))
}

/// Answers a question about the repository at `root` from its index.
pub fn ask(root: &Path, config: &Config, req: &AskRequest) -> Result<Outcome> {
    ask_with(root, config, req, &|| crate::search::Indexes::open(root))
}

/// [`ask`] over the indexes `open` gives (opened for this question, or kept open by a
/// long-running process: [`crate::search::Kept::open`]).
pub fn ask_with(
    root: &Path,
    config: &Config,
    req: &AskRequest,
    open: &dyn Fn() -> Result<crate::search::Indexes>,
) -> Result<Outcome> {
    let (question, cut) = bounded_question(&req.question);
    let bounded;
    let req = if cut.is_some() {
        bounded = AskRequest {
            question,
            ..req.clone()
        };
        &bounded
    } else {
        req
    };
    // A generation removed while it was being read (the reader overtaken by two index
    // runs) is asked of the new one.
    let mut outcome = crate::search::retry_changed(|| ask_once(root, config, req, open))?;
    if let Some(w) = cut {
        outcome.warnings.insert(0, w);
    }
    if outcome.entities.len() >= classify::MAX_ENTITIES {
        outcome.warnings.push(format!(
            "the question names more than {} things: only the first {} were looked up",
            classify::MAX_ENTITIES,
            classify::MAX_ENTITIES
        ));
    }
    Ok(outcome)
}

/// One question against one generation of the index: the pipeline, stage by stage.
fn ask_once(
    root: &Path,
    config: &Config,
    req: &AskRequest,
    open: &dyn Fn() -> Result<crate::search::Indexes>,
) -> Result<Outcome> {
    let started = Instant::now();
    let memories = Memories::new(root, config, open()?);
    let cache_key = cache::key(req, config);
    let use_cache = config.ask.cache && !req.no_cache;
    if use_cache && let Some(hit) = cached(root, &memories, &cache_key)? {
        return Ok(hit);
    }
    let mut slot = LlmSlot::new(config, req.no_llm);
    let mut state = classify(root, config, req, memories, &mut slot);
    if !req.scope.is_all() {
        let glob = match &req.scope.path {
            Some(g) => Some(crate::search::path_matcher(g)?),
            None => None,
        };
        let lang = req.scope.lang.as_deref();
        let no_tests = req.scope.no_tests;
        let (allowed, known) = state
            .memories
            .read(|c| crate::search::scoped_paths(c, glob.as_ref(), lang, no_tests))?;
        if let Some(l) = lang
            && !known.contains(l)
        {
            let known: Vec<String> = known.into_iter().collect();
            return Err(crate::error::LlmcError::Usage(format!(
                "--lang {l:?}: no indexed file is in that language (indexed: {})",
                known.join(", ")
            ))
            .into());
        }
        state.allowed = Some(allowed);
    }
    readings::read(&mut state)?;
    route(&mut state, config)?;
    let first = first_query(&mut state)?;
    let pass = run_pass(&mut state, first, None)?;
    state.best = Some(pass);
    refine::refine(&mut state)?;
    let k = req.k.unwrap_or(config.ask.k).max(1);
    let mut outcome = answer(&mut state, k, &mut slot);
    if use_cache {
        cache::put(root, &state.memories, &cache_key, &outcome)?;
    }
    outcome.trace.push(StageTrace {
        stage: Stage::Total,
        decision: String::new(),
        reasons: Vec::new(),
        ms: started.elapsed().as_secs_f64() * 1000.0,
    });
    Ok(outcome)
}

/// The cached outcome of the same question and options, if no file it cites changed.
fn cached(root: &Path, memories: &Memories, key: &str) -> Result<Option<Outcome>> {
    let t = Instant::now();
    let Some(mut hit) = cache::get(root, memories, key)? else {
        return Ok(None);
    };
    hit.cached = true;
    hit.trace.push(StageTrace {
        stage: Stage::Cache,
        decision: "hit".into(),
        reasons: vec!["same question and options; no cited file changed since".into()],
        ms: t.elapsed().as_secs_f64() * 1000.0,
    });
    Ok(Some(hit))
}

/// The classify stage: intents and entities by rules (and prototypes), the LLM asked
/// when the rules are unsure; the state the other stages work on.
fn classify<'a>(
    root: &Path,
    config: &Config,
    req: &AskRequest,
    memories: Memories<'a>,
    slot: &mut LlmSlot,
) -> State<'a> {
    let t = Instant::now();
    let mut classification = classify::classify(&req.question);
    let mut reasons = classification.reasons.clone();
    if config.ask.prototypes {
        prototype::second_opinion(&req.question, &mut classification, &mut reasons);
    }
    let allowed: Vec<&str> = Intent::ALL.iter().map(|i| i.as_str()).collect();
    let asked = if classification.confidence < config.route.widen_below {
        slot.with(|l, budget| (l.name(), llm::classify(l, budget, &req.question, &allowed)))
    } else {
        None
    };
    if let Some((name, result)) = asked {
        match result {
            Ok(found) => {
                let parsed: Vec<Intent> = found.iter().filter_map(|s| Intent::parse(s)).collect();
                if parsed.is_empty() {
                    reasons.push(format!("LLM ({name}) gave no usable intent"));
                } else {
                    reasons.push(format!("LLM ({name}) decides: {}", found.join(", ")));
                    classification.intents = parsed;
                    classification.confidence =
                        classification.confidence.max(config.route.widen_below);
                }
            }
            Err(e) => slot.failed("classification", &e),
        }
    }
    let mut terms = text::content_terms(&req.question, &classification);
    if let Some(name) = project_name(root) {
        drop_project_name(
            &name,
            &memories,
            &mut classification,
            &mut terms,
            &mut reasons,
        );
    }
    let decision = classification_text(&classification);
    let mut state = State {
        question: req.question.clone(),
        plan: Plan {
            steps: Vec::new(),
            widened: false,
        },
        classification,
        terms,
        since: None,
        until: None,
        author: None,
        introduced: false,
        removed: false,
        why: false,
        why_by_message: false,
        grep: None,
        readings: Vec::new(),
        best: None,
        attempts: Vec::new(),
        trace: Vec::new(),
        memories,
        // Never more than an index would read (a file that grew to gigabytes since).
        text: crate::source::SourceText::new(root, crate::config::MAX_FILE_SIZE),
        allowed: None,
    };
    state.record(Stage::Classify, t, decision, reasons);
    state
}

/// The repository's name, as its root directory says it (`cJSON`), lower-cased.
pub(super) fn project_name(root: &Path) -> Option<String> {
    let name = root.file_name()?.to_str()?.to_lowercase();
    (name.chars().count() >= 3).then_some(name)
}

/// How many definitions named `<project>_…` make the project's name a namespace.
const PREFIXED_NAMES: usize = 5;

/// "how does cJSON parse a number?" in cJSON's repository: the project's name is the
/// namespace of its API (`cJSON_Parse`, `cJSON_Delete`, as C libraries name theirs), so
/// it says which code, not what it does. It named the `cJSON` struct for the graph, and
/// every `cJSON_…` function matched it in the lexical index, so `parse_number` was in no
/// list. A question about code (how, where, what) that names more than the project
/// leaves its name out of the words it searches; a structural question keeps it. A
/// name that is no such prefix stays: a Go or Python package's name qualifies its API
/// as written (`logrus.New`, `httpx.request`), and leaving it out lost those answers.
/// The store is read (a scan of the definitions' names) only for a question that names
/// the project.
fn drop_project_name(
    name: &str,
    memories: &Memories,
    c: &mut Classification,
    terms: &mut Vec<String>,
    reasons: &mut Vec<String>,
) {
    let about_code = matches!(
        c.intents.first(),
        Some(Intent::Howto | Intent::Locate | Intent::Concept)
    );
    let is_name = |w: &str| w.to_lowercase() == name;
    let named = c.entities.iter().any(|e| is_name(&e.text)) || terms.iter().any(|t| is_name(t));
    let others = c.entities.iter().filter(|e| !is_name(&e.text)).count()
        + terms.iter().filter(|t| !is_name(t)).count();
    if !about_code || !named || others == 0 {
        return;
    }
    let namespace = memories
        .read(|c| crate::store::lookups::names_prefixed(c, name, PREFIXED_NAMES))
        .unwrap_or(false);
    if !namespace {
        return;
    }
    c.entities.retain(|e| !is_name(&e.text));
    terms.retain(|t| !is_name(t));
    reasons.push(format!(
        "{name:?} is the repository's name: the question's other words are searched"
    ));
}

/// The classify stage's decision: intents, confidence, recency, entities.
fn classification_text(c: &Classification) -> String {
    format!(
        "{} (confidence {:.2}{}); entities: {}",
        c.intents
            .iter()
            .map(|i| i.as_str())
            .collect::<Vec<_>>()
            .join(" + "),
        c.confidence,
        if c.recency { ", recent first" } else { "" },
        if c.entities.is_empty() {
            "none".to_string()
        } else {
            c.entities
                .iter()
                .map(|e| format!("{} ({:?})", e.text, e.kind).to_lowercase())
                .collect::<Vec<_>>()
                .join(", ")
        }
    )
}

/// The route stage: the plan (memories and weights) for the intents, and the date
/// window the question gives.
fn route(state: &mut State, config: &Config) -> Result<()> {
    let t = Instant::now();
    state.plan = route::route(&state.classification, &config.route)
        .map_err(|e| crate::error::LlmcError::Config(format!("[route]: {e}")))?;
    let mut reasons = Vec::new();
    if state.plan.widened {
        reasons.push(format!(
            "classifier confidence {:.2} < route.widen_below {:.2}: every retriever joins",
            state.classification.confidence, config.route.widen_below
        ));
    }
    if let Some(s) = state.since {
        reasons.push(format!("since {}", retrieve::day(s)));
    }
    if let Some(u) = state.until {
        reasons.push(format!("until {}", retrieve::day(u)));
    }
    let decision = plan_text(&state.plan);
    state.record(Stage::Route, t, decision, reasons);
    Ok(())
}

/// The first pass's query: the lexical text, and the names the graph and history look
/// up — the question's identifiers and paths or, for a question about names that gives
/// none, its plain words that name a definition ("who calls urlparse").
fn first_query(state: &mut State) -> Result<Query> {
    let mut targets = graph_targets(&state.classification);
    let wants_names = state
        .classification
        .intents
        .iter()
        .any(|&i| i.is_structural() || matches!(i, Intent::History | Intent::Compare));
    if targets.is_empty() && wants_names && !state.why_by_message {
        let t = Instant::now();
        let mut named = Vec::new();
        // An imports question may name a package rather than a definition ("what files
        // import strconv?").
        let imports = state.classification.intents.contains(&Intent::Imports);
        let history = state.classification.intents.contains(&Intent::History);
        // Two words in a row may name one package by its last two segments ("which files
        // import the vanilla utils?" for `jotai/vanilla/utils`, "the click testing
        // module" for `click.testing`): read so, they are not read one by one.
        let mut taken: Vec<String> = Vec::new();
        if imports {
            let terms = state.terms.clone();
            for pair in terms.windows(2).take(5) {
                if taken.contains(&pair[0]) {
                    continue;
                }
                for sep in ["/", "."] {
                    let found = readings::packages_ending(state, &pair.join(sep))?;
                    if !found.is_empty() {
                        named.extend(found);
                        taken.extend(pair.iter().cloned());
                        break;
                    }
                }
            }
        }
        for term in state.terms.clone().iter().take(6) {
            if taken.contains(term) {
                continue;
            }
            // In a history question, a module the word stands for: the one named after a
            // name only tests define, or the module or package's folder the question calls
            // it ("when was the attrs namespace package added?"), defined or not.
            if history && let Some((module, folder)) = readings::history_module(state, term)? {
                named.push(module);
                // "the fetch adapter": `adapter` is read with `fetch`.
                taken.extend(
                    state
                        .terms
                        .iter()
                        .filter(|t| folder.as_deref() == Some(t.to_lowercase().as_str()))
                        .cloned(),
                );
                continue;
            }
            if state.memories.read(|c| {
                Ok(retrieve::is_defined(c, term)?
                    || (imports && crate::store::lookups::is_imported(c, term)?))
            })? {
                named.push(term.clone());
            } else if imports {
                // A package by its last segment ("which files import the tui package?"
                // for `github.com/junegunn/fzf/src/tui`).
                named.extend(readings::packages_ending(state, term)?);
            }
        }
        // "who calls isinstance?": the one word of a callers question names what the
        // code calls though it defines it nowhere (a builtin, a library's function).
        if named.is_empty()
            && state.classification.intents.first() == Some(&Intent::Callers)
            && let [term] = state.terms.as_slice()
            && state
                .memories
                .read(|c| crate::store::lookups::is_called_outside(c, term))?
        {
            named.push(term.clone());
        }
        if !named.is_empty() {
            state.record(
                Stage::Route,
                t,
                format!("targets from plain words: {}", named.join(", ")),
                vec!["each names a definition in the index (or, for imports, a module)".into()],
            );
        }
        targets = named;
    }
    // A question that describes code to locate is searched with its words as written,
    // as `llmc search` does (BM25 weighs the common ones down); the subject words alone
    // lose words like "file" in "end-of-file".
    let text = if state.classification.intents.first() == Some(&Intent::Locate) {
        state.question.clone()
    } else {
        lexical_text(&state.classification, &state.terms)
    };
    Ok(Query {
        text,
        semantic: None,
        targets,
        plan: state.plan.clone(),
    })
}

/// The answer stage: the outcome from the best pass (synthesized by the LLM when one is
/// configured), with the trace and the warnings of every stage.
fn answer(state: &mut State, k: usize, slot: &mut LlmSlot) -> Outcome {
    let t = Instant::now();
    let mut outcome = answer::answer(state, k);
    if outcome.status == Status::Answered {
        answer::synthesize(state, &mut outcome, slot);
    }
    outcome.warnings.append(&mut slot.warnings);
    let decision = match &outcome.abstention {
        Some(a) => format!("abstained ({})", a.reason),
        None => format!(
            "{} with {} source(s), confidence {:.2} ({})",
            outcome.answer.as_ref().map_or("", |a| a.kind.as_str()),
            outcome.sources.len(),
            outcome.confidence.score,
            outcome.confidence.label
        ),
    };
    state.record(Stage::Answer, t, decision, Vec::new());
    outcome.trace = std::mem::take(&mut state.trace);
    outcome
        .warnings
        .extend(state.memories.warnings.iter().cloned());
    outcome.freshness.generation = state.memories.generation();
    outcome
}

/// Reads date entities into `since`/`until` ("before …" and "until …" bound from above;
/// a period in words, "in March 2024" or "in 2010", is its whole window).
fn dates(state: &mut State) {
    let now = jiff::Timestamp::now();
    let lower = state.question.to_lowercase();
    for e in &state.classification.entities {
        if e.kind != EntityKind::Date {
            continue;
        }
        let text = e.text.to_lowercase();
        let (bound, rest) = match text.split_once(' ') {
            Some((b @ ("since" | "after" | "before" | "until"), rest)) => (Some(b), rest),
            _ => (None, text.as_str()),
        };
        if let Some((start, end)) = crate::history::dates::period(rest, now) {
            let (start, last) = (start.as_second(), end.as_second() - 1);
            match bound {
                Some("since" | "after") => state.since = Some(start),
                Some(_) => state.until = Some(start - 1),
                None => {
                    state.since = Some(start);
                    state.until = Some(last);
                    state.readings.push(format!(
                        "read `{}` as {} to {}",
                        e.text,
                        retrieve::day(start),
                        retrieve::day(last)
                    ));
                }
            }
            continue;
        }
        let Ok(ts) = crate::history::dates::parse(&e.text, now) else {
            continue;
        };
        let before = ["before ", "until ", "prior to "]
            .iter()
            .any(|p| lower.contains(&format!("{p}{}", e.text.to_lowercase())));
        if before {
            state.until = Some(ts.as_second());
        } else {
            state.since = Some(ts.as_second());
        }
    }
}

/// The lexical query: named identifiers and the question's subject words.
pub fn lexical_text(c: &Classification, terms: &[String]) -> String {
    let mut parts: Vec<String> = c
        .entities
        .iter()
        .filter(|e| e.kind != EntityKind::Date)
        .map(|e| e.text.clone())
        .collect();
    for t in terms {
        if !parts.iter().any(|p| p.eq_ignore_ascii_case(t)) {
            parts.push(t.clone());
        }
    }
    parts.join(" ")
}

/// The names the graph and history retrievers look up: identifiers and paths.
pub fn graph_targets(c: &Classification) -> Vec<String> {
    c.entities
        .iter()
        .filter(|e| e.names_code())
        .map(|e| e.text.clone())
        .collect()
}

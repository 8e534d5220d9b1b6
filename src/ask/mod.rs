//! `llmc ask`: one question, routed to the right memories, checked, retried when weak,
//! answered with sources — or an honest "not found".
//!
//! One typed [`State`] flows through the stages, each a function that appends its
//! decision, reasons and milliseconds to the trace:
//!
//! classify → route → retrieve → fuse → graph-expand → verify → refine → answer
//!
//! Each stage after routing can be switched off in `[ask]` to fall back to the simpler
//! path; the trace says so. Nothing here prints: `app::ask` renders the [`Outcome`].

pub mod answer;
pub mod cache;
pub mod classify;
pub mod expand;
pub mod outcome;
pub mod prototype;
pub mod refine;
pub mod retrieve;
pub mod route;
pub mod text;
pub mod verify;

use std::collections::HashSet;
use std::path::Path;
use std::time::Instant;

use crate::config::Config;
use crate::llm::{self, Budget, Llm};
use crate::model::Memory;
use crate::search::fuse::{RankedList, rrf};
use anyhow::Result;
use classify::{Classification, EntityKind, Intent};
// The outcome types keep their old paths (`crate::ask::Outcome`, …).
pub use outcome::{
    AbstainReason, Abstention, AnswerText, AskRequest, Attempt, Candidate, Confidence, Evidence,
    Freshness, GraphFact, HistoryFact, Line, Outcome, Route, Stage, StageTrace, Status, Strategy,
    Synthesized,
};
use retrieve::Memories;
use route::Plan;

/// What one retrieval pass searched for.
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    /// The text for the lexical and semantic retrievers.
    pub text: String,
    /// Names for the graph and history retrievers.
    pub targets: Vec<String>,
    pub plan: Plan,
}

impl Query {
    fn signature(&self) -> String {
        format!(
            "{}|{}|{}",
            self.text,
            self.targets.join(","),
            plan_text(&self.plan)
        )
    }
}

/// The result of one retrieval pass (retrieve → fuse → expand → verify).
#[derive(Debug, Clone)]
pub struct Pass {
    pub query: Query,
    pub candidates: Vec<Candidate>,
    pub graph: Vec<GraphFact>,
    pub history: Vec<HistoryFact>,
    pub confidence: Confidence,
    /// Whether verification found the evidence weak, and why.
    pub weak: Vec<String>,
}

/// The state that flows through the stages.
pub struct State<'a> {
    pub question: String,
    pub classification: Classification,
    pub plan: Plan,
    /// Subject words of the question.
    pub terms: Vec<String>,
    pub since: Option<i64>,
    pub until: Option<i64>,
    pub best: Option<Pass>,
    pub attempts: Vec<Attempt>,
    pub trace: Vec<StageTrace>,
    pub memories: Memories<'a>,
    pub text: text::SourceText,
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

/// The plan as `retriever=weight` words.
pub fn plan_text(p: &Plan) -> String {
    p.steps
        .iter()
        .map(|s| format!("{}={:.2}", s.memory, s.weight))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The configured LLM, connected on first use; a failure to connect is a warning and
/// the answer goes on without it.
pub struct LlmSlot<'c> {
    config: &'c Config,
    disabled: bool,
    connected: Option<Option<Box<dyn Llm>>>,
    pub budget: Budget,
    pub warnings: Vec<String>,
}

impl<'c> LlmSlot<'c> {
    pub fn new(config: &'c Config, disabled: bool) -> LlmSlot<'c> {
        LlmSlot {
            config,
            disabled: disabled || config.llm.provider == "none",
            connected: None,
            budget: Budget::new(config.llm.budget),
            warnings: Vec::new(),
        }
    }

    /// Runs `f` with the LLM and this question's budget, if an LLM is configured, allowed
    /// and reachable.
    pub fn with<T>(&mut self, f: impl FnOnce(&dyn Llm, &mut Budget) -> T) -> Option<T> {
        self.get()?;
        let llm = self.connected.as_ref()?.as_deref()?;
        Some(f(llm, &mut self.budget))
    }

    /// The LLM, if one is configured, allowed and reachable.
    pub fn get(&mut self) -> Option<&dyn Llm> {
        if self.disabled {
            return None;
        }
        if self.connected.is_none() {
            let c = match llm::from_config(&self.config.llm) {
                Ok(l) => l,
                Err(e) => {
                    self.warnings
                        .push(format!("LLM unavailable, answering without it: {e}"));
                    None
                }
            };
            self.connected = Some(c);
        }
        self.connected.as_ref().and_then(|c| c.as_deref())
    }

    /// Records a failed call; the answer goes on without the LLM.
    pub fn failed(&mut self, what: &str, e: &llm::LlmError) {
        self.warnings
            .push(format!("LLM {what} failed, answering without it: {e}"));
        if matches!(
            e,
            llm::LlmError::Unreachable(_) | llm::LlmError::Timeout { .. }
        ) {
            self.disabled = true;
        }
    }
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
    let mut outcome = crate::search::retry_changed(|| ask_bounded(root, config, req))?;
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

fn ask_bounded(root: &Path, config: &Config, req: &AskRequest) -> Result<Outcome> {
    let started = Instant::now();
    let memories = Memories::open(root, config)?;
    let cache_key = cache::key(req, config);
    if config.ask.cache && !req.no_cache {
        let t = Instant::now();
        if let Some(mut hit) = cache::get(root, &memories, &cache_key)? {
            hit.cached = true;
            hit.trace.push(StageTrace {
                stage: Stage::Cache,
                decision: "hit".into(),
                reasons: vec!["same question and options; no cited file changed since".into()],
                ms: t.elapsed().as_secs_f64() * 1000.0,
            });
            return Ok(hit);
        }
    }

    // classify
    let t = Instant::now();
    let mut classification = classify::classify(&req.question);
    let mut reasons = classification.reasons.clone();
    if config.ask.prototypes {
        prototype::second_opinion(&req.question, &mut classification, &mut reasons);
    }
    let mut slot = LlmSlot::new(config, req.no_llm);
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
    let decision = format!(
        "{} (confidence {:.2}{}); entities: {}",
        classification
            .intents
            .iter()
            .map(|i| i.as_str())
            .collect::<Vec<_>>()
            .join(" + "),
        classification.confidence,
        if classification.recency {
            ", recent first"
        } else {
            ""
        },
        if classification.entities.is_empty() {
            "none".to_string()
        } else {
            classification
                .entities
                .iter()
                .map(|e| format!("{} ({:?})", e.text, e.kind).to_lowercase())
                .collect::<Vec<_>>()
                .join(", ")
        }
    );
    let terms = text::content_terms(&req.question, &classification);
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
        best: None,
        attempts: Vec::new(),
        trace: Vec::new(),
        memories,
        text: text::SourceText::new(root),
    };
    state.record(Stage::Classify, t, decision, reasons);

    // route
    let t = Instant::now();
    state.plan = route::route(&state.classification, &config.route)
        .map_err(|e| crate::error::LlmcError::Config(format!("[route]: {e}")))?;
    dates(&mut state);
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

    // retrieve → fuse → expand → verify, then refine while weak
    let mut targets = graph_targets(&state.classification);
    // A plain word that names a definition ("who calls urlparse") is a target too.
    let wants_names = state.classification.intents.iter().any(|i| {
        matches!(
            i,
            Intent::Callers
                | Intent::Callees
                | Intent::Definition
                | Intent::Imports
                | Intent::History
                | Intent::Compare
        )
    });
    if targets.is_empty() && wants_names {
        let t = Instant::now();
        let mut named = Vec::new();
        for term in state.terms.iter().take(6) {
            if state.memories.read(|c| retrieve::is_defined(c, term))? {
                named.push(term.clone());
            }
        }
        if !named.is_empty() {
            state.record(
                Stage::Route,
                t,
                format!("targets from plain words: {}", named.join(", ")),
                vec!["each names a definition in the index".into()],
            );
        }
        targets = named;
    }
    let first = Query {
        text: lexical_text(&state.classification, &state.terms),
        targets,
        plan: state.plan.clone(),
    };
    let pass = run_pass(&mut state, first, None)?;
    state.best = Some(pass);
    refine::refine(&mut state)?;

    // answer
    let t = Instant::now();
    let k = req.k.unwrap_or(config.ask.k).max(1);
    let mut outcome = answer::answer(&mut state, k);
    if outcome.status == Status::Answered {
        answer::synthesize(&mut state, &mut outcome, &mut slot);
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
    outcome.freshness.generation = state.memories.generation;
    if config.ask.cache && !req.no_cache {
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

/// Reads date entities into `since`/`until` ("before …" and "until …" bound from above).
fn dates(state: &mut State) {
    let now = jiff::Timestamp::now();
    let lower = state.question.to_lowercase();
    for e in &state.classification.entities {
        if e.kind != EntityKind::Date {
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
        .filter(|e| matches!(e.kind, EntityKind::Identifier | EntityKind::Path))
        .map(|e| e.text.clone())
        .collect()
}

/// One pass: retrieve with every retriever of the plan, fuse, expand, verify.
pub fn run_pass(state: &mut State, query: Query, strategy: Option<Strategy>) -> Result<Pass> {
    let cfg = &state.memories.config.ask;
    let (candidates_n, use_fuse, rrf_k) = (cfg.candidates.max(1), cfg.fuse, cfg.rrf_k);
    let suffix = |s: Stage| match strategy {
        None => s,
        Some(_) => s.in_refine(),
    };

    // retrieve
    let t = Instant::now();
    let mut lists: Vec<RankedList> = Vec::new();
    let mut graph = Vec::new();
    let mut history = Vec::new();
    let mut reasons = Vec::new();
    for step in query.plan.steps.clone() {
        let ts = Instant::now();
        let (route, hits) = match step.memory {
            Memory::Graph => {
                let intents = structural_intents(&state.classification.intents);
                let importers = retrieve::asks_importers(&state.question);
                let (facts, hits) = retrieve::graph_facts(
                    &mut state.memories,
                    &intents,
                    &query.targets,
                    importers,
                    200,
                )?;
                graph = facts;
                (Memory::Graph, hits)
            }
            Memory::History => {
                let ask = retrieve::HistoryAsk {
                    targets: &query.targets,
                    terms: &state.terms,
                    since: state.since,
                    until: state.until,
                };
                let (facts, hits) = retrieve::history_facts(&mut state.memories, &ask, 20)?;
                history = facts;
                (Memory::History, hits)
            }
            Memory::Lexical => (
                Memory::Lexical,
                state.memories.lexical(&query.text, candidates_n)?,
            ),
            Memory::Semantic => {
                let text = semantic_text(&state.question, &query.text);
                (
                    Memory::Semantic,
                    state.memories.semantic(&text, candidates_n)?,
                )
            }
        };
        reasons.push(format!(
            "{route} (weight {:.2}): {} hit(s) in {:.1} ms",
            step.weight,
            hits.len(),
            ts.elapsed().as_secs_f64() * 1000.0
        ));
        lists.push(retrieve::list(route, step.weight, hits));
    }
    let total: usize = lists.iter().map(|l| l.hits.len()).sum();
    let decision = format!(
        "{total} hit(s) from {} retriever(s) for {:?}{}",
        lists.len(),
        query.text,
        if query.targets.is_empty() {
            String::new()
        } else {
            format!(", targets {}", query.targets.join(", "))
        }
    );
    state.record(suffix(Stage::Retrieve), t, decision, reasons);

    // fuse
    let t = Instant::now();
    let (fused, decision) = if use_fuse {
        (
            rrf(&lists, rrf_k),
            format!("weighted reciprocal rank fusion, k = {rrf_k}"),
        )
    } else {
        let heaviest = lists
            .iter()
            .filter(|l| !l.hits.is_empty())
            .max_by(|a, b| a.weight.total_cmp(&b.weight))
            .cloned();
        (
            rrf(heaviest.as_slice(), rrf_k),
            format!(
                "fusion off (ask.fuse = false): only the {} list",
                heaviest.as_ref().map_or("empty", |l| l.route.as_str())
            ),
        )
    };
    let mut candidates = Vec::new();
    let mut stale = 0;
    let keep = candidates_n.max(state.memories.config.ask.k);
    for f in fused.into_iter().take(keep * 2) {
        if candidates.len() >= keep {
            break;
        }
        match state.memories.read(|c| retrieve::chunk_facts(c, f.id))? {
            Some(facts) => candidates.push(Candidate {
                path: facts.path,
                start_line: facts.start_line,
                end_line: facts.end_line,
                symbol: facts.symbol,
                kind: facts.kind,
                lang: facts.lang,
                score: f.score,
                evidence: f
                    .routes
                    .iter()
                    .map(|r| Evidence {
                        route: r.route.into(),
                        rank: r.rank,
                        score: r.score,
                    })
                    .collect(),
                expanded_from: None,
                lines: Vec::new(),
                chunk_id: f.id,
                symbol_id: facts.symbol_id,
            }),
            None => stale += 1,
        }
    }
    let mut reasons = Vec::new();
    if stale > 0 {
        reasons.push(format!(
            "{stale} hit(s) dropped: their chunks left the store"
        ));
    }
    if let Some(top) = candidates.first() {
        reasons.push(format!(
            "best: {}:{}-{} {} ({:.4})",
            top.path,
            top.start_line,
            top.end_line,
            top.symbol.as_deref().unwrap_or(""),
            top.score
        ));
    }
    state.record(
        suffix(Stage::Fuse),
        t,
        format!("{decision}: {} candidate(s)", candidates.len()),
        reasons,
    );

    // graph-expand
    let t = Instant::now();
    if state.memories.config.ask.expand {
        let (added, reasons) = expand::expand(state, &mut candidates)?;
        state.record(
            suffix(Stage::Expand),
            t,
            format!("{added} neighbour(s) added"),
            reasons,
        );
    } else {
        state.record(
            suffix(Stage::Expand),
            t,
            "off (ask.expand = false)".into(),
            Vec::new(),
        );
    }

    // verify
    let t = Instant::now();
    let mut pass = Pass {
        query,
        candidates,
        graph,
        history,
        confidence: verify::unverified(),
        weak: Vec::new(),
    };
    if state.memories.config.ask.verify {
        let reasons = verify::verify(state, &mut pass);
        let decision = format!(
            "confidence {:.2} ({}) = 0.30 × {:.2} retrieval + 0.15 × {:.2} coverage + 0.55 × {:.2} grounding{}",
            pass.confidence.score,
            pass.confidence.label,
            pass.confidence.retrieval,
            pass.confidence.coverage,
            pass.confidence.grounding,
            if pass.weak.is_empty() { "" } else { "; weak" }
        );
        state.record(suffix(Stage::Verify), t, decision, reasons);
    } else {
        pass.confidence = verify::trusted(&pass);
        state.record(
            suffix(Stage::Verify),
            t,
            "off (ask.verify = false): the first retrieval is trusted".into(),
            Vec::new(),
        );
    }
    Ok(pass)
}

/// The intents the graph retriever answers: structural ones, or definitions.
fn structural_intents(intents: &[Intent]) -> Vec<Intent> {
    let mut out: Vec<Intent> = intents
        .iter()
        .copied()
        .filter(|i| {
            matches!(
                i,
                Intent::Callers | Intent::Callees | Intent::Definition | Intent::Imports
            )
        })
        .collect();
    if out.is_empty() {
        out.push(Intent::Definition);
    }
    out
}

/// The semantic query: the question itself when it is worded, else the lexical text.
fn semantic_text(question: &str, lexical: &str) -> String {
    if lexical.is_empty() {
        question.to_string()
    } else {
        format!("{question} {lexical}")
    }
}

/// Ids of a pass's candidates.
pub fn ids(p: &Pass) -> HashSet<i64> {
    p.candidates.iter().map(|c| c.chunk_id).collect()
}

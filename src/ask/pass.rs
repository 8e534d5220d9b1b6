//! One retrieval pass: retrieve → fuse → graph-expand → verify, each a function that
//! records its decision in the trace. The first pass runs the routed query; each refine
//! attempt runs another (its stages recorded as `refine.*`).

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use anyhow::Result;

use super::classify::{EntityKind, Intent};
use super::route::Plan;
use super::{
    Candidate, Confidence, Evidence, GraphFact, HistoryFact, Stage, State, Strategy, expand,
    plan_text, retrieve, verify,
};
use crate::model::Memory;
use crate::search::ChunkLoc;
use crate::search::fuse::{Fused, RankedList, by_score, rrf};

/// What one retrieval pass searched for.
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    /// The text for the lexical and semantic retrievers.
    pub text: String,
    /// The semantic retriever's text when it is not `text`: a refine attempt that adds
    /// the repository's names for the lexical and graph routes keeps the semantic list of
    /// the question's own words (read again from the first pass, not searched twice).
    pub semantic: Option<String>,
    /// Names for the graph and history retrievers.
    pub targets: Vec<String>,
    pub plan: Plan,
}

impl Query {
    /// No word left for the text retrievers to look for: the readings (an author, a
    /// month) and the stop words took them all. Searching by meaning would embed the bare
    /// question and bring arbitrary chunks; switching the text weights changes nothing.
    pub fn has_no_words(&self) -> bool {
        self.semantic.is_none() && !self.text.chars().any(char::is_alphanumeric)
    }

    /// What makes two queries the same search (refine never runs one twice).
    pub fn signature(&self) -> String {
        format!(
            "{}|{}|{}|{}",
            self.text,
            self.semantic.as_deref().unwrap_or(""),
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
    /// The candidate that holds the question's sentence as written, if one of the first
    /// does ([`lift_written_as_asked`] put it first).
    pub written: Option<i64>,
}

/// What the retrieve stage found: one ranked list per memory of the plan, and the facts
/// the graph and history gave.
struct Retrieved {
    lists: Vec<RankedList>,
    graph: Vec<GraphFact>,
    history: Vec<HistoryFact>,
}

/// The subject words of a "why" question that names no definition or file, as written
/// and as stems, for the commit messages that hold them ("why was the remote config
/// support moved?"). A question when something was removed adds the verbs that say so:
/// "when was the kapt code generator removed?" is answered by "Remove KAPT support",
/// though `generator` names a definition (which was never removed).
fn message_search_words(state: &State) -> Vec<(String, String)> {
    let names = state
        .classification
        .entities
        .iter()
        .any(super::classify::Entity::names_code);
    if !(state.why || state.removed) || names || state.grep.is_some() {
        return Vec::new();
    }
    let mut words = message_words(&state.terms);
    if state.removed {
        words.push(("removed".into(), super::retrieve::REMOVAL_STEMS.into()));
    }
    // Files and modules are what a change to the layout is about ("why were the classes
    // split into separate files?" for "Refactor classes into files"), though a question
    // about code reads them as cues.
    for w in super::text::words(&state.question) {
        let lower = w.to_lowercase();
        if matches!(lower.as_str(), "file" | "files" | "module" | "modules") {
            let stem = super::text::stem(&lower);
            if !words.iter().any(|(_, s)| *s == stem) {
                words.push((lower, stem));
            }
        }
    }
    // A release the question names ("why was Python 3.8 support dropped?") is a word of
    // the messages too, as written.
    for v in super::text::versions(&state.question) {
        if !words.iter().any(|(_, s)| *s == v) {
            words.push((v.clone(), v));
        }
    }
    words
}

/// The words a commit message is searched for: each subject word as written (lower-cased)
/// and its stem, the stems of three letters or more, each stem once; a word that names an
/// input (argument, option, …) as any such word ([`super::text::message_stem`]).
pub(super) fn message_words(terms: &[String]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for t in terms {
        let stem = super::text::stem(t);
        if stem.len() < 3 {
            continue;
        }
        let stem = super::text::message_stem(&stem);
        if !out.iter().any(|(_, s)| *s == stem) {
            out.push((t.to_lowercase(), stem));
        }
    }
    out
}

/// One pass: retrieve with every memory of the plan, fuse, expand, verify. `strategy` is
/// the refine attempt that runs it (`None` for the first pass).
pub fn run_pass(state: &mut State, query: Query, strategy: Option<Strategy>) -> Result<Pass> {
    let stage = |s: Stage| match strategy {
        None => s,
        Some(_) => s.in_refine(),
    };
    let mut found = retrieve(state, &query, stage(Stage::Retrieve))?;
    let mut candidates = fuse(state, &found.lists, stage(Stage::Fuse), false)?;
    if crowded_by_tests(state, &candidates) {
        let added = search_past_tests(state, &query, &mut found.lists)?;
        if added > 0 {
            candidates = fuse(state, &found.lists, stage(Stage::Fuse), true)?;
            if let Some(last) = state.trace.last_mut() {
                last.reasons.push(format!(
                    "tests, examples or benchmarks held {CROWDED}+ of the first {CROWD_AMONG}: \
                     {added} more hit(s) from the code alone, the candidates kept with tests \
                     at × {TEST_DEMOTION}"
                ));
            }
        }
    }
    definitions_lead(state, &mut candidates);
    implementation_before_overloads(state, &mut candidates);
    implementation_before_type_stubs(state, &mut candidates);
    functions_before_their_constants(state, &mut candidates);
    functions_before_their_records(state, &mut candidates)?;
    named_definition_first(state, &found.lists, &mut candidates)?;
    expand(state, &mut candidates, stage(Stage::Expand))?;
    demote_tests(state, &mut candidates);
    action_before_its_predicate(state, &mut candidates);
    spelled_definition_first(state, &mut candidates);
    named_with_its_module_first(state, &mut candidates)?;
    member_before_its_bare_class(state, &mut candidates);
    work_before_a_bare_value(state, &mut candidates)?;
    let mut written = lift_written_as_asked(state, &mut candidates);
    if let Some(id) = lift_literal(state, &mut candidates)? {
        written = Some(id);
    }
    let mut pass = Pass {
        query,
        candidates,
        graph: found.graph,
        history: found.history,
        confidence: verify::unverified(),
        weak: Vec::new(),
        written,
    };
    verify(state, &mut pass, stage(Stage::Verify))?;
    Ok(pass)
}

/// Whether the question asks how or where something is done in the code (a how-to, a
/// locate or a concept question), which the reorderings below serve.
fn asks_about_code(state: &State) -> bool {
    matches!(
        state.classification.intents.first(),
        Some(Intent::Howto | Intent::Locate | Intent::Concept)
    )
}

/// How many of the first fused candidates [`crowded_by_tests`] reads, and how many of
/// them must be tests, examples or benchmarks.
const CROWD_AMONG: usize = 10;
const CROWDED: usize = 6;

/// Whether tests crowd the code out of a question about code: most of the first
/// candidates are tests, examples or benchmarks ("how does cJSON parse a number?": the
/// twelve functions of `tests/parse_number.c` held both lists, and `parse_number` was in
/// neither), and the question asks about none of them.
fn crowded_by_tests(state: &State, candidates: &[Candidate]) -> bool {
    asks_about_code(state)
        && state.allowed.is_none()
        && !asks_about_tests(&state.question)
        && !asks_about_benchmarks(&state.question)
        && candidates
            .iter()
            .take(CROWD_AMONG)
            .filter(|c| is_test_or_example(&c.loc.path))
            .count()
            >= CROWDED
}

/// The lexical and semantic lists searched again among the code alone (no test, example
/// or benchmark), its hits added below each list's own in the list's own scores, as a
/// list deep enough to reach past the tests would hold them. Returns how many it added.
fn search_past_tests(state: &mut State, query: &Query, lists: &mut [RankedList]) -> Result<usize> {
    let k = state.memories.config.ask.candidates.max(1);
    let mut added = 0;
    for list in lists.iter_mut() {
        let Some(text) = text_of(state, query, list.route) else {
            continue;
        };
        for (id, score) in state.memories.search_code(list.route, &text, k)? {
            if !list.hits.iter().any(|(h, _)| *h == id) {
                list.hits.push((id, score));
                added += 1;
            }
        }
        list.hits.sort_by(|a, b| b.1.total_cmp(&a.1));
    }
    Ok(added)
}

/// The retrieve stage: each memory of the plan, in the plan's order.
fn retrieve(state: &mut State, query: &Query, stage: Stage) -> Result<Retrieved> {
    let t = Instant::now();
    let candidates_n = state.memories.config.ask.candidates.max(1);
    let mut lists: Vec<RankedList> = Vec::new();
    let mut graph = Vec::new();
    let mut history = Vec::new();
    let mut reasons = Vec::new();
    for step in query.plan.steps.clone() {
        let ts = Instant::now();
        let hits = match step.memory {
            Memory::Graph => {
                let intents = structural_intents(&state.classification.intents);
                let importers = retrieve::asks_importers(&state.question);
                let (facts, hits) = retrieve::graph_facts(
                    &mut state.memories,
                    &intents,
                    &query.targets,
                    &state.terms,
                    importers,
                    200,
                )?;
                graph = facts;
                if state.allowed.is_some() {
                    for f in &mut graph {
                        f.rows.retain(|r| state.in_scope(&r.path));
                        f.references.retain(|r| state.in_scope(&r.path));
                        f.through_trait.retain(|r| state.in_scope(&r.path));
                    }
                }
                hits
            }
            Memory::History => {
                let message_words = message_search_words(state);
                let ask = retrieve::HistoryAsk {
                    targets: &query.targets,
                    terms: &state.terms,
                    since: state.since,
                    author: state.author.as_deref(),
                    oldest_first: state.introduced,
                    grep: state.grep.as_deref(),
                    until: state.until,
                    message_words: &message_words,
                    by_message_only: state.why_by_message,
                    removed: state.removed,
                };
                let (facts, hits) = retrieve::history_facts(&mut state.memories, &ask, 20)?;
                history = facts;
                hits
            }
            Memory::Lexical => state.memories.lexical(&query.text, candidates_n)?,
            Memory::Semantic => match text_of(state, query, Memory::Semantic) {
                Some(text) => state.memories.semantic(&text, candidates_n)?,
                None => Vec::new(),
            },
        };
        reasons.push(format!(
            "{} (weight {:.2}): {} hit(s) in {:.1} ms",
            step.memory,
            step.weight,
            hits.len(),
            ts.elapsed().as_secs_f64() * 1000.0
        ));
        lists.push(retrieve::list(step.memory, step.weight, hits));
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
    state.record(stage, t, decision, reasons);
    Ok(Retrieved {
        lists,
        graph,
        history,
    })
}

/// The fuse stage: the lists fused (or, with `ask.fuse = false`, only the heaviest one),
/// and the best hits turned into candidates with their chunk's location from the store.
/// With `past_tests` (tests crowd the lists: [`crowded_by_tests`]), every fused hit is
/// read, and the candidates kept are the best with tests, examples and benchmarks at
/// [`TEST_DEMOTION`] (kept at their fused scores: [`demote_tests`] demotes them).
fn fuse(
    state: &mut State,
    lists: &[RankedList],
    stage: Stage,
    past_tests: bool,
) -> Result<Vec<Candidate>> {
    let t = Instant::now();
    let cfg = &state.memories.config.ask;
    let (candidates_n, use_fuse, rrf_k) = (cfg.candidates.max(1), cfg.fuse, cfg.rrf_k);
    let keep = candidates_n.max(cfg.k);
    let (fused, decision) =
        if use_fuse && super::route::fused_by_score(lists.iter().map(|l| (l.route, l.weight))) {
            (
                by_score(lists),
                "weighted fusion of scores scaled to 0..1 in each list".to_string(),
            )
        } else if use_fuse {
            (
                rrf(lists, rrf_k),
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
    let (mut stale, mut outside) = (0, 0);
    // Narrowed by --path/--lang/--no-tests: read on until enough hits are in scope.
    let look = if state.allowed.is_some() || past_tests {
        usize::MAX
    } else {
        keep * 2
    };
    for f in fused.into_iter().take(look) {
        if candidates.len() >= keep && !past_tests {
            break;
        }
        match state.memories.read(|c| crate::store::chunk_loc(c, f.id))? {
            Some(loc) if !state.in_scope(&loc.path) => outside += 1,
            Some(loc) => candidates.push(candidate(loc, &f)),
            None => stale += 1,
        }
    }
    if past_tests && candidates.len() > keep {
        let demoted = |c: &Candidate| {
            c.score
                * if is_test_or_example(&c.loc.path) {
                    TEST_DEMOTION
                } else {
                    1.0
                }
        };
        candidates.sort_by(|a, b| demoted(b).total_cmp(&demoted(a)));
        candidates.truncate(keep);
        candidates.sort_by(|a, b| b.score.total_cmp(&a.score));
    }
    let mut reasons = Vec::new();
    if outside > 0 {
        reasons.push(format!(
            "{outside} hit(s) left out: outside --path/--lang/--no-tests"
        ));
    }
    if stale > 0 {
        reasons.push(format!(
            "{stale} hit(s) dropped: their chunks left the store"
        ));
    }
    if let Some(top) = candidates.first() {
        reasons.push(format!(
            "best: {}:{}-{} {} ({:.4})",
            top.loc.path,
            top.loc.start_line,
            top.loc.end_line,
            top.loc.symbol.as_deref().unwrap_or(""),
            top.score
        ));
    }
    state.record(
        stage,
        t,
        format!("{decision}: {} candidate(s)", candidates.len()),
        reasons,
    );
    Ok(candidates)
}

/// A fused hit as a candidate, with its evidence from each route.
fn candidate(loc: ChunkLoc, f: &Fused) -> Candidate {
    Candidate {
        loc,
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
    }
}

/// The graph-expand stage (unless `ask.expand = false`).
fn expand(state: &mut State, candidates: &mut Vec<Candidate>, stage: Stage) -> Result<()> {
    let t = Instant::now();
    if state.memories.config.ask.expand {
        let (added, reasons) = expand::expand(state, candidates)?;
        state.record(stage, t, format!("{added} neighbour(s) added"), reasons);
    } else {
        state.record(stage, t, "off (ask.expand = false)".into(), Vec::new());
    }
    Ok(())
}

/// The verify stage: the pass's confidence, and whether its evidence is weak (unless
/// `ask.verify = false`, when the first retrieval is trusted).
fn verify(state: &mut State, pass: &mut Pass, stage: Stage) -> Result<()> {
    let t = Instant::now();
    if state.memories.config.ask.verify {
        let reasons = verify::verify(state, pass)?;
        let c = &pass.confidence;
        let decision = format!(
            "confidence {:.2} ({}): retrieval {:.2}, coverage {:.2}, grounding {:.2}, margin {:.2}, unknown words {:.2}{}",
            c.score,
            c.label,
            c.retrieval,
            c.coverage,
            c.grounding,
            c.margin,
            c.unknown,
            if pass.weak.is_empty() { "" } else { "; weak" }
        );
        state.record(stage, t, decision, reasons);
    } else {
        pass.confidence = verify::trusted(pass);
        state.record(
            stage,
            t,
            "off (ask.verify = false): the first retrieval is trusted".into(),
            Vec::new(),
        );
    }
    Ok(())
}

/// A test, fixture or example ranks at this share of its score below the code it
/// exercises, for a question about how or where something is done. (At a half,
/// hyperfine's `test_detect_outliers`, which says "outliers" a dozen times, led "how are
/// outliers detected?" over its module's doc.)
const TEST_DEMOTION: f64 = 0.3;

/// "Where is X defined?": of the definitions the graph found for X, a type stub that only
/// declares it (`__init__.pyi`, `index.d.ts`), a constant that rebinds the name of a
/// class or function in its file (`Attribute = _add_hash(Attribute)`), unless the
/// question asks about tests a test's or an example's, and a member of that name
/// (`Markup.escape`) when a definition is named exactly so, come after the others. Fusion by rank would let a third route's far match lift the constant above
/// the class it rebinds. The fused scores of those definitions are dealt out again in
/// that order, so the scores the confidence reads stay the same.
fn definitions_lead(state: &State, candidates: &mut [Candidate]) {
    if state.classification.intents.as_slice() != [Intent::Definition] {
        return;
    }
    let from_graph = |c: &Candidate| c.evidence.iter().any(|e| e.route == super::Route::Graph);
    // (behind, position) of each definition from the graph; the candidates are in fused
    // order, so sorting these keeps that order among the ones that stay ahead.
    let graph_defs: Vec<(usize, &Candidate)> = candidates
        .iter()
        .enumerate()
        .filter(|(_, c)| from_graph(c))
        .collect();
    let keys = super::retrieve::stub_or_rebinding(graph_defs.iter().map(|(_, c)| {
        (
            c.loc.path.as_str(),
            c.loc.symbol.as_deref(),
            c.loc.kind == "constant",
        )
    }));
    // A test's or an example's definition of the name (a schema's `post_dump` hook in
    // a test) comes after the code's, unless the question asks about tests; and a bare
    // name's member (`Markup.escape`) after the definition so named (`escape`).
    let tests = asks_about_tests(&state.question);
    let named: Vec<&str> = state.classification.identifiers().collect();
    // The one bare name asked about ("how does escape work?"), not a name placed in a
    // type ("`describe` … for Shelf" asks for `Shelf.describe`).
    let bare = match named.as_slice() {
        [one] if !one.contains(['.', ':']) => Some(*one),
        _ => None,
    };
    let symbol = |c: &Candidate| c.loc.symbol.clone().unwrap_or_default();
    let any_exact = bare.is_some_and(|n| graph_defs.iter().any(|(_, c)| symbol(c) == n));
    let member_of_bare = |c: &Candidate| {
        bare.is_some_and(|n| {
            let s = symbol(c);
            s.len() > n.len() && s.ends_with(n) && s[..s.len() - n.len()].ends_with(['.', ':'])
        })
    };
    let mut defs: Vec<(bool, usize)> = graph_defs
        .iter()
        .zip(keys)
        .map(|(&(i, c), (stub, rebinds))| {
            let test = !tests && is_test_or_example(&c.loc.path);
            let member = any_exact && member_of_bare(c);
            (stub || rebinds || test || member, i)
        })
        .collect();
    if !defs.iter().any(|d| d.0) {
        return;
    }
    defs.sort_unstable();
    let order: Vec<usize> = defs.iter().map(|&(_, i)| i).collect();
    if deal_scores(candidates, &order) {
        candidates.sort_by(|a, b| b.score.total_cmp(&a.score));
    }
}

/// Deals the fused scores of the candidates at `order` out again, the best to the first
/// of `order`: a reordering among them that leaves the scores the confidence reads as
/// they were. Returns whether a score moved (the caller sorts the candidates again).
fn deal_scores(candidates: &mut [Candidate], order: &[usize]) -> bool {
    let mut scores: Vec<f64> = order.iter().map(|&i| candidates[i].score).collect();
    scores.sort_by(|a, b| b.total_cmp(a));
    let mut moved = false;
    for (&i, score) in order.iter().zip(scores) {
        moved |= candidates[i].score != score;
        candidates[i].score = score;
    }
    moved
}

/// Several definitions of one qualified name in one file, some of them stubs that only
/// declare it: Python's `@overload`s (a body of `...`) before the implementation, a
/// TypeScript function's overload signatures before its body. The stubs' few lines can
/// match a question's words better than the code that does what it asks ("how does the
/// timestamp signer check the max age?" found `unsign`'s two `@overload`s before
/// `unsign`). The group's fused scores are dealt out again, the definitions with a body
/// first, each side in its order, so the scores the confidence reads stay the same. A
/// property's getter and setter (no stub) and the chunks of one long definition (one
/// symbol) are left as they are.
fn implementation_before_overloads(state: &mut State, candidates: &mut [Candidate]) {
    let mut groups: HashMap<(String, String), Vec<usize>> = HashMap::new();
    for (i, c) in candidates.iter().enumerate() {
        if let (Some(symbol), Some(_)) = (c.loc.symbol.as_deref(), c.loc.symbol_id)
            && matches!(c.loc.kind.as_str(), "function" | "method")
        {
            groups
                .entry((c.loc.path.clone(), symbol.to_string()))
                .or_default()
                .push(i);
        }
    }
    let mut moved = false;
    for members in groups.into_values() {
        let ids: HashSet<Option<i64>> = members
            .iter()
            .map(|&i| candidates[i].loc.symbol_id)
            .collect();
        if members.len() < 2 || ids.len() < members.len() {
            continue;
        }
        let stubs: Vec<bool> = members
            .iter()
            .map(|&i| {
                let c = &candidates[i].loc;
                is_stub(&state.text.text(&c.path, c.start_line, c.end_line))
            })
            .collect();
        moved |= deal_behind(candidates, &members, &stubs);
    }
    if moved {
        candidates.sort_by(|a, b| b.score.total_cmp(&a.score));
    }
}

/// Deals the fused scores of `members` (in fused order) out again, those `behind` says
/// after the others, each side in its order: [`deal_scores`] for a group of which some,
/// not all, stand behind. Returns whether a score moved.
fn deal_behind(candidates: &mut [Candidate], members: &[usize], behind: &[bool]) -> bool {
    if behind.iter().all(|&b| b) || !behind.iter().any(|&b| b) {
        return false;
    }
    // A stable sort keeps the fused order on each side.
    let mut order: Vec<(bool, usize)> = behind
        .iter()
        .copied()
        .zip(members.iter().copied())
        .collect();
    order.sort_by_key(|&(b, _)| b);
    let order: Vec<usize> = order.into_iter().map(|(_, i)| i).collect();
    deal_scores(candidates, &order)
}

/// "how does evolve create a changed copy of an instance?" (attrs): a type stub that only
/// declares a function, method or class (`__init__.pyi`, `index.d.ts`) matches the
/// question's words in a line or two, and led the implementation it declares
/// (`_make.py`'s `evolve`). Of the candidates of one qualified name, some in type stubs
/// and some not, the fused scores are dealt out again, the implementations first, each
/// side in its order, so the scores the confidence reads stay the same. A question about
/// the stubs or the types themselves keeps its order; "where is X defined?" is
/// [`definitions_lead`]'s.
fn implementation_before_type_stubs(state: &State, candidates: &mut [Candidate]) {
    if state.classification.intents.first() == Some(&Intent::Definition)
        || asks_about_types(&state.question)
    {
        return;
    }
    let mut groups: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, c) in candidates.iter().enumerate() {
        if let Some(symbol) = c.loc.symbol.as_deref()
            && matches!(c.loc.kind.as_str(), "function" | "method" | "class")
        {
            groups.entry(symbol).or_default().push(i);
        }
    }
    let groups: Vec<Vec<usize>> = groups.into_values().collect();
    let mut moved = false;
    for members in groups {
        let stubs: Vec<bool> = members
            .iter()
            .map(|&i| crate::source::is_type_stub(&candidates[i].loc.path))
            .collect();
        moved |= deal_behind(candidates, &members, &stubs);
    }
    if moved {
        candidates.sort_by(|a, b| b.score.total_cmp(&a.score));
    }
}

/// Whether a question asks about type stubs or type annotations themselves.
fn asks_about_types(question: &str) -> bool {
    let lower = question.to_lowercase();
    lower.contains(".pyi")
        || lower.contains(".d.ts")
        || lower.contains("type hint")
        || says_any(
            &lower,
            &[
                "stub",
                "stubs",
                "pyi",
                "typing",
                "typed",
                "annotation",
                "annotations",
                "signature",
                "signatures",
                "declaration",
                "declarations",
                "overload",
                "overloads",
            ],
        )
}

/// Candidates among which a constant gives way to the function it names.
const CONSTANT_YIELDS_AMONG: usize = 10;

/// "how does boltons parse URLs?": a constant whose value names a function or class the
/// candidates hold (`DEFAULT_PARSED_URL = parse_url('')`, `parse_td = parse_timedelta`)
/// is one use of it, and its one line matches the question's words better than the body
/// that does what is asked. Of the first candidates, each such pair's fused scores are
/// dealt out again, the function first, so the scores the confidence reads stay the same.
/// A question that asks where a name is defined keeps its order (`definitions_lead`).
fn functions_before_their_constants(state: &mut State, candidates: &mut [Candidate]) {
    if state.classification.intents.first() != Some(&Intent::Concept) {
        return;
    }
    let top = candidates.len().min(CONSTANT_YIELDS_AMONG);
    let mut moved = false;
    for i in 0..top {
        let c = &candidates[i].loc;
        if c.kind != "constant" || c.end_line.saturating_sub(c.start_line) > 2 {
            continue;
        }
        let text = state.text.text(&c.path, c.start_line, c.end_line);
        // The value: what follows the first `=` (or `:=`).
        let Some((_, value)) = text.split_once('=') else {
            continue;
        };
        let named: HashSet<&str> = super::text::words(value).collect();
        let used = (i + 1..top).find(|&j| {
            let d = &candidates[j].loc;
            matches!(d.kind.as_str(), "function" | "method" | "class")
                && d.symbol
                    .as_deref()
                    .and_then(|s| s.rsplit(['.', ':']).next())
                    .is_some_and(|name| named.contains(name))
        });
        if let Some(j) = used {
            moved |= deal_scores(candidates, &[j, i]);
        }
    }
    if moved {
        candidates.sort_by(|a, b| b.score.total_cmp(&a.score));
    }
}

/// The longest record (a class with no methods) that gives way to a function returning it.
const RECORD_MAX_LINES: u32 = 12;

/// "how does packaging detect the musl version?": a record among the first candidates
/// (`class _MuslVersion(NamedTuple)`, a class of fields and no methods) shares the
/// question's words with the function that makes it (`def _get_musl_version(...) ->
/// _MuslVersion | None`), and its few lines match them better than the body that does
/// what is asked. So does `ParsedRequirement` with `_parse_requirement` for "where is a
/// requirement string parsed?". Of a concept or locate question's first candidates, each
/// such record deals its fused score with the first function or method below it whose
/// signature names it, the function first.
///
/// An error class does the same with the first function or method below it that raises
/// it: "how are HTTP request headers parsed?" (gunicorn) had `LimitRequestHeaders`, whose
/// name is the question's words, above `Message.parse_headers`, which raises it while it
/// parses them. Not for a question about errors.
fn functions_before_their_records(state: &mut State, candidates: &mut [Candidate]) -> Result<()> {
    if !matches!(
        state.classification.intents.first(),
        Some(Intent::Concept | Intent::Locate)
    ) {
        return Ok(());
    }
    let about_errors = asks_about_errors(&state.question);
    let top = candidates.len().min(CONSTANT_YIELDS_AMONG);
    let below = candidates.len().min(2 * CONSTANT_YIELDS_AMONG);
    let mut moved = false;
    for i in 0..top {
        let c = &candidates[i].loc;
        let (Some(id), Some(name)) = (c.symbol_id, c.symbol.as_deref()) else {
            continue;
        };
        if c.kind != "class" || c.end_line.saturating_sub(c.start_line) >= RECORD_MAX_LINES {
            continue;
        }
        let name = name.rsplit(['.', ':']).next().unwrap_or(name).to_string();
        let record = state
            .memories
            .read(|conn| crate::store::lookups::nested_functions(conn, id))?
            .is_empty();
        // The function raising it may be further down: tests can crowd the first
        // candidates until they are demoted.
        let yields = (i + 1..below).find(|&j| {
            let d = &candidates[j].loc;
            if !matches!(d.kind.as_str(), "function" | "method") {
                return false;
            }
            let text = state.text.text(&d.path, d.start_line, d.end_line);
            (record
                && j < top
                && signature(&text).is_some_and(|sig| super::text::words(sig).any(|w| w == name)))
                || (!about_errors && raises(&text, &name))
        });
        if let Some(j) = yields {
            moved |= deal_scores(candidates, &[j, i]);
        }
    }
    if moved {
        candidates.sort_by(|a, b| b.score.total_cmp(&a.score));
    }
    Ok(())
}

/// Whether a question asks about errors themselves ("which error is raised when …").
fn asks_about_errors(question: &str) -> bool {
    says_any(
        question,
        &[
            "error",
            "errors",
            "exception",
            "exceptions",
            "raise",
            "raises",
            "raised",
            "throw",
            "throws",
            "thrown",
            "fail",
            "fails",
            "failure",
        ],
    )
}

/// Whether `text` raises or throws the error `name` (`raise Name(…)`, `throw new Name(…)`,
/// `throw Name(…)`).
fn raises(text: &str, name: &str) -> bool {
    let words: Vec<&str> = super::text::words(text).collect();
    words
        .windows(2)
        .any(|w| w[1] == name && matches!(w[0], "raise" | "throw"))
        || words
            .windows(3)
            .any(|w| w[2] == name && w[0] == "throw" && w[1] == "new")
}

/// A definition's signature: its text up to the end of the line that opens its body
/// (`:` at a line's end, or `{`), at most its first four lines.
fn signature(text: &str) -> Option<&str> {
    let mut end = 0;
    for line in text.split_inclusive('\n').take(4) {
        end += line.len();
        let t = line.trim_end();
        if t.ends_with(':') || t.contains('{') {
            return Some(&text[..end]);
        }
    }
    None
}

/// Whether a definition's text only declares it: a Python body of `...` (an
/// `@overload`, a protocol's method), or a signature ended by `;` with no body (a
/// TypeScript overload, an abstract or interface method).
fn is_stub(text: &str) -> bool {
    let t = text.trim_end();
    t.ends_with("...") || (t.ends_with(';') && !t.contains('{'))
}

/// A concept question whose subject is a definition named by its identifier ("how does
/// atomWithStorage persist values to localStorage?") is answered by that definition
/// first. The graph finds it by name but weighs in only to break ties for questions in
/// prose, so its words alone can leave it below the guides that mention it. Of the first
/// few definitions the graph lists, the first function or method that is code (not a
/// test, an example or documentation) is put first.
fn named_definition_first(
    state: &mut State,
    lists: &[RankedList],
    candidates: &mut Vec<Candidate>,
) -> Result<()> {
    // The identifier is the question's subject: "how does atomWithStorage persist …",
    // not a name its words mention ("how does marshmallow return the `Field` pairs").
    let question = state.question.to_lowercase().replace('`', "");
    let subject = ["how does ", "how do ", "how is ", "how are "]
        .iter()
        .find_map(|lead| question.strip_prefix(lead))
        .and_then(|rest| rest.split_whitespace().next())
        .map(|w| w.trim_end_matches(['?', '.', ',', '!', ':']).to_string());
    let named = state
        .classification
        .entities
        .iter()
        .any(|e| e.kind == EntityKind::Identifier && Some(e.text.to_lowercase()) == subject);
    if state.classification.intents.first() != Some(&Intent::Concept) || !named {
        return Ok(());
    }
    let Some(graph) = lists.iter().find(|l| l.route == Memory::Graph) else {
        return Ok(());
    };
    for (rank, &(id, score)) in graph.hits.iter().enumerate().take(NAMED_AMONG) {
        let at = candidates.iter().position(|c| c.loc.chunk_id == id);
        let loc = match at {
            Some(at) => candidates[at].loc.clone(),
            None => match state.memories.read(|c| crate::store::chunk_loc(c, id))? {
                Some(loc) => loc,
                None => continue,
            },
        };
        // A function or method: of a class, the method that does what is asked answers
        // better than the class ("how does AsyncClient send a request?").
        let is_code = is_code_function(&loc) && !marked_as_test(state, &loc);
        if !is_code || !state.in_scope(&loc.path) {
            continue;
        }
        let at = match at {
            Some(0) => return Ok(()),
            Some(at) => at,
            // Fused below the candidates kept: it joins them.
            None => {
                let top = candidates.first().map_or(1.0, |c| c.score);
                candidates.push(Candidate {
                    loc,
                    score: top,
                    evidence: vec![Evidence {
                        route: super::Route::Graph,
                        rank: rank + 1,
                        score,
                    }],
                    expanded_from: None,
                    lines: Vec::new(),
                });
                candidates.len() - 1
            }
        };
        put_first(
            state,
            candidates,
            at,
            "the definition of what the question names",
        );
        return Ok(());
    }
    Ok(())
}

/// A function or method of the code: named, in no test, example or documentation, and
/// not named as a test (its attributes are [`marked_as_test`]'s, which reads its lines).
fn is_code_function(loc: &ChunkLoc) -> bool {
    matches!(loc.kind.as_str(), "function" | "method")
        && !is_test_or_example(&loc.path)
        && !is_prose(&loc.path)
        && loc.symbol.as_deref().is_some_and(|s| !is_test_symbol(s))
}

/// How many of the graph's definitions [`named_definition_first`] reads.
const NAMED_AMONG: usize = 5;

/// Tests, fixtures and examples below the implementation for how/where/concept
/// questions, unless the question asks about tests or examples.
fn demote_tests(state: &mut State, candidates: &mut [Candidate]) {
    let about_code = asks_about_code(state);
    let lower = state.question.to_lowercase();
    let asks_tests = asks_about_tests(&state.question);
    let asks_benches = asks_about_benchmarks(&state.question);
    // "Where is X handled?" asks for code: prose documentation ranks below it unless the
    // question asks about documentation. (How and why questions keep the docs where
    // their words put them: a guide may answer them best.)
    let locate = state.classification.intents.first() == Some(&Intent::Locate);
    let asks_docs = asks_about_docs(&lower);
    if !about_code {
        return;
    }
    let (mut demoted, mut docs) = (0, 0);
    for c in candidates.iter_mut() {
        let test_code = is_test_or_example_only(&c.loc.path)
            || (!asks_benches && is_bench(&c.loc.path))
            || c.loc.symbol.as_deref().is_some_and(is_test_symbol)
            || marked_as_test(state, &c.loc);
        if !asks_tests && test_code {
            c.score *= TEST_DEMOTION;
            demoted += 1;
        } else if locate && !asks_docs && is_prose(&c.loc.path) {
            c.score *= TEST_DEMOTION;
            docs += 1;
        }
    }
    if demoted + docs > 0 {
        candidates.sort_by(|a, b| b.score.total_cmp(&a.score));
        if let Some(last) = state.trace.last_mut() {
            if demoted > 0 {
                last.reasons.push(format!(
                    "{demoted} test, fixture or example chunk(s) at × {TEST_DEMOTION}: the question is not about tests"
                ));
            }
            if docs > 0 {
                last.reasons.push(format!(
                    "{docs} documentation chunk(s) at × {TEST_DEMOTION}: the question asks where code is"
                ));
            }
        }
    }
}

/// A sentence to locate that a chunk of code holds as written (a doc comment or a message
/// pasted into the question: "Remove the converter from the path.") puts that chunk first:
/// no ranking of words says more than the words themselves, in order. So does a sentence
/// asked how it is done ("how does it remove the converter from the path?"). Only the first
/// [`LIFT_AMONG`] candidates are read, only code (not tests, examples or documentation),
/// and only a sentence of four words or more.
/// Returns the chunk id of that candidate.
fn lift_written_as_asked(state: &mut State, candidates: &mut [Candidate]) -> Option<i64> {
    let question = flatten(state.question.lines());
    let question = question.trim_end_matches(['.', '?', '!', ':', ';']);
    let sentences: Vec<&str> = match state.classification.intents.first() {
        // "where is the code for a class decorator that adds …" asks for the chunk that
        // says "A class decorator that adds …".
        Some(Intent::Locate) => vec![
            WHERE_IS_THE_CODE
                .iter()
                .find_map(|lead| question.strip_prefix(lead))
                .unwrap_or(question),
        ],
        // "how does werkzeug return the built environ?" asks how the code that says
        // "Return the built environ." does it; "how does the main settings for a benchmark
        // session work?" about the code that says "The main settings for …".
        // "explain draw space around content" about the code that says "Draw space around
        // content."
        Some(Intent::Concept) => match question.strip_prefix("explain ") {
            Some(rest) => vec![rest],
            None => {
                let rest = ["how does ", "how do "]
                    .iter()
                    .find_map(|lead| question.strip_prefix(lead))?;
                let after_subject = rest.split_once(' ').map(|(_, s)| s);
                let before_work = rest.strip_suffix(" work");
                after_subject.into_iter().chain(before_work).collect()
            }
        },
        _ => return None,
    };
    let sentences: Vec<&str> = sentences
        .into_iter()
        .filter(|s| s.split(' ').count() >= 4)
        .collect();
    if sentences.is_empty() {
        return None;
    }
    // "the code that runs the benchmark for a single command" is the code that says "Run
    // the benchmark for a single command": the first verb also without its -s or -es.
    let bare: Vec<String> = sentences
        .iter()
        .filter_map(|s| s.split_once(' '))
        .flat_map(|(verb, rest)| {
            crate::search::tokenize::without_endings(verb, &["s", "es"])
                .into_iter()
                .filter(|b| b.len() >= 2)
                .map(move |b| format!("{b} {rest}"))
        })
        .collect();
    let sentences: Vec<&str> = sentences
        .into_iter()
        .chain(bare.iter().map(String::as_str))
        .collect();
    let holder = candidates.iter().take(LIFT_AMONG).position(|c| {
        if is_test_or_example(&c.loc.path) || is_prose(&c.loc.path) {
            return false;
        }
        let text = flatten(
            state
                .text
                .lines(&c.loc.path, c.loc.start_line, c.loc.end_line)
                .iter()
                .map(String::as_str),
        );
        sentences.iter().any(|s| text.contains(s))
    });
    let at = holder?;
    if at == 0 {
        return Some(candidates[0].loc.chunk_id);
    }
    put_first(
        state,
        candidates,
        at,
        "it holds the question's sentence as written",
    );
    Some(candidates[0].loc.chunk_id)
}

/// A string the question quotes ("where is ':strong or :weak expected' raised?") or an
/// HTTP header it names ("how is the If-None-Match header handled?") is in the code as
/// written, and the code that holds it answers a where or how question, though its
/// words are common ones that other names hold more often (`LinkHeader` for "header",
/// "match"). The first code chunk (no test or documentation, unless the question asks
/// about them) that holds it, case aside, leads: among the first [`LIFT_AMONG`]
/// candidates, else among the lexical index's best for its words, added. A header is also
/// found as code writes it in a name (`HTTP_IF_NONE_MATCH`). Returns that chunk's id.
fn lift_literal(state: &mut State, candidates: &mut Vec<Candidate>) -> Result<Option<i64>> {
    if !matches!(
        state.classification.intents.first(),
        Some(Intent::Locate | Intent::Concept | Intent::Howto)
    ) {
        return Ok(None);
    }
    let forms = literal_forms(state);
    if forms.is_empty() {
        return Ok(None);
    }
    let (asks_tests, asks_docs) = (
        asks_about_tests(&state.question),
        asks_about_docs(&state.question.to_lowercase()),
    );
    let holds = |state: &mut State, loc: &ChunkLoc| {
        if (!asks_tests && is_test_or_example(&loc.path)) || (!asks_docs && is_prose(&loc.path)) {
            return false;
        }
        let text = state
            .text
            .lines(&loc.path, loc.start_line, loc.end_line)
            .join("\n")
            .to_lowercase();
        forms.iter().any(|f| text.contains(f.as_str()))
    };
    if let Some(at) = candidates
        .iter()
        .take(LIFT_AMONG)
        .position(|c| holds(&mut *state, &c.loc))
    {
        if at > 0 {
            put_first(
                state,
                candidates,
                at,
                "it holds the string the question names",
            );
        }
        return Ok(Some(candidates[0].loc.chunk_id));
    }
    let words = forms[0].replace(|c: char| !c.is_alphanumeric(), " ");
    let hits = state.memories.lexical(&words, LIFT_AMONG)?;
    for (rank, (id, score)) in hits.into_iter().enumerate() {
        let Some(loc) = state.memories.read(|c| crate::store::chunk_loc(c, id))? else {
            continue;
        };
        if !state.in_scope(&loc.path) || !holds(&mut *state, &loc) {
            continue;
        }
        let found = Candidate {
            loc,
            score: candidates.first().map_or(1.0, |c| c.score),
            evidence: vec![Evidence {
                route: Memory::Lexical.into(),
                rank: rank + 1,
                score,
            }],
            expanded_from: None,
            lines: Vec::new(),
        };
        let why = format!(
            "it holds the string the question names (lexical #{})",
            rank + 1
        );
        insert_first(state, candidates, found, &why);
        return Ok(Some(id));
    }
    Ok(None)
}

/// "how does the blocking client work?" in reqwest: `Client` in `src/blocking/client.rs`,
/// a name qualified by its module as Rust writes it (`blocking::Client`), though no
/// identifier is written. Tests that say "blocking client" in their names held both
/// lists. A concept or how-to question that names no code, whose words give a module
/// (one or two words, each a part of a directory's or the file's name) and then a name
/// (one or two words, joined as code writes them: `Client`, `RequestBuilder`,
/// `request_builder`) that exactly one file of code (not a test, unless asked) defines
/// under that module, is answered first by that file's definition of the name: a type
/// before a function, a top-level one before a nested one.
fn named_with_its_module_first(state: &mut State, candidates: &mut Vec<Candidate>) -> Result<()> {
    if !matches!(
        state.classification.intents.first(),
        Some(Intent::Concept | Intent::Howto)
    ) || state
        .classification
        .entities
        .iter()
        .any(|e| matches!(e.kind, EntityKind::Identifier | EntityKind::Path))
    {
        return Ok(());
    }
    // The module and the name are the whole subject: "how does the wasm client send
    // requests?" asks about a method of it.
    let words: Vec<String> = state
        .terms
        .iter()
        .map(|t| t.to_lowercase())
        .filter(|t| !matches!(t.as_str(), "work" | "works" | "implemented" | "designed"))
        .collect();
    if words
        .iter()
        .any(|t| t.len() < 3 || !t.chars().all(|c| c.is_ascii_alphabetic()))
    {
        return Ok(());
    }
    let asks_tests = asks_about_tests(&state.question);
    let mut found: Option<(i64, String)> = None;
    for module_len in 1..=2 {
        if !(1..=2).contains(&words.len().saturating_sub(module_len)) {
            continue;
        }
        let (module, name) = words.split_at(module_len);
        let pascal: String = name.iter().map(|w| capitalised(w)).collect();
        let mut defs = Vec::new();
        for form in [pascal, name.join("_")] {
            defs.extend(
                state
                    .memories
                    .read(|c| crate::graph::query::find_defs(c, &form))?
                    .into_iter()
                    .map(|d| (d.symbol.len() > form.len(), d)),
            );
        }
        let mut under: Vec<&(bool, crate::graph::query::Def)> = defs
            .iter()
            .filter(|(_, d)| {
                (asks_tests || !is_test_or_example(&d.path))
                    && !is_prose(&d.path)
                    && state.in_scope(&d.path)
                    && module.iter().all(|w| path_names(&d.path).contains(w))
            })
            .collect();
        let mut files: Vec<&str> = under.iter().map(|(_, d)| d.path.as_str()).collect();
        files.sort_unstable();
        files.dedup();
        if files.len() != 1 {
            continue;
        }
        under.sort_by_key(|(nested, d)| (!is_type_kind(d.kind.as_str()), *nested, d.line));
        let d = &under[0].1;
        found = Some((d.id, d.path.clone()));
        break;
    }
    let Some((symbol_id, path)) = found else {
        return Ok(());
    };
    let Some(chunk) = state
        .memories
        .read(|c| crate::store::lookups::def_chunk(c, &path, symbol_id))?
    else {
        return Ok(());
    };
    let why = "the question names it with its module";
    if let Some(at) = candidates.iter().position(|c| c.loc.chunk_id == chunk) {
        if at > 0 {
            put_first(state, candidates, at, why);
        }
        return Ok(());
    }
    let Some(loc) = state.memories.read(|c| crate::store::chunk_loc(c, chunk))? else {
        return Ok(());
    };
    let found = Candidate {
        loc,
        score: candidates.first().map_or(1.0, |c| c.score),
        evidence: vec![Evidence {
            route: Memory::Graph.into(),
            rank: 1,
            score: 1.0,
        }],
        expanded_from: None,
        lines: Vec::new(),
    };
    insert_first(state, candidates, found, why);
    Ok(())
}

fn capitalised(w: &str) -> String {
    let mut cs = w.chars();
    cs.next()
        .map(|f| f.to_ascii_uppercase().to_string() + cs.as_str())
        .unwrap_or_default()
}

/// The lower-case parts of a path's directory names and its file's stem:
/// `src/async_impl/client.rs` → `src`, `async`, `impl`, `client`.
fn path_names(path: &str) -> Vec<String> {
    let stem_end = path
        .rfind('.')
        .filter(|&i| i > path.rfind('/').map_or(0, |j| j + 1));
    let path = stem_end.map_or(path, |i| &path[..i]);
    path.split('/')
        .flat_map(super::text::split_identifier)
        .collect()
}

/// Whether a definition kind is a type's: what a subject's name names first.
fn is_type_kind(kind: &str) -> bool {
    matches!(
        kind,
        "struct" | "class" | "interface" | "trait" | "enum" | "protocol" | "object" | "type"
    )
}

/// The lower-case forms of the strings the question quotes (of two words or more: a
/// quoted name is an identifier, found as one) and of the HTTP headers it names
/// (`X-Cascade`: two or more capitalised parts joined by `-`), a header also with `_`
/// for `-`.
fn literal_forms(state: &State) -> Vec<String> {
    let mut forms: Vec<String> = state
        .classification
        .entities
        .iter()
        .filter(|e| e.kind == EntityKind::Quoted && e.text.split_whitespace().count() >= 2)
        .map(|e| e.text.to_lowercase())
        .collect();
    for word in state.question.split_whitespace() {
        let w = word.trim_matches(|c: char| !c.is_alphanumeric());
        let parts: Vec<&str> = w.split('-').collect();
        let header = parts.len() >= 2
            && parts.iter().all(|p| {
                p.starts_with(|c: char| c.is_ascii_uppercase())
                    && p.chars().all(|c| c.is_ascii_alphanumeric())
            });
        if header {
            forms.push(w.to_lowercase());
            forms.push(w.to_lowercase().replace('-', "_"));
        }
    }
    forms.dedup();
    forms
}

/// A function whose name the question spells in prose ("where are inline tables
/// parsed?" and `_parse_inline_table`, "how does tomlkit parse a table header?" and
/// `_parse_table`) answers it before the class or the renderer its words also match.
/// Of a how, where or what question's first [`SPELLED_AMONG`] candidates, the function
/// or method (code, no test) whose own name has two parts or more, each a word of the
/// question (stem-insensitive), and spells at least two thirds of the question's subject
/// words (the project's name aside) is put first; of several, the one whose name spells
/// the most words, then the best ranked. A question that names an identifier is left to
/// [`named_definition_first`].
fn spelled_definition_first(state: &mut State, candidates: &mut [Candidate]) {
    let about_code = asks_about_code(state);
    let names_identifier = state
        .classification
        .entities
        .iter()
        .any(|e| e.kind == EntityKind::Identifier);
    if !about_code || names_identifier || asks_about_tests(&state.question) {
        return;
    }
    let project = super::project_name(state.memories.root);
    let asked: HashSet<String> = super::text::content_terms(&state.question, &state.classification)
        .iter()
        .filter(|t| Some(t.to_lowercase()) != project)
        .flat_map(|t| super::text::split_identifier(t))
        .map(|w| super::text::stem(&w))
        .collect();
    let mut best: Option<(usize, usize)> = None;
    for (at, c) in candidates.iter().enumerate().take(SPELLED_AMONG) {
        let loc = &c.loc;
        let Some(symbol) = loc.symbol.as_deref().filter(|_| is_code_function(loc)) else {
            continue;
        };
        let own = symbol.rsplit(['.', ':']).next().unwrap_or(symbol);
        let parts: Vec<String> = super::text::split_identifier(own)
            .iter()
            .filter(|p| !p.is_empty())
            .map(|p| super::text::stem(p))
            .collect();
        let distinct: HashSet<&String> = parts.iter().collect();
        // Most of what is asked: "where is a string escaped when it is written?" and
        // `escape_string`, not "… register a new route with a matcher for the URL path?"
        // and `URLPath`.
        let spelled = parts.len() >= 2
            && parts.iter().all(|p| asked.contains(p))
            && 3 * distinct.len() >= 2 * asked.len();
        if spelled && best.is_none_or(|(_, n)| distinct.len() > n) {
            best = Some((at, distinct.len()));
        }
    }
    if let Some((at, _)) = best
        && at > 0
        && !marked_as_test(state, &candidates[at].loc)
    {
        put_first(
            state,
            candidates,
            at,
            "its name spells the question's words",
        );
    }
}

/// "where is a plugin registered?" (pytest-dev/pluggy) cited `PluginManager.is_registered`,
/// whose one docstring line says "whether the plugin is already registered", at High,
/// before `PluginManager.register`, which registers it. A predicate (`is_registered`,
/// `has_plugin`, `isClosed`) tells whether something was done; a question that asks
/// where or how it is done asks for the function that does it. Of the first
/// [`SPELLED_AMONG`] candidates, a predicate of the code is put after the first function
/// of its class or file among the first [`LIFT_AMONG`] whose name starts with the
/// predicate's word (`register` for `is_registered`): the fused scores of the ones
/// between are dealt out again, that function first. A question that asks whether, or
/// about a check, keeps its order.
fn action_before_its_predicate(state: &mut State, candidates: &mut [Candidate]) {
    let about_code = asks_about_code(state);
    if !about_code || says_any(&state.question, PREDICATE_QUESTION_WORDS) {
        return;
    }
    // The stems of a function's own name's words, and whether the first makes it a
    // predicate.
    let words = |loc: &ChunkLoc| -> Option<(Vec<String>, bool)> {
        let symbol = loc.symbol.as_deref().filter(|_| is_code_function(loc))?;
        let own = symbol.rsplit(['.', ':']).next().unwrap_or(symbol);
        let parts = super::text::split_identifier(own);
        let first = parts.first()?.to_lowercase();
        let predicate = PREDICATE_PREFIXES.contains(&first.as_str()) && parts.len() >= 2;
        Some((
            parts.iter().map(|p| super::text::stem(p)).collect(),
            predicate,
        ))
    };
    let scope = |loc: &ChunkLoc| -> String {
        let symbol = loc.symbol.as_deref().unwrap_or("");
        match symbol.rsplit_once(['.', ':']) {
            Some((parent, _)) => format!("{}\u{0}{parent}", loc.path),
            None => loc.path.clone(),
        }
    };
    let same_word = |a: &str, b: &str| {
        a == b || (a.len().min(b.len()) >= 4 && (a.starts_with(b) || b.starts_with(a)))
    };
    for i in 0..candidates.len().min(SPELLED_AMONG) {
        let Some((predicate_words, true)) = words(&candidates[i].loc) else {
            continue;
        };
        // What the predicate says was done: `registered`, `cors preflight`.
        let done = &predicate_words[1..];
        let at = scope(&candidates[i].loc);
        // The function whose name starts with the first of those words and holds them
        // all (`register`, not `CORS` for `isCORSPreflight`).
        let action = (i + 1..candidates.len().min(LIFT_AMONG)).find(|&j| {
            let loc = &candidates[j].loc;
            words(loc).is_some_and(|(name, predicate)| {
                !predicate
                    && same_word(&name[0], &done[0])
                    && done.iter().all(|d| name.iter().any(|n| same_word(n, d)))
                    && scope(loc) == at
            })
        });
        let Some(j) = action else {
            continue;
        };
        let order: Vec<usize> = std::iter::once(j).chain(i..j).collect();
        if deal_scores(candidates, &order) {
            candidates.sort_by(|a, b| b.score.total_cmp(&a.score));
        }
        let c = &candidates[i].loc;
        let reason = format!(
            "{}:{}-{} before the predicate that tells whether it was done",
            c.path, c.start_line, c.end_line
        );
        if let Some(last) = state.trace.last_mut() {
            last.reasons.push(reason);
        }
        return;
    }
}

/// "how does StaticFiles find the file for a path?": a class's chunk that holds only its
/// declaration (a long class keeps its head alone, and this one has no doc comment or
/// statement before its first method) says nothing but the name the question gave. When
/// it leads a question about code that asks more than the name, the best of its members
/// among the candidates leads instead (`StaticFiles.lookup_path`).
fn member_before_its_bare_class(state: &mut State, candidates: &mut [Candidate]) {
    let about_code = asks_about_code(state);
    let Some(first) = candidates.first().map(|c| c.loc.clone()) else {
        return;
    };
    let Some(class) = first.symbol.as_deref() else {
        return;
    };
    if !about_code
        || !is_type_kind(&first.kind)
        || first.end_line.saturating_sub(first.start_line) + 1 > BARE_CLASS_LINES
    {
        return;
    }
    // Its head alone: the line after the chunk is in its body, indented deeper than its
    // first line (not a one-line type, `type KeyReleaseMsg Key`, whole in its chunk).
    let lines = state
        .text
        .lines(&first.path, first.start_line, first.end_line + 1)
        .to_vec();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let cut = match (
        lines.first(),
        lines.get((first.end_line - first.start_line + 1) as usize),
    ) {
        (Some(head), Some(next)) => !next.trim().is_empty() && indent(next) > indent(head),
        _ => false,
    };
    if !cut {
        return;
    }
    // The question asks more than the class's name.
    let own = class.rsplit(['.', ':']).next().unwrap_or(class);
    let name: Vec<String> = super::text::split_identifier(own)
        .iter()
        .map(|p| super::text::stem(p))
        .collect();
    let more = state.terms.iter().any(|t| {
        super::text::split_identifier(t)
            .iter()
            .any(|p| !name.contains(&super::text::stem(p)))
    });
    if !more {
        return;
    }
    // A member the retrievers found among the first candidates, not a neighbour the
    // graph added.
    let member = (1..candidates.len().min(SPELLED_AMONG)).find(|&j| {
        let loc = &candidates[j].loc;
        loc.path == first.path
            && candidates[j].expanded_from.is_none()
            && loc.symbol.as_deref().is_some_and(|s| {
                s.strip_prefix(class)
                    .is_some_and(|rest| rest.starts_with(['.', ':']))
            })
    });
    if let Some(j) = member {
        put_first(
            state,
            candidates,
            j,
            &format!("a member of {class}, whose chunk holds only its declaration"),
        );
    }
}

/// "how does black find the project root?", "where are jupyter notebooks handled?",
/// "where is the devtools connection made?": a one-line constant (`project = "Black"`,
/// `JUPYTER = ...`) or a short type alias (`type Connection = ReturnType<...>`) holds a
/// value or a shape and does no work, yet its few words can match a question's better
/// than any body can, and it leads. When a question about code asks how or where
/// something is done (not for a value, a default, a setting or a type, and not for the
/// name as code writes it), the first function or method among the candidates whose own
/// name holds at least as many of the question's words as the constant's leads instead
/// (`_find_project_root_cached`, `jupyter_dependencies_are_installed`,
/// `extractConnectionInformation`).
fn work_before_a_bare_value(state: &mut State, candidates: &mut Vec<Candidate>) -> Result<()> {
    let about_code = asks_about_code(state);
    let lower = state.question.trim_start().to_lowercase();
    let how_or_where = lower.starts_with("how ") || lower.starts_with("where ");
    let Some(first) = candidates.first().map(|c| c.loc.clone()) else {
        return Ok(());
    };
    let Some(constant) = first.symbol.as_deref() else {
        return Ok(());
    };
    let most_lines = match first.kind.as_str() {
        "constant" => BARE_VALUE_LINES,
        "type" => BARE_TYPE_LINES,
        _ => return Ok(()),
    };
    if !about_code
        || !how_or_where
        || first.end_line.saturating_sub(first.start_line) + 1 > most_lines
        || says_any(&state.question, VALUE_QUESTION_WORDS)
    {
        return Ok(());
    }
    let own = constant.rsplit(['.', ':']).next().unwrap_or(constant);
    // Spelled as code writes it (`LINE_LENGTH_HEADER`, `maxRetries`), not as a word of
    // prose (`project`, `JUPYTER` asked as "jupyter").
    let as_code = own.contains('_') || own.chars().any(|c| c.is_uppercase());
    if as_code && super::text::words(&state.question).any(|w| w == own) {
        return Ok(());
    }
    // A constant inside a function (gorilla/websocket's `const badHandshake = "…"`, the
    // first line of `Upgrader.Upgrade`) is a line of that function's work: the function
    // leads, taken from the store with the constant's evidence when no route found it.
    if let Some((owner, _)) = constant.rsplit_once(['.', ':']) {
        let owner = owner.trim_end_matches(':');
        let why = format!("{owner}, which declares the {} {own}", first.kind);
        let work = |loc: &ChunkLoc| {
            loc.path == first.path
                && loc.symbol.as_deref() == Some(owner)
                && matches!(loc.kind.as_str(), "function" | "method")
        };
        if let Some(at) = candidates.iter().position(|c| work(&c.loc)) {
            put_first(state, candidates, at, &why);
            return Ok(());
        }
        let loc = match state
            .memories
            .read(|c| crate::store::lookups::qualname_chunk(c, &first.path, owner))?
        {
            Some(chunk) => state.memories.read(|c| crate::store::chunk_loc(c, chunk))?,
            None => None,
        };
        if let Some(loc) = loc.filter(|l| work(l)) {
            // The routes found it through the constant, one of its lines: with the
            // constant's score and evidence.
            let found = Candidate {
                loc,
                expanded_from: None,
                lines: Vec::new(),
                ..candidates[0].clone()
            };
            insert_first(state, candidates, found, &why);
            return Ok(());
        }
    }
    let asked: HashSet<String> = state
        .terms
        .iter()
        .flat_map(|t| super::text::split_identifier(t))
        .map(|p| super::text::stem(&p))
        .collect();
    let shared = |name: &str| -> usize {
        let parts: HashSet<String> = super::text::split_identifier(name)
            .iter()
            .map(|p| super::text::stem(p))
            .collect();
        parts.intersection(&asked).count()
    };
    let bar = shared(own).max(1);
    let tests = asks_about_tests(&state.question);
    let work = (1..candidates.len().min(SPELLED_AMONG)).find(|&j| {
        let c = &candidates[j];
        let loc = &c.loc;
        c.expanded_from.is_none()
            && matches!(loc.kind.as_str(), "function" | "method")
            && !is_prose(&loc.path)
            && (tests || is_code_function(loc))
            && loc
                .symbol
                .as_deref()
                .is_some_and(|s| shared(s.rsplit(['.', ':']).next().unwrap_or(s)) >= bar)
    });
    if let Some(j) = work {
        put_first(
            state,
            candidates,
            j,
            &format!(
                "a function before the {} {own}, which does no work",
                first.kind
            ),
        );
    }
    Ok(())
}

/// The most lines of a constant [`work_before_a_bare_value`] passes over.
const BARE_VALUE_LINES: u32 = 2;

/// The most lines of a type alias [`work_before_a_bare_value`] passes over.
const BARE_TYPE_LINES: u32 = 3;

/// Words of a question that asks for a value, a setting or a declaration, which a
/// constant answers.
const VALUE_QUESTION_WORDS: &[&str] = &[
    "alias",
    "constant",
    "constants",
    "declared",
    "default",
    "defaults",
    "defined",
    "header",
    "headers",
    "option",
    "options",
    "setting",
    "settings",
    "shape",
    "type",
    "types",
    "value",
    "values",
    "variable",
    "variables",
];

/// The most lines a class's chunk holds when it holds only its declaration (with a
/// decorator or attribute line above it).
const BARE_CLASS_LINES: u32 = 2;

/// The first words of a predicate's name.
const PREDICATE_PREFIXES: &[&str] = &["is", "has", "can", "should"];

/// Words of a question that asks whether something holds, or about a check.
const PREDICATE_QUESTION_WORDS: &[&str] = &[
    "whether",
    "check",
    "checks",
    "checked",
    "checking",
    "already",
    "if",
    "predicate",
];

/// How many of the best candidates [`spelled_definition_first`] reads.
const SPELLED_AMONG: usize = 10;

/// Puts `candidates[at]` first, at the first one's score (so the scores the confidence
/// reads stay those of the best), and says why in the stage's trace.
fn put_first(state: &mut State, candidates: &mut [Candidate], at: usize, why: &str) {
    candidates[at].score = candidates[0].score;
    candidates[..=at].rotate_right(1);
    said_first(state, &candidates[0].loc, why);
}

/// Puts `found`, a candidate the routes did not list, first, and says why in the stage's
/// trace.
fn insert_first(state: &mut State, candidates: &mut Vec<Candidate>, found: Candidate, why: &str) {
    candidates.insert(0, found);
    said_first(state, &candidates[0].loc, why);
}

/// Says in the stage's trace that `loc` now leads, and why.
fn said_first(state: &mut State, loc: &ChunkLoc, why: &str) {
    if let Some(last) = state.trace.last_mut() {
        last.reasons.push(format!(
            "{}:{}-{} first: {why}",
            loc.path, loc.start_line, loc.end_line
        ));
    }
}

/// How many of the best candidates [`lift_written_as_asked`] reads.
const LIFT_AMONG: usize = 30;

/// The openings of a locate question around a sentence the code holds, flattened.
const WHERE_IS_THE_CODE: &[&str] = &[
    "where is the code for ",
    "where is the code that ",
    "where's the code for ",
    "where's the code that ",
    "find the code for ",
    "find the code that ",
];

/// Lines of text as one line of lower-case words: comment leaders at the start of each line
/// (`///`, `//`, `#`, `*`, `--`), backticks, the brackets of doc links (``[`io::Error`]``)
/// and runs of blanks dropped.
fn flatten<'a>(lines: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for line in lines {
        let line = line
            .trim_start()
            .trim_start_matches(['/', '#', '*', '-', '!'])
            .trim_start_matches("\"\"\"");
        for word in line.split_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.extend(
                word.chars()
                    .filter(|c| !matches!(c, '`' | '[' | ']'))
                    .flat_map(char::to_lowercase),
            );
        }
    }
    out
}

/// Prose documentation: Markdown, reStructuredText, AsciiDoc and plain text files.
fn is_prose(path: &str) -> bool {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    matches!(
        ext.to_ascii_lowercase().as_str(),
        "md" | "markdown" | "mdx" | "rst" | "adoc" | "txt"
    )
}

/// A test, fixture, example or benchmark: code that exercises the implementation.
pub(super) fn is_test_or_example(path: &str) -> bool {
    is_test_or_example_only(path) || is_bench(path)
}

/// A test, fixture or example (not a benchmark).
fn is_test_or_example_only(path: &str) -> bool {
    crate::search::is_test_path(path)
        || path
            .split('/')
            .rev()
            .skip(1)
            .any(|seg| matches!(seg, "example" | "examples" | "_examples"))
}

/// A benchmark: under a `bench`, `benches`, `benchmark` or `benchmarks` directory that is
/// not inside `src/` (sharkdp/hyperfine's `src/benchmark/` is its implementation).
fn is_bench(path: &str) -> bool {
    let dirs: Vec<&str> = path.split('/').collect();
    let dirs = &dirs[..dirs.len().saturating_sub(1)];
    dirs.iter().enumerate().any(|(i, seg)| {
        matches!(*seg, "bench" | "benches" | "benchmark" | "benchmarks")
            && !dirs[..i].contains(&"src")
    })
}

/// Whether the question is about benchmarks ("where is the benchmark for a single
/// command run?"): benchmark code keeps its rank.
fn asks_about_benchmarks(question: &str) -> bool {
    question
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w.starts_with("bench"))
}

/// Whether the question is about tests, fixtures, mocks or examples.
/// Whether a lower-case question asks about documentation ("the readme", "the docs").
fn asks_about_docs(lower: &str) -> bool {
    lower.split(|c: char| !c.is_alphanumeric()).any(|w| {
        matches!(
            w,
            "doc"
                | "docs"
                | "documentation"
                | "documented"
                | "readme"
                | "guide"
                | "tutorial"
                | "changelog"
                | "manual"
        )
    })
}

pub(super) fn asks_about_tests(question: &str) -> bool {
    says_any(
        question,
        &[
            "test", "tests", "tested", "testing", "fixture", "fixtures", "spec", "specs", "mock",
            "mocks", "conftest", "example", "examples",
        ],
    )
}

/// Whether `question` has one of `words` (lower-case) as a word of its own (runs of
/// letters and digits), in any case.
fn says_any(question: &str, words: &[&str]) -> bool {
    question
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| words.contains(&w))
}

/// A test written beside the code it tests: a function named `test_…` (Rust's `#[test]`
/// functions in a source file, pytest's) or anything inside a `tests` module
/// (`tests::parses_empty_input`).
pub(super) fn is_test_symbol(symbol: &str) -> bool {
    let segments: Vec<&str> = symbol.split(['.', ':']).filter(|s| !s.is_empty()).collect();
    let Some((last, outer)) = segments.split_last() else {
        return false;
    };
    last.starts_with("test_") || outer.iter().any(|s| matches!(*s, "tests" | "test"))
}

/// A definition its attribute or annotation marks as a test, a benchmark or a test
/// fixture, in the lines that lead it (Rust's `#[test]`, `#[tokio::test]`; JUnit's
/// `@Test`; xUnit's `[Fact]`; pytest's `@pytest.fixture`): a test beside the code it tests
/// whose name does not say so (`fn parse_hsl_syntax()` under `#[test]`).
fn marked_as_test(state: &mut State, loc: &ChunkLoc) -> bool {
    if loc.symbol.is_none() {
        return false;
    }
    let end = loc.end_line.min(loc.start_line + LEADING_LINES);
    let head = state.text.lines(&loc.path, loc.start_line, end);
    head.iter()
        .map(|l| l.trim())
        .take_while(|l| l.is_empty() || l.starts_with(['#', '@', '[', '/']))
        .any(is_test_marker)
}

/// How many lines of a definition's head [`marked_as_test`] reads.
const LEADING_LINES: u32 = 8;

/// Whether one attribute or annotation line marks a test.
fn is_test_marker(line: &str) -> bool {
    let inner = if let Some(rest) = line.strip_prefix("#[") {
        rest
    } else if let Some(rest) = line.strip_prefix('@') {
        rest
    } else if let Some(rest) = line.strip_prefix('[') {
        rest
    } else {
        return false;
    };
    if inner.starts_with("cfg(test)") {
        return true;
    }
    let path = inner
        .split(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | ':' | '.')))
        .next()
        .unwrap_or("");
    if path == "pytest.fixture" {
        return true;
    }
    let last = path.rsplit([':', '.']).next().unwrap_or(path);
    matches!(
        last,
        "test"
            | "bench"
            | "rstest"
            | "test_case"
            | "quickcheck"
            | "proptest"
            | "Test"
            | "ParameterizedTest"
            | "RepeatedTest"
            | "TestFactory"
            | "TestTemplate"
            | "Fact"
            | "Theory"
            | "TestMethod"
            | "DataTestMethod"
            | "TestCase"
            | "TestCaseSource"
    )
}

/// The intents the graph retriever answers: structural ones, or definitions.
fn structural_intents(intents: &[Intent]) -> Vec<Intent> {
    let mut out: Vec<Intent> = intents
        .iter()
        .copied()
        .filter(|i| i.is_structural())
        .collect();
    if out.is_empty() {
        out.push(Intent::Definition);
    }
    out
}

/// The text the lexical or the semantic retriever searches for `query`; None for the
/// other retrievers, and for the semantic one when no word is left to search.
fn text_of(state: &State, query: &Query, memory: Memory) -> Option<String> {
    match memory {
        Memory::Lexical => Some(query.text.clone()),
        Memory::Semantic if !query.has_no_words() => Some(semantic_text(
            &state.question,
            query.semantic.as_deref().unwrap_or(&query.text),
        )),
        _ => None,
    }
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
    p.candidates.iter().map(|c| c.loc.chunk_id).collect()
}

#[cfg(test)]
mod tests {
    /// An error is raised when `raise`, `throw` or `throw new` comes right before its
    /// name; a construction, a mention or a longer name is not raising it.
    #[test]
    fn raising_an_error_is_told_from_naming_it() {
        for text in [
            "if n > limit:\n    raise LimitRequestHeaders('too many')",
            "if (n > limit) { throw new LimitRequestHeaders(n); }",
            "if n > limit { throw LimitRequestHeaders(n) }",
        ] {
            assert!(super::raises(text, "LimitRequestHeaders"), "{text:?}");
        }
        for text in [
            "err = LimitRequestHeaders('too many')\nreturn err",
            "except LimitRequestHeaders:\n    raise",
            "raise LimitRequestHeadersTooLarge()",
        ] {
            assert!(!super::raises(text, "LimitRequestHeaders"), "{text:?}");
        }
    }

    /// Stubs declare; a getter, a setter and a function whose last line holds an
    /// ellipsis in a call or a string have a body.
    #[test]
    fn stubs_are_told_from_definitions_with_a_body() {
        for stub in [
            "    def unsign(self, value: str) -> bytes: ...",
            "    def unsign(\n        self,\n        value: str,\n    ) -> bytes:\n        \"\"\"Doc.\"\"\"\n        ...\n",
            "function parse(input: string): Node;",
            "  abstract render(): void;",
        ] {
            assert!(super::is_stub(stub), "{stub:?}");
        }
        for body in [
            "    @property\n    def request(self) -> Request:\n        return self._request",
            "    def request(self, value):\n        self._request = value\n",
            "function parse(input: string): Node {\n  return read(input);\n}",
            "def load():\n    print(\"loading...\")",
        ] {
            assert!(!super::is_stub(body), "{body:?}");
        }
    }

    #[test]
    fn tests_are_known_by_their_attributes() {
        for t in [
            "#[test]",
            "#[tokio::test(flavor = \"multi_thread\")]",
            "#[cfg(test)]",
            "#[rstest]",
            "@Test",
            "@org.junit.jupiter.api.Test",
            "@ParameterizedTest(name = \"{0}\")",
            "[Fact]",
            "[TestCase(1, 2)]",
            "@pytest.fixture(scope=\"module\")",
        ] {
            assert!(super::is_test_marker(t), "{t}");
        }
        for t in [
            "#[derive(Debug)]",
            "#[cfg(not(test))]",
            "#[inline]",
            "@Override",
            "@app.route(\"/test\")",
            "[Serializable]",
            "[TestFixtureSetUp",
            "// #[test] is off",
            "@testing",
        ] {
            assert!(!super::is_test_marker(t), "{t}");
        }
    }

    #[test]
    fn tests_beside_the_code_are_known_by_name() {
        for t in [
            "test_detect_outliers",
            "tests::parses_empty_input",
            "Parser.tests.test_x",
        ] {
            assert!(super::is_test_symbol(t), "{t}");
        }
        for t in [
            "num_outliers",
            "Scheduler::run",
            "attest",
            "latest_tests",
            "testing",
        ] {
            assert!(!super::is_test_symbol(t), "{t}");
        }
    }

    /// A doc comment over several lines reads as the sentence it is, in any comment style.
    #[test]
    fn flattened_comments_read_as_one_sentence() {
        let rust = "    /// Inspect the original [`io::Error`]\n    /// if there is one.\n    pub fn io_error(&self) {";
        assert!(
            super::flatten(rust.lines())
                .contains("inspect the original io::error if there is one.")
        );
        let python = "def strip(t):\n    \"\"\"Remove the converter\n    from the path.\"\"\"";
        assert!(super::flatten(python.lines()).contains("remove the converter from the path."));
        let js = "/**\n * Wrapper for non-Error values\n * that were thrown.\n */";
        assert!(
            super::flatten(js.lines()).contains("wrapper for non-error values that were thrown.")
        );
        // Words apart stay apart.
        assert!(!super::flatten("# Remove the\n\n# converter".lines()).contains("theconverter"));
    }
}

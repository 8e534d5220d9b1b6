//! `llmc eval`: a labelled set of questions run through the same pipeline as `llmc ask`,
//! scored per intent and overall.
//!
//! [`load`] reads the JSONL file (`eval/cases.rs`; a bad line is an
//! `LlmcError::EvalFile` naming the file, the line and the problem), [`run`] asks every
//! question with the cache off, and [`score`] turns the outcomes into [`Metrics`]. Nothing here prints: `app::eval` renders
//! the [`Report`].

mod cases;

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use serde::Serialize;

use crate::ask::classify::Intent;
use crate::ask::{self, AskRequest, Candidate, Outcome, Status};
use crate::config::{Config, RouteEntry};
use crate::model::{ChunkLoc, Memory};
use crate::search::{self, Mode, SearchRequest};
pub use cases::{Case, Gold, Target, load, parse};

/// Options of a run.
#[derive(Debug, Clone, Copy)]
pub struct EvalOptions {
    /// Cut-off for Recall@k, MRR@k and nDCG@k (and the sources each answer lists).
    pub k: usize,
    /// Also ask every question through each single route alone and through
    /// `llmc search --mode hybrid`, for the comparison per intent ([`COMPARED`]).
    pub compare: bool,
}

/// What `--compare` sets beside `ask`: `search` is `llmc search --mode hybrid` on the
/// question; each memory is `ask` with a plan of that retriever alone (weight 1, never
/// widened).
pub const COMPARED: [&str; 5] = ["search", "graph", "history", "lexical", "semantic"];

/// How one question did.
#[derive(Debug, Clone, Serialize)]
pub struct QuestionResult {
    pub line: usize,
    pub question: String,
    pub expected_intents: Vec<Intent>,
    pub intents: Vec<Intent>,
    /// Whether the intents are the expected ones (`None`: not labelled).
    pub routed: Option<bool>,
    pub answerable: bool,
    pub status: Status,
    /// Per gold item, the 1-based rank of the first source (or commit) that finds it
    /// within k; `None` when none does.
    pub ranks: Vec<Option<usize>>,
    pub recall: Option<f64>,
    pub reciprocal_rank: Option<f64>,
    pub ndcg: Option<f64>,
    /// For callers, callees and imports questions with gold lines.
    pub structural: Option<Structural>,
    pub confidence: f64,
    /// The label of the confidence, as the answer shows it.
    pub label: String,
    /// The signals behind the confidence (what `scripts/calibrate.py` fits on).
    pub signals: crate::ask::Confidence,
    /// The answer's first source (or commit; for a callers answer with gold lines, its
    /// first call site) is a gold item: what the label promises. `None`
    /// for abstentions and for answerable questions without gold.
    pub top_right: Option<bool>,
    /// With `--compare`: the reciprocal rank each of [`COMPARED`] reaches on this question
    /// (answerable questions with gold only).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub compare: BTreeMap<String, f64>,
    pub ms: f64,
}

/// Precision and recall of a structural answer (call sites or import lines).
#[derive(Debug, Clone, Serialize)]
pub struct Structural {
    /// Answer rows (graph rows, or the sources when the graph gave none).
    pub rows: usize,
    /// Rows on a gold line.
    pub correct_rows: usize,
    /// Gold lines a graph row or a source covers.
    pub found: usize,
    pub gold: usize,
    /// `None` when the answer has no row.
    pub precision: Option<f64>,
    pub recall: f64,
}

/// The metrics of a group of questions; `None` when no question of the group counts.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Metrics {
    pub questions: usize,
    /// Answerable questions with gold items (the denominator of the ranking metrics).
    pub ranked: usize,
    pub recall_at_k: Option<f64>,
    pub mrr_at_k: Option<f64>,
    pub ndcg_at_k: Option<f64>,
    /// Structural questions (callers, callees, imports with gold lines).
    pub structural: usize,
    pub structural_precision: Option<f64>,
    pub structural_recall: Option<f64>,
    /// Questions with expected intents.
    pub routed: usize,
    pub routing_accuracy: Option<f64>,
    pub out_of_scope: usize,
    /// Abstentions among the out-of-scope questions (higher is better).
    pub abstention_rate: Option<f64>,
    pub answerable: usize,
    /// Abstentions among the answerable questions (lower is better).
    pub false_abstention_rate: Option<f64>,
    pub latency_median_ms: Option<f64>,
    pub latency_p95_ms: Option<f64>,
    /// With `--compare`: MRR@k of each of [`COMPARED`] on the same questions.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub compare: BTreeMap<String, f64>,
}

/// How often answers with one confidence label have a right first source.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Reliability {
    pub label: String,
    /// Answers with this label (abstentions and answerable questions without gold aside).
    pub answers: usize,
    /// Of those, answers whose first source (or commit) is a gold item; an answered
    /// out-of-scope question is never right.
    pub right: usize,
    pub accuracy: Option<f64>,
    /// The mean confidence score of these answers.
    pub mean_confidence: Option<f64>,
}

/// Calibration of the confidence over every answer of the run.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Calibration {
    /// One row per label, highest first.
    pub labels: Vec<Reliability>,
    /// Expected calibration error: the answers binned by score in ten equal-width bins,
    /// the mean of |share right − mean score| weighted by the bin's size.
    pub ece: Option<f64>,
    /// Answers counted.
    pub answers: usize,
}

/// A whole run.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub file: String,
    pub k: usize,
    pub overall: Metrics,
    /// Per expected intent (a question labelled with two counts in both); `unlabelled`
    /// for questions without one.
    pub intents: BTreeMap<String, Metrics>,
    pub calibration: Calibration,
    pub results: Vec<QuestionResult>,
}

/// Asks every question (cache off, no LLM) and scores the answers. `each` is called after
/// every question with its result, for progress.
pub fn run(
    root: &Path,
    config: &Config,
    file: &str,
    cases: &[Case],
    opts: EvalOptions,
    each: &mut dyn FnMut(&QuestionResult),
) -> Result<Report> {
    let k = opts.k.max(1);
    let singles: Vec<(Memory, Config)> = if opts.compare {
        Memory::ALL
            .into_iter()
            .map(|m| (m, single_route(config, m)))
            .collect()
    } else {
        Vec::new()
    };
    let mut results = Vec::with_capacity(cases.len());
    for case in cases {
        let req = request(case, k);
        let t = Instant::now();
        let outcome = ask::ask(root, config, &req)
            .with_context(|| format!("{file}:{}: asking {:?}", case.line, case.question))?;
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        let mut result = judge(case, &outcome, k, ms);
        if opts.compare && result.reciprocal_rank.is_some() {
            result.compare = compare(root, config, case, k, &singles)
                .with_context(|| format!("{file}:{}: comparing {:?}", case.line, case.question))?;
        }
        each(&result);
        results.push(result);
    }
    Ok(score(file, k, results))
}

/// A case as eval asks it: cache off, no LLM, the whole repository.
fn request(case: &Case, k: usize) -> AskRequest {
    AskRequest {
        question: case.question.clone(),
        k: Some(k),
        no_cache: true,
        no_llm: true,
        scope: Default::default(),
    }
}

/// `config` with every intent routed to `memory` alone, never widened.
fn single_route(config: &Config, memory: Memory) -> Config {
    let mut c = config.clone();
    let only = || RouteEntry(vec![(memory, 1.0)]);
    let r = &mut c.route;
    for e in [
        &mut r.callers,
        &mut r.callees,
        &mut r.definition,
        &mut r.imports,
        &mut r.history,
        &mut r.concept,
        &mut r.howto,
        &mut r.locate,
        &mut r.compare,
    ] {
        *e = only();
    }
    r.widen_below = 0.0;
    c
}

/// The reciprocal rank of `llmc search --mode hybrid` and of each single-route `ask` on
/// one question.
fn compare(
    root: &Path,
    config: &Config,
    case: &Case,
    k: usize,
    singles: &[(Memory, Config)],
) -> Result<BTreeMap<String, f64>> {
    let mut out = BTreeMap::new();
    let found = search::search(
        root,
        config,
        &SearchRequest {
            query: case.question.clone(),
            mode: Mode::Hybrid,
            k,
            lang: None,
            path_glob: None,
            no_tests: false,
        },
    )?;
    let locs: Vec<&ChunkLoc> = found.hits.iter().map(|h| &h.loc).collect();
    let ranks = rank_gold(case, &locs, &[]);
    out.insert("search".to_string(), reciprocal(&ranks));
    for (memory, cfg) in singles {
        let o = ask::ask(root, cfg, &request(case, k))?;
        let r = judge(case, &o, k, 0.0);
        out.insert(
            memory.as_str().to_string(),
            r.reciprocal_rank.unwrap_or(0.0),
        );
    }
    Ok(out)
}

fn reciprocal(ranks: &[Option<usize>]) -> f64 {
    ranks
        .iter()
        .flatten()
        .min()
        .map_or(0.0, |r| 1.0 / *r as f64)
}

/// Per gold item, the 1-based rank of the first source (or commit) that finds it.
fn rank_gold(case: &Case, sources: &[&ChunkLoc], commits: &[&str]) -> Vec<Option<usize>> {
    case.gold
        .iter()
        .map(|g| match &g.target {
            Target::Commit { commit } => commits
                .iter()
                .position(|c| c.starts_with(commit.as_str()))
                .map(|r| r + 1),
            t => sources.iter().position(|s| covers(t, s)).map(|r| r + 1),
        })
        .collect()
}

/// Scores one outcome against its case.
pub fn judge(case: &Case, o: &Outcome, k: usize, ms: f64) -> QuestionResult {
    let abstained = o.status != Status::Answered;
    let sources: Vec<&Candidate> = if o.sources.is_empty() {
        o.abstention
            .iter()
            .flat_map(|a| a.nearest.iter())
            .take(k)
            .collect()
    } else {
        o.sources.iter().take(k).collect()
    };
    let mut commits: Vec<&str> = Vec::new();
    for c in o.history.iter().flat_map(|h| h.commits.iter()) {
        if !commits.contains(&c.commit.as_str()) {
            commits.push(&c.commit);
        }
    }
    commits.truncate(k);
    let locs: Vec<&ChunkLoc> = sources.iter().map(|c| &c.loc).collect();
    let ranks = rank_gold(case, &locs, &commits);
    let ranked = case.answerable && !case.gold.is_empty();
    let (recall, reciprocal_rank, ndcg) = if ranked {
        let found = ranks.iter().filter(|r| r.is_some()).count();
        let rr = reciprocal(&ranks);
        (
            Some(found as f64 / ranks.len() as f64),
            Some(rr),
            Some(ndcg(&case.gold, &ranks, k)),
        )
    } else {
        (None, None, None)
    };
    let intents_for_kind = if case.intents.is_empty() {
        &o.intents
    } else {
        &case.intents
    };
    let structural = if case.answerable && intents_for_kind.iter().any(|i| is_structural(*i)) {
        structural(&case.gold, o, &sources)
    } else {
        None
    };
    // A callers answer's first item is its first call site: the definition it lists
    // first among the sources is what was named, not the answer. (Only callers: their
    // gold lines are every call site a reference tool finds, where a callees or imports
    // set may list only some, so a row missing from it is not wrong.)
    let first_row = o
        .graph
        .iter()
        .filter(|f| f.intent == Intent::Callers)
        .flat_map(|f| f.rows.iter())
        .next();
    let gold_line = |path: &str, line: u32| {
        case.gold.iter().any(
            |g| matches!(&g.target, Target::Line { path: p, line: l } if p == path && *l == line),
        )
    };
    let top_right = match (abstained, case.answerable) {
        (true, _) => None,
        (false, false) => Some(false),
        (false, true) => match first_row {
            Some(r) if structural.is_some() => Some(gold_line(&r.path, r.line)),
            _ => ranked.then(|| ranks.contains(&Some(1))),
        },
    };
    let mut got = o.intents.clone();
    got.sort();
    got.dedup();
    QuestionResult {
        line: case.line,
        question: case.question.clone(),
        expected_intents: case.intents.clone(),
        routed: (!case.intents.is_empty()).then(|| got == case.intents),
        intents: o.intents.clone(),
        answerable: case.answerable,
        status: if abstained {
            Status::Abstained
        } else {
            Status::Answered
        },
        ranks,
        recall,
        reciprocal_rank,
        ndcg,
        structural,
        confidence: o.confidence.score,
        label: o.confidence.label.clone(),
        signals: o.confidence.clone(),
        top_right,
        compare: BTreeMap::new(),
        ms,
    }
}

fn is_structural(i: Intent) -> bool {
    matches!(i, Intent::Callers | Intent::Callees | Intent::Imports)
}

/// Whether a source finds a gold target (commits are matched elsewhere).
fn covers(t: &Target, s: &ChunkLoc) -> bool {
    match t {
        Target::Line { path, line } => {
            s.path == *path && s.start_line <= *line && *line <= s.end_line
        }
        Target::Range {
            path,
            start_line,
            end_line,
        } => s.path == *path && s.start_line <= *end_line && *start_line <= s.end_line,
        Target::Symbol { symbol, path } => {
            path.as_ref().is_none_or(|p| *p == s.path)
                && s.symbol
                    .as_deref()
                    .is_some_and(|got| same_symbol(got, symbol))
        }
        Target::Path { path } => s.path == *path,
        Target::Commit { .. } => false,
    }
}

/// `Shelf.add` is `Shelf.add`, and `add` is any `X.add` or `X::add`.
fn same_symbol(got: &str, want: &str) -> bool {
    got == want
        || got
            .strip_suffix(want)
            .is_some_and(|head| head.ends_with('.') || head.ends_with("::"))
}

/// nDCG@k with the grade as gain: each gold item counts once, at the rank of the first
/// source that finds it; the ideal puts the grades in decreasing order at ranks 1, 2, …
/// A source that finds several gold items at once can beat that ideal: capped at 1.
fn ndcg(gold: &[Gold], ranks: &[Option<usize>], k: usize) -> f64 {
    let discount = |r: usize| 1.0 / ((r + 1) as f64).log2();
    let dcg: f64 = gold
        .iter()
        .zip(ranks)
        .filter_map(|(g, r)| r.map(|r| g.grade * discount(r)))
        .sum();
    let mut grades: Vec<f64> = gold.iter().map(|g| g.grade).collect();
    grades.sort_by(|a, b| b.total_cmp(a));
    let ideal: f64 = grades
        .iter()
        .take(k)
        .enumerate()
        .map(|(i, g)| g * discount(i + 1))
        .sum();
    if ideal > 0.0 {
        (dcg / ideal).min(1.0)
    } else {
        0.0
    }
}

/// Structural precision and recall over the gold lines (call sites, import lines).
fn structural(gold: &[Gold], o: &Outcome, sources: &[&Candidate]) -> Option<Structural> {
    let lines: Vec<(&str, u32)> = gold
        .iter()
        .filter_map(|g| match &g.target {
            Target::Line { path, line } => Some((path.as_str(), *line)),
            _ => None,
        })
        .collect();
    if lines.is_empty() {
        return None;
    }
    let mut rows: Vec<(&str, u32)> = Vec::new();
    for f in o.graph.iter().filter(|f| is_structural(f.intent)) {
        for r in &f.rows {
            if !rows.contains(&(r.path.as_str(), r.line)) {
                rows.push((&r.path, r.line));
            }
        }
    }
    let on_source = |path: &str, line: u32| {
        sources
            .iter()
            .any(|s| s.loc.path == path && s.loc.start_line <= line && line <= s.loc.end_line)
    };
    let gold_set: HashSet<(&str, u32)> = lines.iter().copied().collect();
    let (n_rows, correct) = if rows.is_empty() {
        let correct = sources
            .iter()
            .filter(|s| {
                lines.iter().any(|(p, l)| {
                    s.loc.path == *p && s.loc.start_line <= *l && *l <= s.loc.end_line
                })
            })
            .count();
        (sources.len(), correct)
    } else {
        (
            rows.len(),
            rows.iter().filter(|r| gold_set.contains(r)).count(),
        )
    };
    let found = gold_set
        .iter()
        .filter(|(p, l)| rows.contains(&(*p, *l)) || on_source(p, *l))
        .count();
    Some(Structural {
        rows: n_rows,
        correct_rows: correct,
        found,
        gold: gold_set.len(),
        precision: (n_rows > 0).then(|| correct as f64 / n_rows as f64),
        recall: found as f64 / gold_set.len() as f64,
    })
}

/// Aggregates results overall and per expected intent.
pub fn score(file: &str, k: usize, results: Vec<QuestionResult>) -> Report {
    let overall = metrics(results.iter());
    let calibration = calibration(&results);
    let mut groups: BTreeMap<String, Vec<&QuestionResult>> = BTreeMap::new();
    for r in &results {
        if r.expected_intents.is_empty() {
            groups.entry("unlabelled".into()).or_default().push(r);
        }
        for i in &r.expected_intents {
            groups.entry(i.as_str().into()).or_default().push(r);
        }
    }
    let intents = groups
        .into_iter()
        .map(|(name, rs)| (name, metrics(rs.into_iter())))
        .collect();
    Report {
        file: file.to_string(),
        k,
        overall,
        intents,
        calibration,
        results,
    }
}

/// The labels in the order the answers show them, highest first.
const LABELS: [&str; 4] = ["High", "Medium", "Low", "Very Low"];

/// The reliability of each label and the expected calibration error.
fn calibration(results: &[QuestionResult]) -> Calibration {
    let judged: Vec<(&QuestionResult, bool)> = results
        .iter()
        .filter_map(|r| r.top_right.map(|t| (r, t)))
        .collect();
    let mut labels: Vec<Reliability> = Vec::new();
    let mut names: Vec<&str> = LABELS.to_vec();
    for (r, _) in &judged {
        if !names.contains(&r.label.as_str()) {
            names.push(&r.label);
        }
    }
    for name in names {
        let group: Vec<&(&QuestionResult, bool)> =
            judged.iter().filter(|(r, _)| r.label == name).collect();
        let right = group.iter().filter(|(_, t)| *t).count();
        let scores: Vec<f64> = group.iter().map(|(r, _)| r.confidence).collect();
        labels.push(Reliability {
            label: name.to_string(),
            answers: group.len(),
            right,
            accuracy: rate(right, group.len()),
            mean_confidence: mean(&scores),
        });
    }
    let mut bins = [(0usize, 0usize, 0.0f64); 10];
    for (r, t) in &judged {
        let b = ((r.confidence.clamp(0.0, 1.0) * 10.0) as usize).min(9);
        bins[b].0 += 1;
        bins[b].1 += usize::from(*t);
        bins[b].2 += r.confidence;
    }
    let n = judged.len();
    let ece = (n > 0).then(|| {
        bins.iter()
            .filter(|b| b.0 > 0)
            .map(|(count, right, sum)| {
                let c = *count as f64;
                (c / n as f64) * (*right as f64 / c - sum / c).abs()
            })
            .sum()
    });
    Calibration {
        labels,
        ece,
        answers: n,
    }
}

fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

fn rate(hits: usize, of: usize) -> Option<f64> {
    (of > 0).then(|| hits as f64 / of as f64)
}

/// The value at quantile `q` (nearest rank) of sorted values.
fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

fn metrics<'a>(rs: impl Iterator<Item = &'a QuestionResult>) -> Metrics {
    let rs: Vec<&QuestionResult> = rs.collect();
    let pick = |f: &dyn Fn(&QuestionResult) -> Option<f64>| -> Vec<f64> {
        rs.iter().filter_map(|r| f(r)).collect()
    };
    let recall = pick(&|r| r.recall);
    let rr = pick(&|r| r.reciprocal_rank);
    let nd = pick(&|r| r.ndcg);
    let sp = pick(&|r| r.structural.as_ref().and_then(|s| s.precision));
    let sr = pick(&|r| r.structural.as_ref().map(|s| s.recall));
    let routed: Vec<bool> = rs.iter().filter_map(|r| r.routed).collect();
    let oos: Vec<&&QuestionResult> = rs.iter().filter(|r| !r.answerable).collect();
    let ans: Vec<&&QuestionResult> = rs.iter().filter(|r| r.answerable).collect();
    let abstained =
        |v: &[&&QuestionResult]| v.iter().filter(|r| r.status == Status::Abstained).count();
    let mut ms: Vec<f64> = rs.iter().map(|r| r.ms).collect();
    ms.sort_by(f64::total_cmp);
    let mut compare: BTreeMap<String, f64> = BTreeMap::new();
    for name in COMPARED {
        let v = pick(&|r| r.compare.get(name).copied());
        if let Some(m) = mean(&v) {
            compare.insert(name.to_string(), m);
        }
    }
    Metrics {
        questions: rs.len(),
        ranked: recall.len(),
        recall_at_k: mean(&recall),
        mrr_at_k: mean(&rr),
        ndcg_at_k: mean(&nd),
        structural: sr.len(),
        structural_precision: mean(&sp),
        structural_recall: mean(&sr),
        routed: routed.len(),
        routing_accuracy: rate(routed.iter().filter(|b| **b).count(), routed.len()),
        out_of_scope: oos.len(),
        abstention_rate: rate(abstained(&oos), oos.len()),
        answerable: ans.len(),
        false_abstention_rate: rate(abstained(&ans), ans.len()),
        latency_median_ms: quantile(&ms, 0.5),
        latency_p95_ms: quantile(&ms, 0.95),
        compare,
    }
}

/// Whether a higher value of the metric called `name` is better (false for the
/// false-abstention rate and the latencies).
pub fn higher_is_better(name: &str) -> bool {
    !matches!(
        name,
        "false_abstention_rate" | "latency_median_ms" | "latency_p95_ms"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        format!("{:#}", parse("set.jsonl", text).expect_err("a bad line"))
    }

    #[test]
    fn bad_lines_name_the_file_line_and_problem() {
        let ok = r#"{"question": "who calls f?", "gold": {"path": "a.py", "line": 3}}"#;
        assert_eq!(
            err(&format!("{ok}\n\n{{\"question\": 3}}\n")),
            "set.jsonl:3: `question` must be a string"
        );
        assert_eq!(
            err(&format!("{ok}\nnot json")),
            "set.jsonl:2: not JSON: expected ident at line 1 column 2"
        );
        assert!(
            err(r#"{"question": "q", "intent": "callerz"}"#)
                .starts_with("set.jsonl:1: unknown intent `callerz` (expected one of callers,")
        );
        assert!(
            err(r#"{"question": "q", "gold": {"path": "a", "line": 0}}"#)
                .contains("`line` must be a line number")
        );
        assert!(
            err(r#"{"question": "q", "gold": [{"path": "a"}, {"line": 2}]}"#)
                .starts_with("set.jsonl:1: gold item 2: a gold item is one of")
        );
        assert!(
            err(r#"{"question": "q", "qestion": "x", "intent": "concept"}"#)
                .contains("unknown field `qestion`")
        );
        assert!(err(r#"{"question": "q", "gold": {"commit": "zz12"}}"#).contains("hex digits"));
        assert_eq!(err(""), "set.jsonl:0: no question in the file");
    }

    #[test]
    fn gold_forms_parse() {
        let cases = parse(
            "s",
            r#"{"question": "q", "intents": ["callers"], "gold": [{"path": "a.py", "line": 3, "grade": 2}, {"path": "a.py", "start_line": 1, "end_line": 4}, {"symbol": "Shelf.add"}, {"path": "b.py"}, {"commit": "ABCD12"}]}
{"question": "deploy?", "intent": "howto", "answerable": false}"#,
        )
        .expect("parses");
        let targets: Vec<&Target> = cases[0].gold.iter().map(|g| &g.target).collect();
        assert_eq!(
            targets,
            [
                &Target::Line {
                    path: "a.py".into(),
                    line: 3
                },
                &Target::Range {
                    path: "a.py".into(),
                    start_line: 1,
                    end_line: 4
                },
                &Target::Symbol {
                    symbol: "Shelf.add".into(),
                    path: None
                },
                &Target::Path {
                    path: "b.py".into()
                },
                &Target::Commit {
                    commit: "abcd12".into()
                },
            ]
        );
        assert_eq!(cases[0].gold[0].grade, 2.0);
        assert!(!cases[1].answerable);
        assert_eq!(cases[1].intents, [Intent::Howto]);
    }

    #[test]
    fn ndcg_rewards_early_and_high_grades() {
        let g = |grade| Gold {
            target: Target::Path { path: "a".into() },
            grade,
        };
        let gold = [g(2.0), g(1.0)];
        assert_eq!(ndcg(&gold, &[Some(1), Some(2)], 10), 1.0);
        let swapped = ndcg(&gold, &[Some(2), Some(1)], 10);
        assert!(swapped < 1.0 && swapped > 0.8, "{swapped}");
        assert_eq!(ndcg(&gold, &[None, None], 10), 0.0);
        let late = ndcg(&gold, &[Some(9), None], 10);
        assert!(late < swapped, "{late}");
    }

    #[test]
    fn symbols_match_by_qualified_tail() {
        assert!(same_symbol("Shelf.add", "add"));
        assert!(same_symbol("Memories::open", "open"));
        assert!(same_symbol("Shelf.add", "Shelf.add"));
        assert!(!same_symbol("Shelf.readd", "add"));
        assert!(!same_symbol("add", "Shelf.add"));
    }

    #[test]
    fn quantiles_are_nearest_rank() {
        let v: Vec<f64> = (1..=20).map(f64::from).collect();
        assert_eq!(quantile(&v, 0.5), Some(10.0));
        assert_eq!(quantile(&v, 0.95), Some(19.0));
        assert_eq!(quantile(&[], 0.5), None);
    }
}

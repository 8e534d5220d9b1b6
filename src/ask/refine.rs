//! The refine stage: when verification finds the evidence weak, up to `ask.max_refine`
//! more passes, each with a strategy not tried yet — split identifiers, the repository's
//! own vocabulary, switch lexical and semantic, widen the route. A query is never run
//! twice; refine stops when an attempt adds nothing. The best pass wins.

use std::collections::HashSet;
use std::time::Instant;

use anyhow::Result;

use super::classify::Intent;
use super::names::{names_from_words, nearest_names, variants};
use super::route::{Plan, Step};
use super::text::split_identifier;
use super::{Attempt, Query, Stage, State, Strategy, ids, plan_text, retrieve, run_pass};
use crate::model::Memory;

/// The strategies, in the order they are tried.
pub const STRATEGIES: [Strategy; 4] = [
    Strategy::SplitIdentifiers,
    Strategy::RepositoryVocabulary,
    Strategy::SwitchLexicalSemantic,
    Strategy::WidenRoute,
];

/// The least gain of confidence for which an attempt replaces the best pass.
const MIN_GAIN: f64 = 0.02;

/// Runs the refine stage on `state.best`.
pub fn refine(state: &mut State) -> Result<()> {
    let t = Instant::now();
    let cfg = &state.memories.config.ask;
    let (enabled, max) = (cfg.refine, cfg.max_refine);
    let Some(first) = state.best.clone() else {
        return Ok(());
    };
    if !enabled {
        state.record(
            Stage::Refine,
            t,
            "off (ask.refine = false)".into(),
            Vec::new(),
        );
        return Ok(());
    }
    if first.weak.is_empty() {
        state.record(
            Stage::Refine,
            t,
            "not needed: the evidence holds".into(),
            Vec::new(),
        );
        return Ok(());
    }
    // Call sites and import lines read from the graph are the answer itself: another
    // query can only lose them.
    if first.graph.iter().any(|f| {
        matches!(
            f.intent,
            Intent::Callers | Intent::Callees | Intent::Imports
        ) && !f.rows.is_empty()
    }) {
        state.record(
            Stage::Refine,
            t,
            "not needed: answered from the code graph".into(),
            Vec::new(),
        );
        return Ok(());
    }
    // A name the index lacks is most likely misspelled or renamed: the repository's own
    // vocabulary goes first then.
    let mut order = STRATEGIES.to_vec();
    let mut unknown = false;
    for t in &first.query.targets {
        unknown |= !state.memories.read(|c| retrieve::is_defined(c, t))?;
    }
    if unknown {
        order.swap(0, 1);
    }
    let mut seen: HashSet<String> = HashSet::from([first.query.signature()]);
    let mut used: Vec<Strategy> = Vec::new();
    let mut reasons = first.weak.clone();
    for _ in 0..max {
        let Some(best) = state.best.clone() else {
            break;
        };
        let mut next = None;
        for &strategy in &order {
            if used.contains(&strategy) {
                continue;
            }
            used.push(strategy);
            if let Some(q) = build(state, strategy, &best.query)?
                && seen.insert(q.signature())
            {
                next = Some((strategy, q));
                break;
            }
        }
        let Some((strategy, query)) = next else {
            reasons.push("no strategy left that changes the query".into());
            break;
        };
        let pass = run_pass(state, query, Some(strategy))?;
        let before = ids(&best);
        let new_candidates = pass
            .candidates
            .iter()
            .filter(|c| !before.contains(&c.loc.chunk_id))
            .count();
        // A gain within the noise of the fitted confidence does not replace the pass.
        let improved = pass.confidence.score > best.confidence.score + MIN_GAIN;
        state.attempts.push(Attempt {
            strategy,
            query: pass.query.text.clone(),
            targets: pass.query.targets.clone(),
            plan: pass
                .query
                .plan
                .steps
                .iter()
                .map(|s| format!("{}={:.2}", s.memory, s.weight))
                .collect(),
            new_candidates,
            confidence_before: best.confidence.score,
            confidence_after: pass.confidence.score,
            kept: improved,
        });
        reasons.push(format!(
            "{strategy}: {new_candidates} new candidate(s), confidence {:.2} → {:.2}{}",
            best.confidence.score,
            pass.confidence.score,
            if improved { " (kept)" } else { "" }
        ));
        let holds = pass.weak.is_empty();
        if improved {
            state.best = Some(pass);
        }
        if new_candidates == 0 && !improved {
            reasons.push("the attempt added nothing: stop".into());
            break;
        }
        if improved && holds {
            break;
        }
    }
    let kept = state.attempts.iter().filter(|a| a.kept).count();
    let decision = format!(
        "{} attempt(s), {kept} improved the evidence",
        state.attempts.len()
    );
    state.record(Stage::Refine, t, decision, reasons);
    Ok(())
}

/// The query a strategy makes of `q`; `None` when it does not apply.
fn build(state: &State, strategy: Strategy, q: &Query) -> Result<Option<Query>> {
    let cfg = &state.memories.config.route;
    match strategy {
        Strategy::SplitIdentifiers => {
            let idents: Vec<&str> = state.classification.identifiers().collect();
            if idents.is_empty() {
                return Ok(None);
            }
            let mut words: Vec<String> = Vec::new();
            for i in &idents {
                words.extend(split_identifier(i));
            }
            for t in &state.terms {
                if !idents.iter().any(|i| i.eq_ignore_ascii_case(t)) {
                    words.push(t.clone());
                }
            }
            let mut targets = Vec::new();
            for t in &q.targets {
                if state.memories.read(|c| retrieve::is_defined(c, t))? {
                    targets.push(t.clone());
                    continue;
                }
                for v in variants(t) {
                    if state.memories.read(|c| retrieve::is_defined(c, &v))?
                        && !targets.contains(&v)
                    {
                        targets.push(v);
                    }
                }
            }
            Ok(Some(Query {
                text: dedup_words(&words).join(" "),
                semantic: None,
                targets,
                plan: q.plan.clone(),
            }))
        }
        Strategy::RepositoryVocabulary => {
            let vocab = state.memories.vocabulary()?;
            let mut targets: Vec<String> = Vec::new();
            let mut extra: Vec<String> = Vec::new();
            // Names the question gives that the index lacks: the nearest defined names.
            for t in &q.targets {
                if state.memories.read(|c| retrieve::is_defined(c, t))? {
                    targets.push(t.clone());
                } else {
                    for v in nearest_names(t, &vocab, 2) {
                        if !targets.contains(&v) {
                            targets.push(v.clone());
                            extra.push(v);
                        }
                    }
                }
            }
            // The question's words: the defined names made of them.
            let structural = state
                .classification
                .intents
                .iter()
                .any(|i| i.is_structural());
            let mut named = names_from_words(&state.terms, &vocab, 4);
            // A test's name is made of the words of what it tests: it is no subject for a
            // question that is not about tests.
            if !super::pass::asks_about_tests(&state.question) {
                named.retain(|n| !super::pass::is_test_symbol(n));
            }
            for n in named {
                if !extra.contains(&n) {
                    extra.push(n.clone());
                }
                if structural && q.targets.is_empty() && targets.len() < 2 {
                    targets.push(n);
                }
            }
            if extra.is_empty() {
                return Ok(None);
            }
            Ok(Some(Query {
                text: format!("{} {}", q.text, extra.join(" ")).trim().to_string(),
                semantic: Some(q.semantic.clone().unwrap_or_else(|| q.text.clone())),
                targets,
                plan: q.plan.clone(),
            }))
        }
        // Widening to the other routes may find what switching weights cannot.
        Strategy::SwitchLexicalSemantic if q.has_no_words() => Ok(None),
        Strategy::SwitchLexicalSemantic => {
            let weight = |r: Memory| {
                q.plan
                    .steps
                    .iter()
                    .find(|s| s.memory == r)
                    .map(|s| s.weight)
            };
            let (lex, sem) = (weight(Memory::Lexical), weight(Memory::Semantic));
            let intent = q.plan.steps.first().map_or(Intent::Locate, |s| s.intent);
            let (new_lex, new_sem) = match (lex, sem) {
                (Some(l), Some(s)) if (l - s).abs() > f32::EPSILON => (s, l),
                (Some(l), Some(_)) => (l * 0.5, l),
                (Some(l), None) => (l * 0.5, l.max(0.5)),
                (None, Some(s)) => (s.max(0.5), s * 0.5),
                (None, None) => (0.5, 1.0),
            };
            let mut steps: Vec<Step> = q
                .plan
                .steps
                .iter()
                .filter(|s| !matches!(s.memory, Memory::Lexical | Memory::Semantic))
                .cloned()
                .collect();
            steps.push(Step {
                memory: Memory::Lexical,
                weight: new_lex,
                intent,
            });
            steps.push(Step {
                memory: Memory::Semantic,
                weight: new_sem,
                intent,
            });
            Ok(Some(Query {
                text: q.text.clone(),
                semantic: q.semantic.clone(),
                targets: q.targets.clone(),
                plan: Plan {
                    steps,
                    widened: q.plan.widened,
                },
            }))
        }
        Strategy::WidenRoute => {
            let mut plan = q.plan.clone();
            let intent = plan.steps.first().map_or(Intent::Locate, |s| s.intent);
            for r in Memory::ALL {
                if !plan.steps.iter().any(|s| s.memory == r) {
                    plan.steps.push(Step {
                        memory: r,
                        weight: cfg.widen_weight,
                        intent,
                    });
                    plan.widened = true;
                }
            }
            if plan_text(&plan) == plan_text(&q.plan) {
                return Ok(None);
            }
            Ok(Some(Query {
                text: q.text.clone(),
                semantic: q.semantic.clone(),
                targets: q.targets.clone(),
                plan,
            }))
        }
    }
}

fn dedup_words(words: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in words {
        if !out.iter().any(|o| o.eq_ignore_ascii_case(w)) {
            out.push(w.clone());
        }
    }
    out
}

//! The verify stage: does the evidence hold? Entity coverage, score margin, both sides
//! of a comparison, and grounding — how much of what the question asks the best
//! evidence states. A structural answer read straight from the graph, and a history
//! answer read from commits, are grounded by construction.
//!
//! The confidence is the probability, fitted on real repositories, that the first
//! source is right given these signals and the share of the question's words that no
//! chunk holds (`calibration`).

use super::classify::{EntityKind, Intent};
use super::text::{covered, is_everyday, is_generic_noun, stems};
use super::{Confidence, Pass, State};

/// The label of a confidence score (a probability that the first source is right).
pub fn label(score: f64) -> &'static str {
    if score >= 0.90 {
        "High"
    } else if score >= 0.70 {
        "Medium"
    } else {
        "Low"
    }
}

/// The highest confidence of an introduction read from a history still being read:
/// Low, above `ask.refine_below` and `ask.abstain_below` (0.6 and 0.3 by default).
const PARTIAL_INTRODUCTION: f64 = 0.65;

/// The share of a repository's files read as text only (a language this build has no
/// grammar for) from which a structural answer is [`PARTIAL_INTRODUCTION`] at most.
const TEXT_ONLY_SHARE: f64 = 0.1;

/// The measured signals of a confidence, before its score.
#[derive(Debug, Clone, Copy, Default)]
pub struct Signals {
    pub retrieval: f64,
    pub coverage: f64,
    pub grounding: f64,
    pub margin: f64,
    pub unknown: f64,
    pub agree: f64,
    pub history: f64,
    pub graph: f64,
    pub absent: f64,
    pub verbatim: f64,
}

fn confidence(s: Signals) -> Confidence {
    let mut c = Confidence {
        score: 0.0,
        label: String::new(),
        retrieval: round(s.retrieval),
        coverage: round(s.coverage),
        grounding: round(s.grounding),
        margin: round(s.margin),
        unknown: round(s.unknown),
        agree: s.agree,
        history: s.history,
        graph: s.graph,
        absent: s.absent,
        verbatim: s.verbatim,
    };
    let score = if s.retrieval == 0.0 && s.grounding == 0.0 {
        0.0
    } else {
        super::calibration::probability(&c)
    };
    c.score = round(score);
    c.label = label(score).into();
    c
}

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Before verification.
pub fn unverified() -> Confidence {
    confidence(Signals::default())
}

/// With verification off: whatever was found is trusted.
pub fn trusted(pass: &Pass) -> Confidence {
    let x = if pass.candidates.is_empty() { 0.0 } else { 1.0 };
    let mut c = confidence(Signals {
        retrieval: x,
        coverage: x,
        grounding: x,
        ..Signals::default()
    });
    c.score = x;
    c.label = label(x).into();
    c
}

/// Scores `pass` and marks it weak with reasons; returns the reasons for the trace.
pub fn verify(state: &mut State, pass: &mut Pass) -> anyhow::Result<Vec<String>> {
    let mut reasons = Vec::new();
    let cfg = &state.memories.config.ask;
    let (rrf_k, refine_below, k) = (cfg.rrf_k, cfg.refine_below, cfg.k.max(3));
    // Retrieval strength: the best fused score against the best possible one (rank 1
    // in the heaviest retriever), and its margin over the second.
    let heaviest = pass
        .query
        .plan
        .steps
        .iter()
        .map(|s| f64::from(s.weight))
        .fold(0.0, f64::max);
    let steps = pass.query.plan.steps.iter();
    let ideal = if super::route::fused_by_score(steps.map(|s| (s.memory, f64::from(s.weight)))) {
        heaviest
    } else {
        heaviest / (rrf_k + 1.0)
    };
    let top = pass.candidates.first().map_or(0.0, |c| c.score);
    let second = pass.candidates.get(1).map_or(0.0, |c| c.score);
    let strength = if ideal > 0.0 {
        (top / ideal).min(1.0)
    } else {
        0.0
    };
    let margin = if top > 0.0 { (top - second) / top } else { 0.0 };
    let routes_on_top = pass.candidates.first().map_or(0, |c| c.evidence.len());
    let retrieval =
        (0.8 * strength + 0.2 * margin.max(if routes_on_top > 1 { 0.5 } else { 0.0 })).min(1.0);
    reasons.push(format!(
        "retrieval {retrieval:.2}: best {top:.4} of an ideal {ideal:.4}, margin {margin:.2}, found by {routes_on_top} route(s)"
    ));

    // The text of the best candidates.
    let mut top_stems = Vec::new();
    for c in pass.candidates.iter().take(k) {
        let body = state
            .text
            .text(&c.loc.path, c.loc.start_line, c.loc.end_line);
        let mut s = stems(&body);
        s.extend(stems(&c.loc.path));
        if let Some(sym) = &c.loc.symbol {
            s.extend(stems(sym));
        }
        top_stems.push(s);
    }
    // The history's targets with commits: "when was the jws module removed?" read the
    // log of `app/jws.py`, a file the tree no longer holds.
    let target_stems: Vec<_> = pass
        .history
        .iter()
        .filter(|h| !h.commits.is_empty())
        .map(|h| stems(&h.target))
        .collect();
    let any_covers = |term: &str, n: usize| {
        top_stems.iter().take(n).any(|s| covered(term, s))
            || target_stems.iter().any(|s| covered(term, s))
    };

    // A generic noun of the question ("its fields") that no chunk holds is the asker's
    // word for this code's parts: neither missing from the evidence nor unknown.
    let mut absent_generic: Vec<&str> = Vec::new();
    for t in state.terms.iter().filter(|t| is_generic_noun(t)) {
        if state.memories.doc_freq(t)?.is_some_and(|(df, _)| df == 0) {
            absent_generic.push(t);
        }
    }
    let absent_generic = |w: &str| absent_generic.iter().any(|g| g.eq_ignore_ascii_case(w));

    // Coverage: the named entities (or, when none, the subject words) the candidates hold.
    let named: Vec<&str> = state
        .classification
        .entities
        .iter()
        .filter(|e| e.kind != EntityKind::Date)
        .map(|e| e.text.as_str())
        .collect();
    let graph_named = |e: &str| pass.graph.iter().any(|f| f.target == e);
    let (coverage, missing): (f64, Vec<String>) = if !named.is_empty() {
        let missing: Vec<String> = named
            .iter()
            .filter(|e| !graph_named(e) && !any_covers(e, k))
            .map(|e| e.to_string())
            .collect();
        (1.0 - missing.len() as f64 / named.len() as f64, missing)
    } else if !state.terms.is_empty() {
        // An everyday verb ("recorded", "picked") says how, not what: the evidence need
        // not hold it, unless it is all the question says.
        let mut subject: Vec<&String> = state
            .terms
            .iter()
            .filter(|t| !is_everyday(t) && !absent_generic(t))
            .collect();
        if subject.is_empty() {
            subject = state.terms.iter().collect();
        }
        let missing: Vec<String> = subject
            .iter()
            .filter(|t| !any_covers(t, 3))
            .map(|t| t.to_string())
            .collect();
        (1.0 - missing.len() as f64 / subject.len() as f64, missing)
    } else {
        // Nothing named and no subject word (an author and a month took them all): a
        // list of commits is as much an answer as a list of chunks.
        let commits = pass.history.iter().any(|h| !h.commits.is_empty());
        (
            if pass.candidates.is_empty() && !commits {
                0.0
            } else {
                0.5
            },
            Vec::new(),
        )
    };
    if missing.is_empty() {
        reasons.push(format!("coverage {coverage:.2}"));
    } else {
        reasons.push(format!(
            "coverage {coverage:.2}: not found: {}",
            missing.join(", ")
        ));
        if !named.is_empty() {
            pass.weak
                .push(format!("named but not found: {}", missing.join(", ")));
        }
    }

    // Grounding, per intent.
    let mut per_intent = Vec::new();
    let words: Vec<&str> = if named.is_empty() {
        state.terms.iter().map(String::as_str).collect()
    } else {
        named.clone()
    };
    let source_grounding = |top_stems: &[std::collections::HashSet<String>]| -> f64 {
        let Some(best) = top_stems.first() else {
            return 0.0;
        };
        let support = if words.is_empty() {
            0.5
        } else {
            words.iter().filter(|w| covered(w, best)).count() as f64 / words.len() as f64
        };
        let agree = if routes_on_top > 1 { 1.0 } else { 0.0 };
        0.75 * support + 0.25 * agree
    };
    for &intent in &state.classification.intents {
        let g = match intent {
            Intent::Callers | Intent::Callees | Intent::Definition | Intent::Imports => {
                let finding = pass
                    .graph
                    .iter()
                    .find(|f| f.intent == intent && !f.definitions.is_empty());
                if finding.is_none() {
                    // The graph answers this kind of question; without a definition of
                    // the name it has no answer, whatever the text routes found.
                    pass.weak.push(format!(
                        "{}: the graph has no definition of what is named",
                        intent.as_str()
                    ));
                }
                if let Some(f) = finding {
                    // Callers are grounded as far as the call sites with the name are
                    // proven: each unknown receiver or name-only match may be a call the
                    // answer does not list.
                    let open = f.set_aside.unresolved + f.set_aside.name_only;
                    if intent == Intent::Callers && open > 0 {
                        let proven = f.rows.len();
                        // A reason, not a weakness: no refinement types a receiver.
                        reasons.push(format!(
                            "callers: {open} call site(s) named like `{}` not proven",
                            f.target
                        ));
                        0.5 + 0.5 * proven as f64 / (proven + open) as f64
                    } else {
                        1.0
                    }
                } else {
                    source_grounding(&top_stems) * 0.8
                }
            }
            Intent::History => {
                if !pass.history.is_empty() {
                    1.0
                } else {
                    0.0
                }
            }
            Intent::Compare => {
                let sides: Vec<&str> = named.iter().copied().take(2).collect();
                let covered_sides = sides
                    .iter()
                    .filter(|e| graph_named(e) || any_covers(e, k))
                    .count();
                if sides.len() < 2 || covered_sides < 2 {
                    pass.weak
                        .push("compare: both sides are not covered".to_string());
                    source_grounding(&top_stems) * 0.5
                } else if sides.iter().all(|e| graph_named(e)) {
                    1.0
                } else {
                    source_grounding(&top_stems).max(0.75)
                }
            }
            _ => source_grounding(&top_stems),
        };
        per_intent.push((intent, g));
    }
    let grounding = if per_intent.is_empty() {
        0.0
    } else {
        per_intent.iter().map(|(_, g)| g).sum::<f64>() / per_intent.len() as f64
    };
    reasons.push(format!(
        "grounding {grounding:.2}: {}",
        per_intent
            .iter()
            .map(|(i, g)| format!("{} {g:.2}", i.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    // A word the history's target holds is known to the history, if to no chunk; an
    // everyday verb need be known to neither.
    // Words, not runs between spaces: "computed?" is the everyday "computed".
    let asked: Vec<&str> = super::text::words(&pass.query.text)
        .filter(|w| {
            !target_stems.iter().any(|s| covered(w, s)) && !is_everyday(w) && !absent_generic(w)
        })
        .collect();
    let (unknown, absent) = state
        .memories
        .unknown_words(&asked.join(" "))?
        .unwrap_or((0.0, 0.0));
    if unknown > 0.0 {
        reasons.push(format!(
            "unknown {unknown:.2}: the share of the question's words no chunk holds"
        ));
    }
    let history = f64::from(u8::from(
        state.classification.intents.contains(&Intent::History)
            && pass.history.iter().any(|h| !h.commits.is_empty()),
    ));
    let graph = f64::from(u8::from(pass.graph.iter().any(|f| {
        matches!(
            f.intent,
            Intent::Callers | Intent::Callees | Intent::Imports
        ) && !f.definitions.is_empty()
    })));
    // The first source holds the question's sentence as written (a doc comment, a message).
    let verbatim = f64::from(u8::from(
        pass.written.is_some() && pass.written == pass.candidates.first().map(|c| c.loc.chunk_id),
    ));
    if verbatim > 0.0 {
        reasons.push("verbatim: the first source holds the question's sentence as written".into());
    }
    pass.confidence = confidence(Signals {
        retrieval,
        coverage,
        grounding,
        margin,
        unknown,
        agree: f64::from(u8::from(routes_on_top > 1)),
        history,
        graph,
        absent,
        verbatim,
    });
    // An introduction read from a history still being read, or from a shallow clone's
    // (`retrieve::introduced_within`), names only the oldest commit held: Low, whatever
    // the evidence (the answer says the introducing commit may be older), though not so
    // low that it is refined or withheld.
    if pass
        .history
        .iter()
        .any(|h| h.oldest_first && h.partial.is_some() && !h.commits.is_empty())
        && pass.confidence.score > PARTIAL_INTRODUCTION
    {
        pass.confidence.score = PARTIAL_INTRODUCTION;
        pass.confidence.label = label(PARTIAL_INTRODUCTION).into();
        reasons.push(format!(
            "history held in part (read in part, or a shallow clone): the introducing \
             commit may be older, confidence {PARTIAL_INTRODUCTION:.2} at most"
        ));
    }
    // A structural answer in a repository whose files are in good part in a language
    // this build reads as text: the callers, callees or definitions there are missing.
    let share = state.memories.text_only_share();
    if !pass.graph.is_empty()
        && share >= TEXT_ONLY_SHARE
        && pass.confidence.score > PARTIAL_INTRODUCTION
    {
        pass.confidence.score = PARTIAL_INTRODUCTION;
        pass.confidence.label = label(PARTIAL_INTRODUCTION).into();
        reasons.push(format!(
            "{:.0} % of the files are read as text only (no grammar in this build): \
             the graph misses what they define and call, confidence \
             {PARTIAL_INTRODUCTION:.2} at most",
            share * 100.0
        ));
    }
    if pass.candidates.is_empty() {
        pass.weak.push("nothing retrieved".into());
    }
    if pass.confidence.score < refine_below {
        pass.weak.push(format!(
            "confidence {:.2} < ask.refine_below {refine_below:.2}",
            pass.confidence.score
        ));
    }
    reasons.extend(pass.weak.iter().map(|w| format!("weak: {w}")));
    Ok(reasons)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_the_documented_thresholds() {
        assert_eq!(label(0.90), "High");
        assert_eq!(label(0.89), "Medium");
        assert_eq!(label(0.70), "Medium");
        assert_eq!(label(0.69), "Low");
        assert_eq!(label(0.0), "Low");
    }

    #[test]
    fn nothing_found_is_no_confidence() {
        assert_eq!(unverified().score, 0.0);
        let strong = confidence(Signals {
            retrieval: 1.0,
            coverage: 1.0,
            grounding: 1.0,
            margin: 0.5,
            agree: 1.0,
            ..Signals::default()
        });
        let weak = confidence(Signals {
            retrieval: 0.2,
            coverage: 0.5,
            grounding: 0.2,
            ..Signals::default()
        });
        assert!(strong.score > weak.score, "{strong:?} {weak:?}");
    }
}

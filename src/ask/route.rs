//! The second stage of `ask`: from a classification to a plan — which retrievers to run,
//! with which weights. The default table lives in `[route]` of the configuration (and in
//! `llmc.toml.example`); low classifier confidence widens the plan.

use serde::Serialize;

use super::classify::{Classification, Intent};
use crate::config::{RouteConfig, RouteEntry};
use crate::model::Memory;

/// One memory to consult in a plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    pub memory: Memory,
    /// Its weight in reciprocal-rank fusion.
    pub weight: f32,
    /// The intent it serves.
    pub intent: Intent,
}

/// What to run for a question.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plan {
    pub steps: Vec<Step>,
    /// The plan was widened because the classifier was unsure.
    pub widened: bool,
}

/// Whether a plan of these (retriever, weight) steps is led by the text retrievers and
/// consults no history: its lists are then fused by their scores
/// ([`crate::search::fuse::by_score`]), the others by their ranks.
pub fn fused_by_score(steps: impl Iterator<Item = (Memory, f64)>) -> bool {
    let mut heaviest: Option<(Memory, f64)> = None;
    for (memory, weight) in steps {
        if memory == Memory::History {
            return false;
        }
        if heaviest.is_none_or(|(_, w)| weight > w) {
            heaviest = Some((memory, weight));
        }
    }
    matches!(heaviest, Some((Memory::Lexical | Memory::Semantic, _)))
}

/// Parses one route-table entry: `"graph=1.0 lexical=0.3"` (the configuration does, when
/// it loads: see [`RouteEntry::parse`]).
pub fn parse_entry(entry: &str) -> Result<Vec<(Memory, f32)>, String> {
    RouteEntry::parse(entry).map(|e| e.0)
}

/// Builds the plan for a classification. Several intents merge their routes (a
/// retriever keeps its highest weight); a confidence under `cfg.widen_below` adds every
/// retriever the table does not already use, at `cfg.widen_weight`.
///
/// The table was parsed when the configuration loaded, so this no longer fails; the
/// `Result` is kept for its callers.
pub fn route(c: &Classification, cfg: &RouteConfig) -> Result<Plan, String> {
    let mut steps: Vec<Step> = Vec::new();
    for &intent in &c.intents {
        for &(memory, weight) in cfg.entry(intent).steps() {
            match steps.iter_mut().find(|s| s.memory == memory) {
                Some(s) if s.weight < weight => {
                    s.weight = weight;
                    s.intent = intent;
                }
                Some(_) => {}
                None => steps.push(Step {
                    memory,
                    weight,
                    intent,
                }),
            }
        }
    }
    let widened = c.confidence < cfg.widen_below;
    if widened {
        let intent = c.intents.first().copied().unwrap_or(Intent::Locate);
        // The history lifts chunks whose commits share a word with the question: that is
        // evidence only for a question about history, never added by widening.
        for memory in Memory::ALL {
            if memory != Memory::History && !steps.iter().any(|s| s.memory == memory) {
                steps.push(Step {
                    memory,
                    weight: cfg.widen_weight,
                    intent,
                });
            }
        }
    }
    steps.sort_by(|a, b| b.weight.total_cmp(&a.weight).then(a.memory.cmp(&b.memory)));
    Ok(Plan { steps, widened })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ask::classify::classify;

    fn plan(q: &str) -> Vec<(&'static str, f32)> {
        route(&classify(q), &RouteConfig::default())
            .expect("default routes parse")
            .steps
            .iter()
            .map(|s| (s.memory.as_str(), s.weight))
            .collect()
    }

    #[test]
    fn structural_questions_go_to_the_graph_first() {
        assert_eq!(plan("who calls parse_config")[0].0, "graph");
        assert_eq!(plan("what does src/main.rs import")[0].0, "graph");
    }

    #[test]
    fn history_questions_go_to_history_with_some_lexical_context() {
        let p = plan("when was shelf_weight last changed");
        assert_eq!(p[0].0, "history");
        assert!(p.iter().any(|s| s.0 == "lexical"));
        // No vectors to load for a question the commits answer.
        assert!(!p.iter().any(|s| s.0 == "semantic"), "{p:?}");
    }

    #[test]
    fn two_intents_merge_their_routes() {
        let p = plan("what does shelf_weight do and who changed it last");
        for r in ["history", "lexical", "semantic"] {
            assert!(p.iter().any(|s| s.0 == r), "{r} in {p:?}");
        }
    }

    #[test]
    fn low_confidence_widens_the_plan() {
        let c = classify("area");
        let p = route(&c, &RouteConfig::default()).expect("plan");
        assert!(c.confidence < RouteConfig::default().widen_below);
        assert!(p.widened);
        // Every retriever but the history, which only history questions consult.
        let memories: Vec<Memory> = p.steps.iter().map(|s| s.memory).collect();
        assert_eq!(memories.len(), 3, "{memories:?}");
        assert!(!memories.contains(&Memory::History), "{memories:?}");
    }

    #[test]
    fn text_led_plans_fuse_by_score() {
        let fused = |q: &str| {
            let p = route(&classify(q), &RouteConfig::default()).expect("plan");
            fused_by_score(p.steps.iter().map(|s| (s.memory, f64::from(s.weight))))
        };
        assert!(fused("where is the usage message printed?"));
        assert!(!fused("who calls parse_config"));
        assert!(!fused("when was shelf_weight last changed"));
    }

    #[test]
    fn bad_entries_are_explained() {
        assert!(
            parse_entry("graph")
                .expect_err("rejected")
                .contains("RETRIEVER=WEIGHT")
        );
        assert!(
            parse_entry("grep=1")
                .expect_err("rejected")
                .contains("unknown retriever")
        );
        assert!(
            parse_entry("graph=x")
                .expect_err("rejected")
                .contains("number")
        );
    }
}

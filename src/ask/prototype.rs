//! A second opinion on the intent: the nearest labelled example questions
//! (`prototypes.tsv`, compiled in), compared with the built-in embedder. It never
//! overrides a confident rule; it lowers the confidence when it disagrees (so the route
//! widens) and decides when the rules found no cue at all.

use std::sync::OnceLock;

use super::classify::{Classification, Intent};
use crate::search::embed::HashEmbedder;

const PROTOTYPES: &str = include_str!("prototypes.tsv");
const DIM: usize = 512;
/// Neighbours that vote.
const VOTERS: usize = 3;
/// A vote below this similarity is no opinion.
const MIN_SIMILARITY: f32 = 0.35;

struct Prototypes {
    embedder: HashEmbedder,
    examples: Vec<(Intent, Vec<f32>)>,
}

fn prototypes() -> Option<&'static Prototypes> {
    static P: OnceLock<Option<Prototypes>> = OnceLock::new();
    P.get_or_init(|| {
        let embedder = HashEmbedder::new(DIM).ok()?;
        let examples = PROTOTYPES
            .lines()
            .filter_map(|l| {
                let (intent, q) = l.split_once('\t')?;
                Some((Intent::parse(intent)?, embedder.embed_one(q)))
            })
            .collect();
        Some(Prototypes { embedder, examples })
    })
    .as_ref()
}

/// The intent the nearest examples vote for, with their mean similarity.
pub fn vote(question: &str) -> Option<(Intent, f32)> {
    let p = prototypes()?;
    let q = p.embedder.embed_one(question);
    let mut sims: Vec<(f32, Intent)> = p
        .examples
        .iter()
        .map(|(i, v)| (v.iter().zip(&q).map(|(a, b)| a * b).sum::<f32>(), *i))
        .collect();
    sims.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut tally: Vec<(Intent, f32, usize)> = Vec::new();
    for &(s, i) in sims.iter().take(VOTERS) {
        match tally.iter_mut().find(|t| t.0 == i) {
            Some(t) => {
                t.1 += s;
                t.2 += 1;
            }
            None => tally.push((i, s, 1)),
        }
    }
    tally.sort_by(|a, b| b.1.total_cmp(&a.1));
    let (intent, sum, n) = *tally.first()?;
    let mean = sum / n as f32;
    (mean >= MIN_SIMILARITY).then_some((intent, mean))
}

/// Adjusts `c` by the prototypes' vote and says why in `reasons`.
pub fn second_opinion(question: &str, c: &mut Classification, reasons: &mut Vec<String>) {
    let Some((intent, sim)) = vote(question) else {
        reasons.push("prototypes: no example question is near".into());
        return;
    };
    // The rules' default for a bare name (a definition) stands: a name is not a sentence.
    let named = c.entities.iter().any(super::classify::Entity::names_code);
    let no_cue = c.confidence <= 0.3 && !named;
    if c.intents.contains(&intent) {
        c.confidence = (c.confidence + 0.1).min(0.95);
        reasons.push(format!(
            "prototypes agree: {} (similarity {sim:.2})",
            intent.as_str()
        ));
    } else if no_cue && super::classify::describes(question) {
        // A statement ("A frozen instance has been attempted to be modified.") describes
        // code, as a doc comment does: it is located, whatever question it resembles.
        reasons.push(format!(
            "prototypes lean {} (similarity {sim:.2}), but a statement describes code",
            intent.as_str()
        ));
    } else if no_cue && intent.is_structural() {
        // Callers, callees, imports and definitions are asked of a name, and the question
        // names none: the rules' default (locate) stands.
        reasons.push(format!(
            "prototypes lean {} (similarity {sim:.2}), but nothing is named",
            intent.as_str()
        ));
    } else if no_cue {
        reasons.push(format!(
            "prototypes decide: {} (similarity {sim:.2}); the rules found no cue",
            intent.as_str()
        ));
        c.intents = vec![intent];
        c.confidence = 0.45;
    } else {
        c.confidence = (c.confidence - 0.15).max(0.0);
        reasons.push(format!(
            "prototypes disagree: {} (similarity {sim:.2}); confidence lowered",
            intent.as_str()
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ask::classify::classify;

    fn decided(q: &str) -> Vec<Intent> {
        let mut c = classify(q);
        second_opinion(q, &mut c, &mut Vec::new());
        c.intents
    }

    #[test]
    fn a_sentence_that_names_nothing_is_located_whatever_it_resembles() {
        // The nearest examples are callers questions ("registers", "route"), but a callers
        // answer needs a name.
        assert_eq!(
            decided("Methods registers a new route with a matcher for HTTP methods."),
            [Intent::Locate]
        );
        assert_eq!(decided("how does the retry logic work"), [Intent::Concept]);
        // Nearest to "when was the parser modified", but a statement, not a question.
        assert_eq!(
            decided("A frozen instance has been attempted to be modified."),
            [Intent::Locate]
        );
    }
}

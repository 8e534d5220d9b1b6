//! The refine stage: when verification finds the evidence weak, up to `ask.max_refine`
//! more passes, each with a strategy not tried yet — split identifiers, the repository's
//! own vocabulary, switch lexical and semantic, widen the route. A query is never run
//! twice; refine stops when an attempt adds nothing. The best pass wins.

use std::collections::HashSet;
use std::time::Instant;

use anyhow::Result;

use super::classify::{EntityKind, Intent};
use super::route::{Plan, Step};
use super::text::{covered, split_identifier, stem, stems};
use super::{Attempt, Query, Stage, State, Strategy, ids, plan_text, retrieve, run_pass};
use crate::model::Memory;

/// The strategies, in the order they are tried.
pub const STRATEGIES: [Strategy; 4] = [
    Strategy::SplitIdentifiers,
    Strategy::RepositoryVocabulary,
    Strategy::SwitchLexicalSemantic,
    Strategy::WidenRoute,
];

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
            .filter(|c| !before.contains(&c.chunk_id))
            .count();
        let improved = pass.confidence.score > best.confidence.score + 1e-9;
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
            let idents: Vec<&str> = state
                .classification
                .entities
                .iter()
                .filter(|e| e.kind == EntityKind::Identifier)
                .map(|e| e.text.as_str())
                .collect();
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
                targets,
                plan: q.plan.clone(),
            }))
        }
        Strategy::RepositoryVocabulary => {
            let vocab = state.memories.read(retrieve::vocabulary)?;
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
            let structural = state.classification.intents.iter().any(|i| {
                matches!(
                    i,
                    Intent::Callers | Intent::Callees | Intent::Definition | Intent::Imports
                )
            });
            let named = names_from_words(&state.terms, &vocab, 4);
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
                targets,
                plan: q.plan.clone(),
            }))
        }
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

/// Other spellings of an identifier: its last segment, snake_case ↔ camelCase.
fn variants(ident: &str) -> Vec<String> {
    let mut out = Vec::new();
    let last = ident.rsplit(['.', ':']).next().unwrap_or(ident);
    if last != ident {
        out.push(last.to_string());
    }
    let parts = split_identifier(last);
    if parts.len() > 1 {
        out.push(parts.join("_"));
        let camel: String = parts
            .iter()
            .enumerate()
            .map(|(i, p)| if i == 0 { p.clone() } else { capitalize(p) })
            .collect();
        out.push(camel.clone());
        out.push(capitalize(&camel));
    }
    out.retain(|v| v != ident);
    out
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// Defined names within a small edit distance of `name` (case-insensitive), nearest
/// first.
pub fn nearest_names(name: &str, vocab: &[String], n: usize) -> Vec<String> {
    let target = name
        .rsplit(['.', ':'])
        .next()
        .unwrap_or(name)
        .to_lowercase();
    let max = (target.chars().count() / 4).clamp(1, 3);
    let mut scored: Vec<(usize, &String)> = vocab
        .iter()
        .filter(|v| v.len().abs_diff(target.len()) <= max)
        .filter_map(|v| {
            let d = levenshtein(&target, &v.to_lowercase(), max)?;
            Some((d, v))
        })
        .collect();
    scored.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)));
    scored.into_iter().take(n).map(|(_, v)| v.clone()).collect()
}

/// Defined names whose parts cover the most of `words` (at least one whole word, and
/// all of the name's own parts found among the words or being few).
pub fn names_from_words(words: &[String], vocab: &[String], n: usize) -> Vec<String> {
    if words.is_empty() {
        return Vec::new();
    }
    let word_stems: HashSet<String> = words
        .iter()
        .flat_map(|w| split_identifier(w))
        .map(|p| stem(&p))
        .collect();
    // A cheap filter first: the name must hold the start of some word.
    let keys: Vec<String> = word_stems
        .iter()
        .map(|s| s.chars().take(4).collect::<String>())
        .filter(|k| k.len() >= 2)
        .collect();
    let mut scored: Vec<(f64, &String)> = Vec::new();
    for v in vocab {
        let lower = v.to_lowercase();
        if !keys.iter().any(|k| lower.contains(k.as_str())) {
            continue;
        }
        let parts = split_identifier(v);
        if parts.is_empty() || parts.len() > 5 {
            continue;
        }
        let hit = parts
            .iter()
            .filter(|p| word_stems.contains(&stem(p)))
            .count();
        if hit == 0 {
            continue;
        }
        let name_stems = stems(v);
        let words_hit = words.iter().filter(|w| covered(w, &name_stems)).count();
        // Most question words covered, then names made only of question words.
        let score = words_hit as f64 * 2.0 + hit as f64 / parts.len() as f64;
        if hit == parts.len() || words_hit >= 2 {
            scored.push((score, v));
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.len().cmp(&b.1.len())));
    let mut out: Vec<String> = Vec::new();
    for (_, v) in scored {
        if !out.contains(v) {
            out.push(v.clone());
        }
        if out.len() >= n {
            break;
        }
    }
    out
}

/// Levenshtein distance, or `None` beyond `max`.
fn levenshtein(a: &str, b: &str, max: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        let mut row_min = cur[0];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            row_min = row_min.min(cur[j]);
        }
        if row_min > max {
            return None;
        }
        prev = cur;
    }
    let d = prev[b.len()];
    (d <= max).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspelled_names_find_their_neighbours() {
        let vocab: Vec<String> = ["parse_config", "load_config", "ParseConfig", "push"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        // The nearest first; `ParseConfig` (two edits away once lowercased) may follow.
        assert_eq!(nearest_names("parse_confg", &vocab, 1), ["parse_config"]);
        assert_eq!(nearest_names("parse_confg", &vocab, 2)[0], "parse_config");
        assert_eq!(nearest_names("Stack::psh", &vocab, 1), ["push"]);
        assert!(nearest_names("kubernetes", &vocab, 2).is_empty());
    }

    #[test]
    fn words_find_the_names_made_of_them() {
        let vocab: Vec<String> = ["parse_config", "config", "parse", "render_page"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let words = vec!["parsing".to_string(), "configs".to_string()];
        let got = names_from_words(&words, &vocab, 2);
        assert_eq!(got.first().map(String::as_str), Some("parse_config"));
    }

    #[test]
    fn variants_switch_case_styles() {
        let v = variants("ParseConfig");
        assert!(v.contains(&"parse_config".to_string()));
        assert!(variants("Stack::push").contains(&"push".to_string()));
    }
}

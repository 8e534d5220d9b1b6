//! The graph-expand stage: the best candidates bring their graph neighbours (callers
//! and callees) at a decayed score, so an answer about a function also shows what it
//! leans on and who leans on it. Hubs are skipped unless the question names them.

use anyhow::Result;

use super::classify::Intent;
use super::{Candidate, Evidence, Route, State, retrieve};

/// Adds neighbours to `candidates`; returns how many, and the reasons for the trace.
pub fn expand(state: &mut State, candidates: &mut Vec<Candidate>) -> Result<(usize, Vec<String>)> {
    let cfg = &state.memories.config.ask;
    let (top, per, decay, hub) = (
        cfg.expand_top,
        cfg.expand_neighbours,
        cfg.expand_decay,
        cfg.hub_edges,
    );
    let named: Vec<String> = state
        .classification
        .entities
        .iter()
        .map(|e| {
            e.text
                .rsplit(['.', ':'])
                .next()
                .unwrap_or(&e.text)
                .to_string()
        })
        .collect();
    let mut added = Vec::new();
    let mut reasons = Vec::new();
    for c in candidates.iter().take(top) {
        let Some(sym) = c.loc.symbol_id else {
            continue;
        };
        let (ids, edges) = state
            .memories
            .read(|conn| retrieve::neighbours(conn, sym))?;
        let name = c.loc.symbol.clone().unwrap_or_default();
        let bare = name.rsplit(['.', ':']).next().unwrap_or(&name).to_string();
        if edges > hub && !named.contains(&bare) {
            reasons.push(format!(
                "{name}: a hub with {edges} call edges (> ask.hub_edges {hub}), not expanded"
            ));
            continue;
        }
        let mut n = 0;
        for id in ids {
            if n >= per {
                break;
            }
            if candidates.iter().any(|x| x.loc.chunk_id == id)
                || added.iter().any(|x: &Candidate| x.loc.chunk_id == id)
            {
                continue;
            }
            let Some(loc) = state
                .memories
                .read(|conn| crate::store::chunk_loc(conn, id))?
            else {
                continue;
            };
            if !state.in_scope(&loc.path) {
                continue;
            }
            added.push(Candidate {
                loc,
                score: c.score * decay,
                evidence: vec![Evidence {
                    route: Route::GraphExpand,
                    rank: n + 1,
                    score: (c.score * decay) as f32,
                }],
                expanded_from: Some(name.clone()),
                lines: Vec::new(),
            });
            n += 1;
        }
        if n > 0 {
            reasons.push(format!("{name}: {n} neighbour(s) at × {decay}"));
        }
    }
    // A question about where something is or what it is answers with the code that
    // matches it: a neighbour never outranks a direct hit among the sources shown.
    let primary = state.classification.intents.first().copied();
    if matches!(
        primary,
        Some(Intent::Locate | Intent::Definition | Intent::Concept)
    ) && !added.is_empty()
    {
        let k = cfg.k.max(1);
        if let Some(floor) = candidates.iter().take(k).map(|c| c.score).reduce(f64::min) {
            let cap = floor * (1.0 - 1e-9);
            let mut capped = 0;
            for a in &mut added {
                if a.score >= cap {
                    a.score = cap;
                    capped += 1;
                }
            }
            if capped > 0 {
                reasons.push(format!(
                    "{capped} neighbour(s) kept below the direct hits ({} question)",
                    primary.map_or("", |i| i.as_str())
                ));
            }
        }
    }
    let count = added.len();
    candidates.extend(added);
    // Stable: a capped neighbour stays after the direct hit it ties with.
    candidates.sort_by(|a, b| b.score.total_cmp(&a.score));
    Ok((count, reasons))
}

//! Fusion of ranked lists. Weighted reciprocal rank fusion: a chunk at rank r (1-based) in
//! a route with weight w scores w / (k + r), summed over the routes that found it. Score
//! fusion: a chunk scores w × its route score scaled to 0..1 between the list's lowest and
//! highest, summed. Pure.

use std::collections::HashMap;

use crate::model::Memory;

/// One route's ranked list: (chunk id, the route's own score), best first.
#[derive(Debug, Clone)]
pub struct RankedList {
    pub route: Memory,
    pub weight: f64,
    pub hits: Vec<(i64, f32)>,
}

/// Where a fused hit stood in one route.
#[derive(Debug, Clone, PartialEq)]
pub struct RouteRank {
    pub route: Memory,
    /// 1-based.
    pub rank: usize,
    pub score: f32,
}

/// A fused hit.
#[derive(Debug, Clone, PartialEq)]
pub struct Fused {
    pub id: i64,
    pub score: f64,
    pub routes: Vec<RouteRank>,
}

/// Fuses `lists` with constant `k`; ties keep the order of the first list that has them.
pub fn rrf(lists: &[RankedList], k: f64) -> Vec<Fused> {
    fuse_by(lists, |list| {
        let w = list.weight;
        move |rank: usize, _score: f32| w / (k + rank as f64)
    })
}

/// Fuses `lists` by their scores: each list's scores min-max scaled to 0..1 (all 1 when
/// they are equal), times its weight, summed over the lists that have the chunk; ties keep
/// the order of the first list that has them.
///
/// Unlike rank fusion it keeps how far ahead a hit is: a BM25 winner far above the rest
/// stays first when the vectors rank it tenth. On the locate and concept questions of the
/// tune half and both development sets (249 questions, `llmc search` lists of 50), MRR@10
/// 0.916 against 0.891 for rank fusion with k = 60 and 0.899 for BM25 alone.
pub fn by_score(lists: &[RankedList]) -> Vec<Fused> {
    fuse_by(lists, |list| {
        let (lo, hi) = list
            .hits
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &(_, s)| {
                (lo.min(s), hi.max(s))
            });
        let w = list.weight;
        move |_rank: usize, score: f32| {
            w * if hi > lo {
                f64::from((score - lo) / (hi - lo))
            } else {
                1.0
            }
        }
    })
}

/// One entry per chunk over `lists`, each list adding what `worth` (made once per list)
/// gives the chunk's 1-based rank and score there; a list counts a chunk once. Best
/// first; ties keep the order of the first list that has them.
fn fuse_by<F: Fn(usize, f32) -> f64>(
    lists: &[RankedList],
    worth: impl Fn(&RankedList) -> F,
) -> Vec<Fused> {
    let mut by_id: HashMap<i64, usize> = HashMap::new();
    let mut out: Vec<Fused> = Vec::new();
    for list in lists {
        let worth = worth(list);
        for (i, &(id, score)) in list.hits.iter().enumerate() {
            let rank = i + 1;
            let slot = *by_id.entry(id).or_insert_with(|| {
                out.push(Fused {
                    id,
                    score: 0.0,
                    routes: Vec::new(),
                });
                out.len() - 1
            });
            let f = &mut out[slot];
            if f.routes.iter().any(|r| r.route == list.route) {
                continue;
            }
            f.score += worth(rank, score);
            f.routes.push(RouteRank {
                route: list.route,
                rank,
                score,
            });
        }
    }
    // A stable sort keeps first-seen order among equal scores.
    out.sort_by(|a, b| b.score.total_cmp(&a.score));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunk_found_by_both_routes_wins() {
        let lists = [
            RankedList {
                route: Memory::Lexical,
                weight: 1.0,
                hits: vec![(1, 9.0), (2, 8.0), (3, 7.0)],
            },
            RankedList {
                route: Memory::Semantic,
                weight: 1.0,
                hits: vec![(3, 0.9), (4, 0.8)],
            },
        ];
        let fused = rrf(&lists, 60.0);
        let ids: Vec<i64> = fused.iter().map(|f| f.id).collect();
        assert_eq!(ids, [3, 1, 2, 4]);
        assert_eq!(fused[0].routes.len(), 2);
        assert!((fused[0].score - (1.0 / 63.0 + 1.0 / 61.0)).abs() < 1e-12);
        assert_eq!(fused[2].routes[0].rank, 2);
    }

    #[test]
    fn weights_scale_a_route() {
        let lists = [
            RankedList {
                route: Memory::Lexical,
                weight: 0.5,
                hits: vec![(1, 1.0)],
            },
            RankedList {
                route: Memory::Semantic,
                weight: 2.0,
                hits: vec![(2, 1.0)],
            },
        ];
        assert_eq!(rrf(&lists, 60.0)[0].id, 2);
    }

    /// A BM25 winner far ahead of the rest stays first by scores though the vectors put
    /// it fourth of near-equals; by ranks, a chunk both lists hold near the top overtakes
    /// it.
    #[test]
    fn score_fusion_keeps_a_clear_winner_first() {
        let lists = [
            RankedList {
                route: Memory::Lexical,
                weight: 1.0,
                hits: vec![(1, 46.0), (2, 20.0), (3, 18.0), (4, 10.0)],
            },
            RankedList {
                route: Memory::Semantic,
                weight: 1.0,
                hits: vec![(3, 0.61), (2, 0.60), (4, 0.599), (1, 0.598), (5, 0.40)],
            },
        ];
        let ids = |f: Vec<Fused>| f.iter().map(|f| f.id).collect::<Vec<_>>();
        assert_eq!(ids(by_score(&lists))[0], 1);
        assert_ne!(ids(rrf(&lists, 60.0))[0], 1);
        let fused = by_score(&lists);
        // Scaled to 0..1 in each list: the winner holds 1 + 0.94 of 2.
        assert!(
            (fused[0].score - (1.0 + 0.198 / 0.21)).abs() < 1e-4,
            "{fused:?}"
        );
        // Equal scores in a list all count whole.
        let flat = [RankedList {
            route: Memory::Graph,
            weight: 0.5,
            hits: vec![(7, 1.0), (8, 1.0)],
        }];
        let f = by_score(&flat);
        assert_eq!((f[0].id, f[0].score, f[1].score), (7, 0.5, 0.5));
    }
}

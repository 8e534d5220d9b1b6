//! Weighted reciprocal rank fusion: a chunk at rank r (1-based) in a route with weight w
//! scores w / (k + r), summed over the routes that found it. Pure.

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
    let mut by_id: HashMap<i64, usize> = HashMap::new();
    let mut out: Vec<Fused> = Vec::new();
    for list in lists {
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
            f.score += list.weight / (k + rank as f64);
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
}

//! The code graph on the nine fixtures: every hand-checked call site resolves to the
//! expected definition (path and qualified name) from the expected caller. External
//! callees are compared by their `external:` prefix only, as testdata/README.md allows.

use std::collections::BTreeMap;

use crate::util::{LANGS, Scratch, call_edges, testdata};

fn expected(lang: &str) -> Vec<String> {
    let text = std::fs::read_to_string(testdata().join("expected").join(format!("{lang}.calls")))
        .expect("expected calls");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(normalize)
        .collect()
}

/// `external:anything` → `external:`.
fn normalize(row: &str) -> String {
    match row.rsplit_once('\t') {
        Some((head, callee)) if callee.starts_with("external:") => format!("{head}\texternal:"),
        _ => row.to_string(),
    }
}

/// Precision and recall of `got` against `want` (multisets), with the differences.
fn score(got: &[String], want: &[String]) -> (f64, f64, Vec<String>) {
    let mut counts: BTreeMap<&str, i64> = BTreeMap::new();
    for w in want {
        *counts.entry(w).or_default() += 1;
    }
    let mut hits = 0usize;
    let mut diff = Vec::new();
    for g in got {
        match counts.get_mut(g.as_str()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                hits += 1;
            }
            _ => diff.push(format!("spurious {g}")),
        }
    }
    for (w, n) in counts {
        for _ in 0..n {
            diff.push(format!("missing  {w}"));
        }
    }
    let p = if got.is_empty() {
        1.0
    } else {
        hits as f64 / got.len() as f64
    };
    let r = if want.is_empty() {
        1.0
    } else {
        hits as f64 / want.len() as f64
    };
    (p, r, diff)
}

#[test]
fn every_fixture_call_resolves_as_hand_checked() {
    let mut report = String::new();
    let mut scores = BTreeMap::new();
    for lang in LANGS {
        let repo = Scratch::fixture(lang);
        repo.index();
        let got: Vec<String> = call_edges(&repo.store())
            .iter()
            .map(|r| normalize(r))
            .collect();
        let (p, r, diff) = score(&got, &expected(lang));
        println!("{lang:<11} precision {p:.3} recall {r:.3}");
        for d in &diff {
            report.push_str(&format!("{lang}: {d}\n"));
        }
        scores.insert(lang, (p, r));
    }
    println!("{report}");
    for (lang, (p, r)) in &scores {
        assert!(
            *p >= 1.0 && *r >= 1.0,
            "{lang}: precision {p:.3} recall {r:.3}\n{report}"
        );
    }
}

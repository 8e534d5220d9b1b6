//! The confidence score: the estimated probability that an answer's first source (or
//! commit) is right, as a logistic function of the signals `verify` measures. The
//! weights are fitted on the tune half of the real-repository question sets
//! (`testdata/real/ask/*.tune.jsonl`) by `scripts/calibrate.py`, which rewrites the block
//! between the markers below; the test half only reports how well they hold.

use super::Confidence;

/// The signals, in the order of [`WEIGHTS`].
pub const FEATURES: [&str; 10] = [
    "retrieval",
    "coverage",
    "grounding",
    "margin",
    "unknown",
    "agree",
    "history",
    "graph",
    "absent",
    "verbatim",
];

// BEGIN fitted by scripts/calibrate.py
pub const WEIGHTS: [f64; 10] = [
    0.0778, 0.8537, 1.8924, 0.0000, -0.4533, 0.0000, 0.7104, 0.3499, -1.3644, 0.8233,
];
pub const BIAS: f64 = -0.6312;
pub const KNOTS: [(f64, f64); 7] = [
    (0.2736, 0.0172),
    (0.6901, 0.2667),
    (0.8117, 0.3793),
    (0.8662, 0.7973),
    (0.9099, 0.9590),
    (0.9304, 0.9792),
    (0.9523, 0.9945),
];
// END fitted by scripts/calibrate.py

/// The signals of a confidence as numbers, in the order of [`FEATURES`].
pub fn features(c: &Confidence) -> [f64; 10] {
    [
        c.retrieval,
        c.coverage,
        c.grounding,
        c.margin,
        c.unknown,
        c.agree,
        c.history,
        c.graph,
        c.absent,
        c.verbatim,
    ]
}

/// The probability that the first source is right, given the signals: the logistic
/// score mapped through the isotonic knots (share right among the tune questions of
/// each block of scores), linearly between them.
pub fn probability(c: &Confidence) -> f64 {
    let z: f64 = BIAS
        + features(c)
            .iter()
            .zip(WEIGHTS)
            .map(|(x, w)| x * w)
            .sum::<f64>();
    interpolate(&KNOTS, 1.0 / (1.0 + (-z).exp()))
}

/// `knots` (increasing in x) as a piecewise-linear function, flat beyond its ends.
fn interpolate(knots: &[(f64, f64)], x: f64) -> f64 {
    let Some(&(x0, y0)) = knots.first() else {
        return x;
    };
    if x <= x0 {
        return y0;
    }
    for w in knots.windows(2) {
        let ((a, fa), (b, fb)) = (w[0], w[1]);
        if x <= b {
            return if b > a {
                fa + (fb - fa) * (x - a) / (b - a)
            } else {
                fb
            };
        }
    }
    knots.last().map_or(x, |k| k.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signals(retrieval: f64, grounding: f64, unknown: f64) -> Confidence {
        Confidence {
            score: 0.0,
            label: String::new(),
            retrieval,
            coverage: 1.0,
            grounding,
            margin: 0.2,
            unknown,
            agree: 1.0,
            history: 0.0,
            graph: 0.0,
            absent: 0.0,
            verbatim: 0.0,
        }
    }

    #[test]
    fn knots_interpolate_and_stay_flat_beyond_their_ends() {
        let k = [(0.2, 0.1), (0.6, 0.5), (0.8, 0.9)];
        assert_eq!(interpolate(&k, 0.0), 0.1);
        assert!((interpolate(&k, 0.4) - 0.3).abs() < 1e-12);
        assert!((interpolate(&k, 0.7) - 0.7).abs() < 1e-12);
        assert_eq!(interpolate(&k, 1.0), 0.9);
    }

    #[test]
    fn more_evidence_is_more_likely_right_and_unknown_words_less() {
        let strong = probability(&signals(0.9, 1.0, 0.0));
        let weak = probability(&signals(0.3, 0.3, 0.0));
        let absent = probability(&signals(0.9, 1.0, 0.6));
        assert!(strong > weak, "{strong} {weak}");
        assert!(strong > absent, "{strong} {absent}");
        assert!((0.0..=1.0).contains(&strong) && (0.0..=1.0).contains(&weak));
    }
}

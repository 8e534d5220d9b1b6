#!/usr/bin/env python3
"""Fits the confidence of `llmc ask` on the tune half of the real-repository sets.

    calibrate.py --llmc BIN [--checkouts DIR] [--dev DIR] [--write] [--abstain 0.90]

Runs `llmc eval` on every `testdata/real/ask/<repo>.tune.jsonl` and the tune half of the
callers sets (through ask_real.py --callers),
takes each question's signals (`results[].signals`: retrieval, coverage, grounding,
margin, unknown, agree, history, graph, absent, verbatim) and whether its first source, commit or (callers answers) first call site is gold
(an out-of-scope question never is), and fits a logistic regression (L2, gradient
descent, no randomness). With `--write` the weights replace the fitted block of
src/ask/calibration.rs.

It also prints the abstention threshold: the lowest score below which at least
`--abstain` of the out-of-scope questions fall (refitted weights, tune half), with the
false abstention it costs. `--dev DIR` adds every question of a development set (both
halves, e.g. testdata/real/ask-dev, which is tuning data) to the fit; `ask.abstain_below` in src/config/sections.rs and
llmc.toml.example is set to it by hand. The test half is never read here.
"""

from __future__ import annotations

import argparse
import math
import re
import subprocess
import sys
import json
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "src" / "ask" / "calibration.rs"
FEATURES = ["retrieval", "coverage", "grounding", "margin", "unknown", "agree", "history", "graph",
            "absent", "verbatim"]
# +1: evidence for the answer; -1: evidence against it.
SIGN = {"retrieval": 1, "coverage": 1, "grounding": 1, "margin": 1, "unknown": -1, "agree": 1,
        "history": 1, "graph": 1, "absent": -1, "verbatim": 1}


def samples(llmc: str, checkouts: str, dev: str | None) -> list[tuple[list[float], int]]:
    runs = [["--split", "tune", "--callers"]]
    if dev:
        runs.append(["--split", "all", "--sets", dev])
    results = []
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "tune.json"
        for run in runs:
            subprocess.run(
                [sys.executable, str(ROOT / "scripts" / "ask_real.py"), "--llmc", llmc,
                 "--checkouts", checkouts, *run, "--json", str(out)],
                check=True, stdout=subprocess.DEVNULL,
            )
            results += json.loads(out.read_text())["results"]
    data = []
    for r in results:
        if r["answerable"] and r["reciprocal_rank"] is None:
            continue  # no gold: nothing to learn from
        x = [float(r["signals"].get(f, 0.0)) for f in FEATURES]
        # What the label promises: the answer's first source, commit or (for callers
        # with gold lines) first call site is gold (`top_right`); for an
        # abstention, the first of the nearest sources it shows.
        if r["top_right"] is not None:
            right = int(r["top_right"])
        else:
            right = int(r["answerable"] and 1 in [k for k in r["ranks"] if k is not None])
        data.append((x, right, r["answerable"]))
    return data


def sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


def fit(data, l2: float = 0.01, steps: int = 20000, lr: float = 0.5):
    n = len(FEATURES)
    w = [0.0] * n
    b = 0.0
    m = len(data)
    for _ in range(steps):
        gw = [l2 * wi for wi in w]
        gb = 0.0
        for x, y, _ in data:
            p = sigmoid(b + sum(wi * xi for wi, xi in zip(w, x)))
            e = (p - y) / m
            gb += e
            for i in range(n):
                gw[i] += e * x[i]
        w = [wi - lr * g for wi, g in zip(w, gw)]
        # Signs fixed by meaning (projected descent): more of a supporting signal never
        # lowers the confidence, more of a doubting one never raises it. Left free, a
        # signal that merely travels with another (a wide margin with history answers)
        # took the opposite sign, and near-ties were labelled High.
        w = [max(0.0, wi) if SIGN[f] > 0 else min(0.0, wi) for wi, f in zip(w, FEATURES)]
        b -= lr * gb
    return w, b


def isotonic(ps, ys, min_block: int = 12):
    """Pool-adjacent-violators on (score, right), blocks of at least `min_block`
    questions; returns the knots (mean score, smoothed share right) of the blocks, in
    order."""
    pts = sorted(zip(ps, ys))
    blocks = [[p, float(y), 1] for p, y in pts]  # sum of scores, sum of rights, count

    def mean(b):
        return b[1] / b[2]

    changed = True
    while changed:
        changed = False
        i = 0
        while i < len(blocks) - 1:
            a, c = blocks[i], blocks[i + 1]
            if mean(a) >= mean(c) or a[2] < min_block:
                blocks[i] = [a[0] + c[0], a[1] + c[1], a[2] + c[2]]
                del blocks[i + 1]
                changed = True
            else:
                i += 1
    if len(blocks) > 1 and blocks[-1][2] < min_block:
        a, c = blocks[-2], blocks[-1]
        blocks[-2:] = [[a[0] + c[0], a[1] + c[1], a[2] + c[2]]]
    # Each block's share right with one right and one wrong added (Laplace): a block of a
    # dozen questions all right does not make a certainty of the next one.
    knots = [(b[0] / b[2], (b[1] + 1.0) / (b[2] + 2.0)) for b in blocks]
    # Smoothing can undo the order of two blocks of different sizes: the lower share wins.
    for i in range(len(knots) - 2, -1, -1):
        knots[i] = (knots[i][0], min(knots[i][1], knots[i + 1][1]))
    return knots


def interpolate(knots, p: float) -> float:
    if p <= knots[0][0]:
        return knots[0][1]
    for (x0, y0), (x1, y1) in zip(knots, knots[1:]):
        if p <= x1:
            return y0 + (y1 - y0) * (p - x0) / (x1 - x0) if x1 > x0 else y1
    return knots[-1][1]


def ece(ps, ys) -> float:
    bins: dict[int, list[tuple[float, int]]] = {}
    for p, y in zip(ps, ys):
        bins.setdefault(min(int(p * 10), 9), []).append((p, y))
    n = len(ps)
    return sum(len(g) / n * abs(sum(y for _, y in g) / len(g) - sum(p for p, _ in g) / len(g))
               for g in bins.values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--llmc", required=True)
    ap.add_argument("--checkouts", default="/work/real")
    ap.add_argument("--abstain", type=float, default=0.90,
                    help="share of out-of-scope questions to abstain on")
    ap.add_argument("--dev", help="a development set's folder, fitted on whole")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    data = samples(args.llmc, args.checkouts, args.dev)
    w, b = fit(data)
    raw = [sigmoid(b + sum(wi * xi for wi, xi in zip(w, x))) for x, _, _ in data]
    ys = [y for _, y, _ in data]
    knots = isotonic(raw, ys)
    ps = [interpolate(knots, p) for p in raw]
    print(f"{len(data)} tune questions, {sum(ys)} with a right first source")
    for f, wi in zip(FEATURES, w):
        print(f"  {f:<10} {wi:+.3f}")
    print(f"  {'bias':<10} {b:+.3f}")
    print("isotonic knots (logistic score -> share right): "
          + ", ".join(f"{x:.3f}->{y:.3f}" for x, y in knots))
    oos = sorted(p for p, (_, _, a) in zip(ps, data) if not a)
    ans = [p for p, (_, _, a) in zip(ps, data) if a]
    if oos:
        k = math.ceil(args.abstain * len(oos))
        t = oos[k - 1] + 1e-3 if k <= len(oos) else 1.0
        false_abst = sum(p < t for p in ans) / max(1, len(ans))
        print(f"abstain below {t:.3f}: {k}/{len(oos)} out-of-scope abstain, "
              f"false abstention {false_abst:.3f} on {len(ans)} answerable")
        kept = [(p, y) for p, y in zip(ps, ys) if p >= t]
        if kept:
            print(f"ECE of the answers kept (tune): {ece([p for p, _ in kept], [y for _, y in kept]):.3f}")
    for lo, hi, name in [(0.9, 1.01, "High"), (0.7, 0.9, "Medium"), (0.0, 0.7, "Low")]:
        g = [y for p, y in zip(ps, ys) if lo <= p < hi]
        if g:
            print(f"  {name:<7} {len(g):>4} answers, right {sum(g) / len(g):.3f}")
    if args.write:
        text = TARGET.read_text()
        block = (
            "// BEGIN fitted by scripts/calibrate.py\n"
            f"pub const WEIGHTS: [f64; {len(FEATURES)}] = ["
            + ", ".join(f"{wi:.4f}" for wi in w)
            + "];\n"
            f"pub const BIAS: f64 = {b:.4f};\n"
            f"pub const KNOTS: [(f64, f64); {len(knots)}] = ["
            + ", ".join(f"({x:.4f}, {y:.4f})" for x, y in knots)
            + "];\n"
            "// END fitted by scripts/calibrate.py"
        )
        new = re.sub(r"// BEGIN fitted by scripts/calibrate.py.*?// END fitted by scripts/calibrate.py",
                     block, text, flags=re.S)
        TARGET.write_text(new)
        print(f"wrote {TARGET.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

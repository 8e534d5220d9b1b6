#!/usr/bin/env python3
"""Strict precision and recall of `llmc eval --json` results on callers sets, pooled over
every question (micro) and averaged per question (macro, as `llmc eval` prints).

    scripts/truth/callers_score.py EVAL.json [EVAL.json ...]

Strict precision counts every listed row the reference tool did not confirm as wrong.
"""
import json
import sys

print(f"{'set':<28} {'q':>3} {'rows':>6} {'right':>6} {'gold':>6} {'found':>6} {'P micro':>8} {'R micro':>8} {'P macro':>8} {'R macro':>8}")
for path in sys.argv[1:]:
    d = json.load(open(path))
    rows = right = gold = found = 0
    n = 0
    for r in d["results"]:
        s = r.get("structural")
        if not s:
            continue
        n += 1
        rows += s["rows"]
        right += s["correct_rows"]
        gold += s["gold"]
        found += s["found"]
    o = d["overall"]
    name = d["file"].rsplit("/", 1)[-1]
    print(f"{name:<28} {n:>3} {rows:>6} {right:>6} {gold:>6} {found:>6} "
          f"{right / max(rows, 1):>8.3f} {found / max(gold, 1):>8.3f} "
          f"{o['structural_precision']:>8.3f} {o['structural_recall']:>8.3f}")

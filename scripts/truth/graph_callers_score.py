#!/usr/bin/env python3
"""Strict precision and recall of `llmc graph callers` (the CLI, default options) on the
callers sets of testdata/real/callers/, against the reference tool's call sites.

    scripts/truth/graph_callers_score.py --llmc BIN CHECKOUT SET.jsonl [CHECKOUT SET.jsonl ...]

Each question's target (`X`, or `X` in `path` → `path:X`) is asked with
`llmc graph callers TARGET --json --limit 1000000`; every listed direct row (path, line)
the reference tool does not list counts as wrong (strict precision). The checkout must
be at the set's commit and already indexed (`llmc index`).
"""
import argparse
import json
import re
import subprocess

ap = argparse.ArgumentParser()
ap.add_argument("--llmc", default="target/release/llmc")
ap.add_argument("pairs", nargs="+")
ap.add_argument("--by-resolution", action="store_true",
                help="also print listed rows and strict precision per resolution kind")
args = ap.parse_args()
by_kind = {}
print(f"{'set':<24} {'q':>3} {'rows':>6} {'right':>6} {'gold':>6} {'found':>6} {'strict P':>9} {'R':>6} {'name-only':>9} {'unresolved':>10}")
for checkout, path in zip(args.pairs[0::2], args.pairs[1::2]):
    rows = right = gold_n = found = n = name_only = unresolved = 0
    for line in open(path):
        case = json.loads(line)
        m = re.match(r"who calls `([^`]+)`(?: in `([^`]+)`)?\?", case["question"])
        if not m:
            continue
        target = f"{m.group(2)}:{m.group(1)}" if m.group(2) else m.group(1)
        out = subprocess.run([args.llmc, "-C", checkout, "graph", "callers", target, "--json",
                              "--limit", "1000000"], capture_output=True, text=True)
        try:
            v = json.loads(out.stdout)
        except json.JSONDecodeError:
            continue
        direct = [r for r in v.get("results", []) if r.get("depth", 1) == 1]
        listed = {(r["path"], r["line"]) for r in direct}
        gold = {(g["path"], g["line"]) for g in case["gold"] if "line" in g}
        kinds = {}
        for r in direct:
            kinds.setdefault((r["path"], r["line"]), r.get("resolution", "?"))
        for at, kind in kinds.items():
            k = by_kind.setdefault((path.rsplit("/", 1)[-1], kind), [0, 0])
            k[0] += 1
            k[1] += at in gold
        n += 1
        rows += len(listed)
        right += len(listed & gold)
        gold_n += len(gold)
        found += len(listed & gold)
        aside = v.get("set_aside", {})
        name_only += aside.get("name_only", 0)
        unresolved += aside.get("unresolved", 0)
    name = path.rsplit("/", 1)[-1]
    print(f"{name:<24} {n:>3} {rows:>6} {right:>6} {gold_n:>6} {found:>6} {right / max(rows, 1):>9.3f} "
          f"{found / max(gold_n, 1):>6.3f} {name_only:>9} {unresolved:>10}")
if args.by_resolution:
    print(f"\n{'set':<24} {'resolution':<10} {'rows':>6} {'right':>6} {'strict P':>9}")
    for (name, kind), (rows, right) in sorted(by_kind.items()):
        print(f"{name:<24} {kind:<10} {rows:>6} {right:>6} {right / max(rows, 1):>9.3f}")

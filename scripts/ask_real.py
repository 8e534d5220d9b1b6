#!/usr/bin/env python3
"""Scores `llmc ask` on the real-repository question sets and sums the runs up.

    ask_real.py --llmc BIN [--checkouts DIR] [--split tune|test|all] [--nodoc DIR]
                [--compare] [--repos a,b] [--sets DIR] [--json OUT]

For every `testdata/real/ask/<repo>.<split>.jsonl` it runs `llmc eval --json` in
`<checkouts>/<repo>` (a clone at the commit in `<repo>.stats.json`; see
scripts/truth/README.md) and then pools the per-question results of every repository:

- per intent: MRR@10 of ask and, with `--compare`, of `llmc search --mode hybrid` and of
  ask with each retriever alone (`llmc eval --compare`), and ask minus the best of them;
- out-of-scope abstention and false abstention;
- reliability: for each confidence label, how often the first source (or commit) of an
  answer is gold, and the expected calibration error (ten equal-width bins), with the same
  rules as `llmc eval`.

With `--callers`, the callers sets of `testdata/real/callers/` (gold from language servers
and compilers) join in, split by line: odd lines are the tune half, even lines the test
half (the checkout of each is named in scripts/truth/repos.toml).

With `--nodoc DIR`, the doc-comment questions are asked of `DIR/<repo>`, a copy of the
checkout with its doc comments removed (`scripts/truth/questions_strip_docs.py`; made and
indexed here when missing), from `<repo>.nodoc/<split>.jsonl`.

Every number comes from `llmc eval`; this script only pools and prints them.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import tomllib
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "testdata" / "real" / "ask"
STRIP = ROOT / "scripts" / "truth" / "questions_strip_docs.py"
COMPARED = ["search", "graph", "history", "lexical", "semantic"]
LABELS = ["High", "Medium", "Low", "Very Low"]


def repos() -> list[str]:
    return sorted(p.name.split(".")[0] for p in SETS.glob("*.stats.json"))


def use_sets(folder: str) -> None:
    """Reads the question sets from FOLDER instead (e.g. testdata/real/ask-dev)."""
    global SETS
    SETS = Path(folder).resolve()


CALLERS = ROOT / "testdata" / "real" / "callers"


def callers_sets() -> list[tuple[str, str]]:
    """(set name, checkout folder) of every callers set."""
    repos = tomllib.loads((ROOT / "scripts" / "truth" / "repos.toml").read_text())["repo"]
    return sorted((r["output"], r["checkout"]) for r in repos
                  if (CALLERS / f"{r['output']}.jsonl").exists())


def callers_half(name: str, split: str, into: Path) -> Path:
    """The odd (tune) or even (test) lines of a callers set, as a file of their own."""
    lines = (CALLERS / f"{name}.jsonl").read_text().splitlines()
    keep = [l for i, l in enumerate(lines, 1) if (i % 2 == 1) == (split == "tune")]
    out = into / f"{name}.callers.{split}.jsonl"
    out.write_text("\n".join(keep) + "\n")
    return out


def run_eval(llmc: str, checkout: Path, set_file: Path, compare: bool,
             config: list[str] | None = None) -> dict:
    cmd = [llmc, "eval", "--json", "-q", "-C", str(checkout), str(set_file)]
    for kv in config or []:
        cmd += ["--config", kv]
    if compare:
        cmd.append("--compare")
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({out.returncode}): {out.stderr.strip()}")
    return json.loads(out.stdout)


def ensure_nodoc(llmc: str, checkout: Path, nodoc: Path) -> None:
    if not nodoc.exists():
        subprocess.run([sys.executable, str(STRIP), str(checkout), str(nodoc)], check=True)
    if not (nodoc / ".llmc").exists():
        subprocess.run([llmc, "index", "-q", "-C", str(nodoc)], check=True)


def mean(xs: list[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def pool(results: list[dict]) -> dict:
    by_intent: dict[str, list[dict]] = defaultdict(list)
    for r in results:
        for i in r["expected_intents"] or ["unlabelled"]:
            by_intent[i].append(r)
    by_intent["overall"] = results

    def metrics(rs: list[dict]) -> dict:
        ranked = [r for r in rs if r["reciprocal_rank"] is not None]
        oos = [r for r in rs if not r["answerable"]]
        ans = [r for r in rs if r["answerable"]]
        m = {
            "questions": len(rs),
            "ranked": len(ranked),
            "ask": mean([r["reciprocal_rank"] for r in ranked]),
            "out_of_scope": len(oos),
            "abstention": mean([float(r["status"] == "abstained") for r in oos]),
            "answerable": len(ans),
            "false_abstention": mean([float(r["status"] == "abstained") for r in ans]),
        }
        for part in COMPARED:
            vals = [r["compare"][part] for r in ranked if part in r.get("compare", {})]
            m[part] = mean(vals)
        return m

    intents = {k: metrics(v) for k, v in sorted(by_intent.items())}
    judged = [r for r in results if r.get("top_right") is not None]
    labels = []
    for name in LABELS:
        g = [r for r in judged if r["label"] == name]
        labels.append({
            "label": name,
            "answers": len(g),
            "right": sum(r["top_right"] for r in g),
            "accuracy": mean([float(r["top_right"]) for r in g]),
            "mean_confidence": mean([r["confidence"] for r in g]),
        })
    bins: dict[int, list[dict]] = defaultdict(list)
    for r in judged:
        bins[min(int(max(0.0, min(1.0, r["confidence"])) * 10), 9)].append(r)
    ece = None
    if judged:
        ece = sum(
            len(g) / len(judged)
            * abs(mean([float(r["top_right"]) for r in g]) - mean([r["confidence"] for r in g]))
            for g in bins.values()
        )
    return {"intents": intents, "labels": labels, "ece": ece, "answers": len(judged)}


def show(title: str, p: dict) -> None:
    print(f"\n== {title}")
    head = f"{'intent':<11} {'n':>4} {'ask':>6}"
    compared = any(p["intents"]["overall"].get(c) is not None for c in COMPARED)
    if compared:
        head += "".join(f" {c:>8}" for c in COMPARED) + f" {'ask-best':>8}"
    print(head + f" {'oos':>4} {'abst':>6} {'f.abst':>6}")
    for name, m in p["intents"].items():
        line = f"{name:<11} {m['ranked']:>4} {fmt(m['ask']):>6}"
        if compared:
            parts = [m.get(c) for c in COMPARED]
            line += "".join(f" {fmt(v):>8}" for v in parts)
            best = max((v for v in parts if v is not None), default=None)
            gap = None if best is None or m["ask"] is None else m["ask"] - best
            line += f" {'-' if gap is None else f'{gap:+.3f}':>8}"
        line += f" {m['out_of_scope']:>4} {fmt(m['abstention']):>6} {fmt(m['false_abstention']):>6}"
        print(line)
    print(f"reliability over {p['answers']} answers:")
    for l in p["labels"]:
        print(f"  {l['label']:<9} {l['answers']:>4} answers, {l['right']:>4} right,"
              f" accuracy {fmt(l['accuracy'])}, mean confidence {fmt(l['mean_confidence'])}")
    print(f"  ECE {fmt(p['ece'])}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--llmc", required=True)
    ap.add_argument("--checkouts", default="/work/real")
    ap.add_argument("--split", default="test", choices=["tune", "test", "all"])
    ap.add_argument("--nodoc", help="folder of doc-stripped copies, one per repository")
    ap.add_argument("--compare", action="store_true")
    ap.add_argument("--repos", help="comma-separated subset")
    ap.add_argument("--sets", help="folder of question sets (default: testdata/real/ask; "
                    "testdata/real/ask-dev holds the development sets)")
    ap.add_argument("--callers", action="store_true",
                    help="also the callers sets of testdata/real/callers, split by line")
    ap.add_argument("--json", help="write the pooled figures and every result here")
    ap.add_argument("--config", action="append", default=[], metavar="KEY=VALUE",
                    help="passed to every `llmc eval` (e.g. a route weight to try on the tune half)")
    args = ap.parse_args()
    if args.sets:
        use_sets(args.sets)
    names = args.repos.split(",") if args.repos else repos()
    splits = ["tune", "test"] if args.split == "all" else [args.split]
    results: list[dict] = []
    per_repo = {}
    for name in names:
        checkout = Path(args.checkouts) / name
        rs: list[dict] = []
        for split in splits:
            if args.nodoc:
                target = Path(args.nodoc) / name
                ensure_nodoc(args.llmc, checkout, target)
                set_file = SETS / f"{name}.nodoc" / f"{split}.jsonl"
            else:
                target = checkout
                set_file = SETS / f"{name}.{split}.jsonl"
            if not set_file.read_text().strip():
                # A half with no question of its kind (zustand's tune half has no doc
                # comment to strip): nothing to ask, and `llmc eval` refuses an empty set.
                continue
            report = run_eval(args.llmc, target, set_file, args.compare, args.config)
            for r in report["results"]:
                r["repo"] = name
                r["split"] = split
            rs.extend(report["results"])
        per_repo[name] = pool(rs)
        results.extend(rs)
    if args.callers and not args.nodoc:
        with tempfile.TemporaryDirectory() as tmp:
            for name, checkout in callers_sets():
                if args.repos and name not in names and checkout not in names:
                    continue
                rs = []
                for split in splits:
                    f = callers_half(name, split, Path(tmp))
                    report = run_eval(args.llmc, Path(args.checkouts) / checkout, f, args.compare,
                                      args.config)
                    for r in report["results"]:
                        r["repo"] = f"{name} (callers)"
                        r["split"] = split
                    rs.extend(report["results"])
                per_repo[f"{name} (callers)"] = pool(rs)
                results.extend(rs)
    pooled = pool(results)
    kind = "doc comments removed" if args.nodoc else "as checked out"
    show(f"{', '.join(names)} ({'+'.join(splits)}, {kind})", pooled)
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"pooled": pooled, "per_repo": per_repo, "results": results}, indent=1))


if __name__ == "__main__":
    main()

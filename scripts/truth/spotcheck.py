#!/usr/bin/env python3
"""Prints targets of an eval file for reading by hand: the definition line, every gold line,
and every other line of the checkout where the name occurs as a whole word (what the
reference tool did NOT count as a call of this definition), with the kind the refs file gives
it when it has one.

    spotcheck.py EVAL.jsonl CHECKOUT [--n 10] [--seed 7] [--only SUBSTRING]
"""
import argparse
import json
import random
import re
import subprocess
from pathlib import Path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("eval")
    ap.add_argument("checkout")
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--only", help="only questions containing this text")
    ap.add_argument("--max-other", type=int, default=25)
    args = ap.parse_args()
    cases = [json.loads(l) for l in open(args.eval) if l.strip()]
    refs_path = Path(args.eval[: -len(".jsonl")] + ".refs.jsonl")
    refs = {}
    if refs_path.exists():
        for l in open(refs_path):
            r = json.loads(l)
            refs[r["question"]] = r["refs"]
    if args.only:
        cases = [c for c in cases if args.only in c["question"]]
    else:
        cases = random.Random(args.seed).sample(cases, min(args.n, len(cases)))
    root = Path(args.checkout)
    cache = {}

    def text(path, line):
        if path not in cache:
            cache[path] = (root / path).read_text(encoding="utf-8", errors="replace").split("\n")
        lines = cache[path]
        return lines[line - 1].strip()[:150] if 0 < line <= len(lines) else "?"

    for c in cases:
        note = json.loads(c["note"])
        print("=" * 100)
        print(c["question"], "|", note["kind"], note["def_path"], note["def_line"], "| same name defs:",
              note["same_name_defs"])
        print("  DEF ", text(note["def_path"], note["def_line"]))
        gold = {(g["path"], g["line"]) for g in c["gold"]}
        for p, l in sorted(gold):
            print(f"  GOLD {p}:{l}: {text(p, l)}")
        kinds = {}
        for r in refs.get(c["question"], []):
            kinds.setdefault((r["path"], r["line"]), set()).add(r["kind"])
        name = note["name"]
        res = subprocess.run(["git", "-C", str(root), "grep", "-n", "-w", "-I", name, "--", ".", ":!*.md", ":!*.rst", ":!*.txt"], capture_output=True, text=True)
        other = []
        for l in res.stdout.splitlines():
            m = re.match(r"^(.*?):(\d+):(.*)$", l)
            if not m:
                continue
            p, ln = m.group(1), int(m.group(2))
            if (p, ln) in gold or (p == note["def_path"] and ln == note["def_line"]):
                continue
            k = ",".join(sorted(kinds.get((p, ln), []))) or "-"
            other.append(f"  other[{k}] {p}:{ln}: {m.group(3).strip()[:130]}")
        print(f"  {len(other)} other whole-word lines")
        for o in other[: args.max_other]:
            print(o)


if __name__ == "__main__":
    main()

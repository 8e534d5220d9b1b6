#!/usr/bin/env python3
"""Regenerates every file under testdata/real/callers/ from repos.toml.

    regen_all.py [--only NAME ...] [--real /work/real] [--mirror /work/.mirror]

A checkout missing under --real is cloned from the fetched snapshot in --mirror; a checkout
at another commit is reported, never moved (check it out yourself). Per-repo summaries
(counts and timings) go to summaries/NAME.json beside this script. A repository's `env`
table is set for its back end (the C back end's compile flags).
"""
import argparse
import os
import subprocess
import sys
import time
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--real", default="/work/real")
    ap.add_argument("--mirror", default="/work/.mirror")
    args = ap.parse_args()
    repos = tomllib.loads((HERE / "repos.toml").read_text())["repo"]
    (HERE / "summaries").mkdir(exist_ok=True)
    for r in repos:
        if args.only and r["output"] not in args.only:
            continue
        co = Path(args.real) / r["checkout"]
        if not co.exists():
            src = Path(args.mirror) / (r["github"].replace("/", "+")) / "repo"
            subprocess.run(["git", "clone", "-q", str(src), str(co)], check=True)
            subprocess.run(["git", "-C", str(co), "checkout", "-q", r["commit"]], check=True)
        head = subprocess.run(["git", "-C", str(co), "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        if head != r["commit"]:
            print(f"{r['output']}: checkout is at {head}, repos.toml says {r['commit']}: skipped",
                  file=sys.stderr)
            continue
        t0 = time.time()
        with open(HERE / "summaries" / f"{r['output']}.json", "w") as out:
            subprocess.run([sys.executable, str(HERE / "callers_truth.py"), str(co), "--lang", r["lang"],
                            "--commit", r["commit"], "--name", r["output"]], stdout=out, check=True,
                           env=dict(os.environ, **r.get("env", {})))
        print(f"{r['output']}: {time.time() - t0:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()

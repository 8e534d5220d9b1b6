#!/usr/bin/env python3
"""Index cost per MB of source, per language, side by side in one run (#20).

    scripts/lang_cost.py --llmc BIN [--runs 7] LABEL=DIR[+DIR...]:EXT[,EXT...] ...

Each tree is the files under each DIR whose extension is one of EXT (tests and all; a DIR
of several goes under its own name, e.g. CPython's `Lib/asyncio+Lib/email+Lib/xml`), copied
into a fresh one-commit git repository, so every tree pays the same for history. The
runs are interleaved (tree 1, tree 2, ..., tree 1, ...) and each is a cold
`llmc index --rebuild` (graph, one commit of history, lexical and built-in semantic
memories). Printed per tree: files, MB of source, median CPU (user + system) and wall
seconds, CPU seconds per MB, and the ratio to the first tree's CPU s/MB (put the
reference language, Python, first).

A run's cost is partly fixed (starting the process, compiling the language's queries,
creating the stores), and on a small tree that part weighs on every MB. Trees labelled
`LANG/NAME` of one language at two sizes or more also give the marginal cost: the CPU
seconds one more MB of that language adds, the slope between its smallest and largest
tree, with its ratio to the first language's:

    scripts/lang_cost.py --llmc BIN python/s=werkzeug:py python/l=werkzeug+jinja+click:py \
        scala/s=os-lib:scala scala/l=cats:scala
"""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def make_tree(srcs, exts, dest):
    files, size = 0, 0
    for src in srcs:
        f, s = copy_files(src, exts, dest if len(srcs) == 1 else
                          os.path.join(dest, os.path.basename(src.rstrip("/"))))
        files, size = files + f, size + s
    env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@b",
               GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@b")
    for cmd in (["git", "init", "-q"], ["git", "add", "-A"],
                ["git", "commit", "-qm", "tree"]):
        subprocess.run(cmd, cwd=dest, check=True, env=env)
    return files, size


def copy_files(src, exts, dest):
    files, size = 0, 0
    for root, dirs, names in os.walk(src):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for n in names:
            if n.rsplit(".", 1)[-1].lower() not in exts:
                continue
            p = os.path.join(root, n)
            if not os.path.isfile(p) or os.path.islink(p):
                continue
            rel = os.path.relpath(p, src)
            out = os.path.join(dest, rel)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            shutil.copyfile(p, out)
            files += 1
            size += os.path.getsize(p)
    return files, size


def run_once(llmc, repo):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run([llmc, "index", "--rebuild"], cwd=repo,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"llmc index failed in {repo}:\n{p.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--llmc", required=True)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("trees", nargs="+", metavar="LABEL=DIR[+DIR]:EXT[,EXT]")
    a = ap.parse_args()
    llmc = os.path.abspath(a.llmc)
    work = tempfile.mkdtemp(prefix="llmc-lang-cost-")
    trees = []
    for spec in a.trees:
        label, rest = spec.split("=", 1)
        src, exts = rest.rsplit(":", 1)
        dest = os.path.join(work, label)
        os.makedirs(dest)
        files, size = make_tree(src.split("+"), set(exts.lower().split(",")), dest)
        if files == 0:
            sys.exit(f"{label}: no .{exts} file under {src}")
        trees.append((label, dest, files, size))
    results = {t[0]: [] for t in trees}
    for label, dest, _, _ in trees:  # one warm-up each (page cache, first-run costs)
        run_once(llmc, dest)
    for _ in range(a.runs):
        for label, dest, _, _ in trees:
            results[label].append(run_once(llmc, dest))
    print(f"llmc: {llmc}  runs: {a.runs} interleaved, medians")
    print(f"{'tree':<12} {'files':>6} {'MB':>6} {'CPU s':>7} {'wall s':>7} "
          f"{'CPU s/MB':>9} {'x first':>8}")
    first = None
    for label, _, files, size in trees:
        cpu = statistics.median(r[0] for r in results[label])
        wall = statistics.median(r[1] for r in results[label])
        mb = size / 1e6
        per = cpu / mb
        first = first or per
        print(f"{label:<12} {files:>6} {mb:>6.2f} {cpu:>7.3f} {wall:>7.3f} "
              f"{per:>9.3f} {per / first:>8.2f}")
    groups = {}
    for label, _, _, size in trees:
        if "/" in label:
            cpu = statistics.median(r[0] for r in results[label])
            groups.setdefault(label.split("/", 1)[0], []).append((size / 1e6, cpu))
    groups = {g: sorted(v) for g, v in groups.items() if len(v) >= 2}
    if groups:
        print(f"\n{'language':<12} {'MB':>13} {'CPU s':>15} {'marginal CPU s/MB':>18} {'x first':>8}")
        first = None
        for g, v in groups.items():
            (mb0, cpu0), (mb1, cpu1) = v[0], v[-1]
            slope = (cpu1 - cpu0) / (mb1 - mb0)
            first = first or slope
            print(f"{g:<12} {mb0:>5.2f} → {mb1:>5.2f} {cpu0:>6.3f} → {cpu1:>6.3f} "
                  f"{slope:>18.3f} {slope / first:>8.2f}")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()

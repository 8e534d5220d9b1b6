#!/usr/bin/env python3
"""The history read alone, for llmc binaries side by side (issue #21).

    python3 scripts/bench_history_read.py [--runs N] REPO BIN...

Clones REPO once (a local repository), indexes the code with the first BIN and one slice
of history (LLMCTEST_HISTORY_SLICE=1, no background run), and keeps that index. Then,
N times, for each BIN in turn: restores the kept index and runs
`BIN index --history-only --quiet`, which reads the rest of the history. Prints each run,
then per binary the median wall and CPU (user + system) seconds, and the commits read.

Binaries must read and write the same index format. Run it on a machine as idle as you
can get: the runs alternate so that a drift in the machine's speed reaches them all.
"""

import argparse
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("repo")
    ap.add_argument("bins", nargs="+")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="llmc-hist-read.")
    clone, kept = os.path.join(work, "clone"), os.path.join(work, "kept")
    try:
        subprocess.run(["git", "clone", "-q", a.repo, clone], check=True)
        env = dict(os.environ, LLMCTEST_HISTORY_BACKGROUND="0", LLMCTEST_HISTORY_SLICE="1")
        subprocess.run([a.bins[0], "-C", clone, "index", "--quiet"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        shutil.copytree(os.path.join(clone, ".llmc"), kept)
        db = sqlite3.connect(f"file:{kept}/index.db?mode=ro", uri=True)
        row = db.execute("SELECT value FROM meta WHERE key = 'history_remaining'").fetchone()
        db.close()
        left = int(row[0]) if row else 0
        wall = {b: [] for b in a.bins}
        cpu = {b: [] for b in a.bins}
        for run in range(a.runs):
            for b in a.bins:
                shutil.rmtree(os.path.join(clone, ".llmc"))
                shutil.copytree(kept, os.path.join(clone, ".llmc"))
                r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                t0 = time.monotonic()
                subprocess.run([b, "-C", clone, "index", "--history-only", "--quiet"],
                               check=True, stdout=subprocess.DEVNULL)
                wall[b].append(time.monotonic() - t0)
                r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu[b].append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
                print(f"run {run + 1} {b}: {wall[b][-1]:.2f} s wall, {cpu[b][-1]:.2f} s CPU",
                      flush=True)
        print(f"{left} commits read by each run")
        for b in a.bins:
            w = statistics.median(wall[b])
            print(f"{b}: wall median {w:.2f} s ({1000 * w / max(left, 1):.2f} ms a commit), "
                  f"CPU median {statistics.median(cpu[b]):.2f} s")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

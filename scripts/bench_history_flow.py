#!/usr/bin/env python3
"""A fresh clone's first ask and its whole history, for llmc binaries side by side (#21).

    python3 scripts/bench_history_flow.py [--runs N] [--foreground] REPO QUESTION BIN...

Per run and binary, in turn: a fresh `git clone` of REPO (a local repository) with no
index, then `BIN -q ask --no-llm QUESTION` in it. By default the ask starts the
background `llmc index --history-only`, as a user's does, and the run ends when no such
process is left: found once by `pgrep`, then watched through `/proc` every 20 ms (running
`pgrep` every 50 ms cost the run's two cores enough to slow the history it timed), with no
reading of the index meanwhile. With
--foreground the ask starts none (`LLMCTEST_HISTORY_BACKGROUND=0`) and the run then reads
the rest in the foreground (`BIN -q index --history-only`).

Prints each run, then per binary the median seconds to the first answer and to the whole
history, and the latter per 5,000 commits. Run it on a machine as idle as you can get,
with no other `llmc index --history-only` running.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time


def background_pids() -> list[int]:
    out = subprocess.run(["pgrep", "-f", "index --history-only"],
                         capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def background_runs() -> bool:
    return bool(background_pids())


def running(pid: int) -> bool:
    """Whether `pid` is alive and not a zombie, read from /proc (no process started)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


def wait_background() -> None:
    """Waits until no `llmc index --history-only` is left."""
    while pids := background_pids():
        for pid in pids:
            while running(pid):
                time.sleep(0.02)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--foreground", action="store_true")
    ap.add_argument("repo")
    ap.add_argument("question")
    ap.add_argument("bins", nargs="+")
    a = ap.parse_args()
    commits = int(subprocess.run(["git", "-C", a.repo, "rev-list", "--count", "HEAD"],
                                 capture_output=True, text=True, check=True).stdout)
    if background_runs():
        raise SystemExit("another `llmc index --history-only` is running")
    env = dict(os.environ)
    if a.foreground:
        env["LLMCTEST_HISTORY_BACKGROUND"] = "0"
    first = {b: [] for b in a.bins}
    whole = {b: [] for b in a.bins}
    work = tempfile.mkdtemp(prefix="llmc-hist-flow.")
    try:
        for run in range(1, a.runs + 1):
            for b in a.bins:
                clone = os.path.join(work, "clone")
                shutil.rmtree(clone, ignore_errors=True)
                subprocess.run(["git", "clone", "-q", a.repo, clone], check=True,
                               stderr=subprocess.DEVNULL)
                t0 = time.monotonic()
                subprocess.run([b, "-q", "ask", "--no-llm", a.question], cwd=clone, env=env,
                               check=True, capture_output=True)
                t1 = time.monotonic()
                if a.foreground:
                    subprocess.run([b, "-q", "index", "--history-only"], cwd=clone, env=env,
                                   check=True, capture_output=True)
                else:
                    wait_background()
                t2 = time.monotonic()
                first[b].append(t1 - t0)
                whole[b].append(t2 - t0)
                print(f"run {run} {b}: first answer {t1 - t0:.2f} s, whole history "
                      f"{t2 - t0:.2f} s", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{commits} commits, {'foreground' if a.foreground else 'background'} history")
    for b in a.bins:
        w = statistics.median(whole[b])
        print(f"{b}: first answer median {statistics.median(first[b]):.2f} s, whole history "
              f"median {w:.2f} s = {w / commits * 5000:.2f} s per 5,000 commits")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

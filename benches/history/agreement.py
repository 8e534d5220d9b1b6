#!/usr/bin/env python3
"""Compares `llmc log` with `git log -L` on a repository's own functions.

usage: agreement.py LLMC_BIN REPO [N]

REPO must be a scratch clone: Rust files get git's built-in `rust` diff driver through
.git/info/attributes (so `-L :fn name:file` finds indented methods). Indexes REPO with
LLMC_BIN, picks N (default 30) Rust functions and methods whose name is unique in their
file, preferring those changed by the most commits, and for each compares the newest
commit of `llmc log FILE:QUALNAME` with `git log -L ':fn NAME\\b:FILE' -1`.
"""
import json
import os
import sqlite3
import subprocess
import sys


def run(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)


def main():
    bin_, repo = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    info = os.path.join(repo, ".git", "info")
    os.makedirs(info, exist_ok=True)
    with open(os.path.join(info, "attributes"), "a") as f:
        f.write("*.rs diff=rust\n")
    r = run([bin_, "index", "-q"], repo)
    if r.returncode != 0:
        sys.exit(r.stderr)
    db = sqlite3.connect(os.path.join(repo, ".llmc", "index.db"))
    rows = db.execute(
        """
        SELECT f.path, s.name, s.qualname,
               (SELECT count(DISTINCT cs.commit_id) FROM commit_symbols cs
                 WHERE cs.path = f.path AND cs.qualname = s.qualname) AS changes
        FROM symbols s JOIN files f ON f.id = s.file_id
        WHERE f.lang = 'rust' AND s.kind IN ('function', 'method')
          AND (SELECT count(*) FROM symbols t WHERE t.file_id = s.file_id AND t.name = s.name) = 1
        ORDER BY changes DESC, f.path, s.start_line
        """
    ).fetchall()
    picked = rows[:n]
    agree = 0
    for path, name, qual, changes in picked:
        r = run([bin_, "log", "--json", "--limit", "1", "%s:%s" % (path, qual)], repo)
        try:
            ours = json.loads(r.stdout)["commits"][0]["commit"]
        except (ValueError, KeyError, IndexError):
            ours = "-"
        g = run(["git", "log", "-L", ":fn %s\\b:%s" % (name, path), "-1", "--format=%H", "-s"], repo)
        theirs = next((l for l in g.stdout.splitlines() if len(l) == 40), "-")
        ok = ours == theirs
        agree += ok
        print("%s  %-40s %-34s llmc %s  git %s" % ("ok " if ok else "XX ", path, qual, ours[:10], theirs[:10]))
    print("agreement: %d/%d" % (agree, len(picked)))


if __name__ == "__main__":
    main()

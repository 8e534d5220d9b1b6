#!/usr/bin/env python3
"""Readers during index runs: every answer must come from one whole generation.

A generated Python repository is switched between two states (A has old_x.py, B has
new_y.py instead; common.py names the state) while `llmc index` runs over and over,
incremental and --rebuild alternating; meanwhile readers call `llmc search` and
`llmc graph callers` in a loop. Each answer is compared with the answers of the two
states taken from indexes built whole: an answer equal to neither is a mismatch.

    python3 scripts/reader_loop.py [--llmc target/release/llmc] [--calls 2000] [--readers 2]

Prints the number of calls, index runs and mismatches; exits 1 on any mismatch.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def set_state(root, b):
    add, remove, word = ("new_y.py", "old_x.py", "zqstateb") if b else ("old_x.py", "new_y.py", "zqstatea")
    try:
        os.remove(os.path.join(root, remove))
    except FileNotFoundError:
        pass
    handler = add[:-3].replace("_", "")
    write(root, add, f"from common import helper\n\n\ndef zq_{handler}_handler():\n    return helper(1)\n")
    write(root, "common.py", f'def helper(x):\n    """Marks {word}."""\n    return x\n')


def make_repo(modules):
    root = tempfile.mkdtemp(prefix="llmc-readers-")
    for i in range(modules):
        body = "".join(
            f'def f{i}_{j}(x):\n    """Step {j} of module {i}."""\n    return helper(x) + {j}\n\n\n'
            for j in range(12)
        )
        write(root, f"bulk/m{i}.py", "from common import helper\n\n\n" + body)
    set_state(root, False)
    return root


QUERIES = [
    ["search", "--json", "--mode", "lexical", "zqstatea zqstateb zq_oldx_handler zq_newy_handler"],
    ["search", "--json", "--mode", "hybrid", "zq_newy_handler zq_oldx_handler"],
    ["graph", "callers", "helper", "--json", "--limit", "100000"],
]


def answer(llmc, root, q):
    r = subprocess.run([llmc] + q, cwd=root, capture_output=True, text=True)
    try:
        doc = json.loads(r.stdout)
    except json.JSONDecodeError:
        return ("no json", r.returncode, r.stderr.strip()[:200])
    if q[0] == "search":
        hits = doc.get("hits", [])
        if q[3] == "hybrid":
            # The semantic side always returns neighbours: compare the chunks that name
            # the handlers, which only one state has.
            hits = [h for h in hits if "handler" in (h.get("symbol") or "")]
        return tuple(sorted(f"{h['path']}:{h['start_line']}-{h['end_line']}" for h in hits))
    return tuple(sorted(f"{r['path']}:{r['line']} {r['symbol']}" for r in doc.get("results", [])))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llmc", default="target/release/llmc")
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--readers", type=int, default=2)
    ap.add_argument("--modules", type=int, default=300)
    args = ap.parse_args()
    llmc = os.path.abspath(args.llmc)

    refs = {}
    for b in (False, True):
        d = make_repo(args.modules)
        set_state(d, b)
        subprocess.run([llmc, "index", "-q"], cwd=d, check=True)
        refs[b] = [answer(llmc, d, q) for q in QUERIES]
        shutil.rmtree(d, ignore_errors=True)
    assert refs[False] != refs[True]

    root = make_repo(args.modules)
    subprocess.run([llmc, "index", "-q"], cwd=root, check=True)
    done = threading.Event()
    lock = threading.Lock()
    counts = {"calls": 0, "mismatches": 0, "runs": 0}
    examples = []

    def writer():
        b = False
        while not done.is_set():
            b = not b
            set_state(root, b)
            cmd = [llmc, "index", "-q"] + (["--rebuild"] if counts["runs"] % 3 == 2 else [])
            subprocess.run(cmd, cwd=root, capture_output=True)
            with lock:
                counts["runs"] += 1

    def reader(k):
        i = k
        while not done.is_set():
            qi = i % len(QUERIES)
            got = answer(llmc, root, QUERIES[qi])
            ok = got in (refs[False][qi], refs[True][qi])
            with lock:
                counts["calls"] += 1
                if not ok:
                    counts["mismatches"] += 1
                    if len(examples) < 5:
                        examples.append((QUERIES[qi], got))
                if counts["calls"] >= args.calls:
                    done.set()
            i += 1

    threads = [threading.Thread(target=writer)] + [
        threading.Thread(target=reader, args=(k,)) for k in range(args.readers)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    shutil.rmtree(root, ignore_errors=True)
    print(
        f"reader calls {counts['calls']}, index runs {counts['runs']} "
        f"(every third --rebuild), mismatches {counts['mismatches']}"
    )
    for q, got in examples:
        print(f"  mismatch: {' '.join(q)} -> {got}")
    return 1 if counts["mismatches"] else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""CodeSearchNet-style check of `llmc search` on this machine's Python standard library.

The first sentence of each documented function's docstring is the query; that function is
the answer. The stdlib (without site-packages and without its test suites) is copied twice:
as it is, and with every docstring blanked out (replaced by an empty string, line numbers
kept). Both copies are indexed with `llmc index`, and every query is run through
`llmc search --json` in each mode. Reports MRR@10 and Recall@10 per copy and mode, and,
with --bench, the whole-process median of `llmc search` per mode and the size on disk of
each index.

    cargo build --release
    python3 scripts/csn_eval.py [--llmc target/release/llmc] [--queries 500] [--bench 30]

Queries are shuffled with seed 0 before --offset and --queries slice them, so two runs
whose [offset, offset + queries) ranges do not overlap use disjoint queries (tune on one,
report on the other). For a sweep of search-time settings, keep the copies and pass the
settings through to llmc, e.g.

    python3 scripts/csn_eval.py --offset 400 --queries 300 --keep /tmp/csn \
        --modes hybrid --config search.lexical_weight=1.5 --config search.candidates=20

With --keep, a copy that already holds a file with the same content is not rewritten, so
the second run's `llmc index` finds nothing to do.
"""

import argparse
import ast
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time

EXCLUDED_DIRS = {"site-packages", "test", "tests", "idle_test", "__pycache__"}


def stdlib_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in EXCLUDED_DIRS)
        for name in sorted(filenames):
            if name.endswith(".py"):
                yield os.path.join(dirpath, name)


def docstring_nodes(tree):
    """(owner, docstring Expr) for the module, every class and every function."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                yield node, body[0]


def blank_docstrings(source, tree):
    """The source with each docstring replaced by "" on its first line, lines kept."""
    lines = source.split("\n")
    spans = []
    for owner, expr in docstring_nodes(tree):
        if not isinstance(owner, ast.Module) and expr.lineno == owner.lineno:
            continue  # `def f(): """doc"""` on one line: left as it is.
        spans.append((expr.lineno, expr.col_offset, expr.end_lineno, expr.end_col_offset))
    # Replace from the end, so earlier offsets stay valid.
    for lo, lo_col, hi, hi_col in sorted(spans, reverse=True):
        first = lines[lo - 1].encode("utf-8")
        last = lines[hi - 1].encode("utf-8")
        head = first[:lo_col].decode("utf-8", "replace")
        tail = last[hi_col:].decode("utf-8", "replace")
        lines[lo - 1 : hi] = [head + '""' + tail] + [""] * (hi - lo)
    return "\n".join(lines)


def first_sentence(doc):
    para = doc.strip().split("\n\n")[0]
    text = " ".join(para.split())
    for stop in (". ", ".\n"):
        i = text.find(stop)
        if i > 0:
            text = text[: i + 1]
            break
    return text


def qualnames(tree):
    """(qualname, node) for every function, qualified like llmc (Class.method, f.inner)."""
    out = []

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                q = f"{prefix}.{child.name}" if prefix else child.name
                if not isinstance(child, ast.ClassDef):
                    out.append((q, child))
                visit(child, q)
            else:
                visit(child, prefix)

    visit(tree, "")
    return out


def build_copies(stdlib, work):
    with_docs = os.path.join(work, "with_docs")
    no_docs = os.path.join(work, "no_docs")
    queries = []
    for path in stdlib_files(stdlib):
        rel = os.path.relpath(path, stdlib).replace(os.sep, "/")
        try:
            with open(path, encoding="utf-8") as f:
                source = f.read()
            tree = ast.parse(source)
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        for target, text in ((with_docs, source), (no_docs, blank_docstrings(source, tree))):
            write_if_changed(os.path.join(target, rel), text)
        for q, node in qualnames(tree):
            doc = ast.get_docstring(node)
            if not doc or node.body[0].lineno == node.lineno:
                continue
            query = first_sentence(doc)
            if len(query.split()) < 3:
                continue
            queries.append({"query": query, "path": rel, "symbol": q})
    return with_docs, no_docs, queries


def write_if_changed(dest, text):
    """Writes `text` to `dest` unless it already holds it (its mtime then stays)."""
    try:
        with open(dest, encoding="utf-8", newline="") as f:
            if f.read() == text:
                return
    except (FileNotFoundError, UnicodeDecodeError):
        pass
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(dest, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def index(llmc, repo):
    started = time.perf_counter()
    out = run(llmc + ["-C", repo, "index", "--json"])
    if out.returncode != 0:
        sys.exit(f"llmc index failed in {repo}: {out.stderr}")
    stats = json.loads(out.stdout)
    stats["wall_seconds"] = time.perf_counter() - started
    return stats


def rank_of(hits, want):
    for i, h in enumerate(hits):
        if h["path"] == want["path"] and h.get("symbol") == want["symbol"]:
            return i + 1
    return None


def evaluate(llmc, repo, queries, mode):
    rr, found = 0.0, 0
    for q in queries:
        out = run(llmc + ["-C", repo, "search", "--json", "--mode", mode, "--k", "10", q["query"]])
        if out.returncode not in (0, 1):
            sys.exit(f"llmc search failed: {out.stderr}")
        r = rank_of(json.loads(out.stdout)["hits"], q)
        if r:
            rr += 1.0 / r
            found += 1
    n = len(queries)
    return {"mrr@10": rr / n, "recall@10": found / n}


def dir_size(path):
    total = 0
    for dirpath, _, filenames in os.walk(path):
        for name in filenames:
            total += os.path.getsize(os.path.join(dirpath, name))
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--llmc", default="target/release/llmc")
    ap.add_argument("--queries", type=int, default=500, help="queries sampled (seed 0)")
    ap.add_argument("--offset", type=int, default=0, help="skip this many sampled queries")
    ap.add_argument("--bench", type=int, default=0, help="timed searches per mode")
    ap.add_argument("--keep", help="build the copies here and keep them")
    ap.add_argument(
        "--config",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="passed to every llmc run as --config KEY=VALUE (repeatable)",
    )
    ap.add_argument(
        "--modes",
        default="lexical,semantic,hybrid",
        help="comma-separated search modes to evaluate and time",
    )
    args = ap.parse_args()
    modes = [m for m in args.modes.split(",") if m]
    for m in modes:
        if m not in ("lexical", "semantic", "hybrid"):
            ap.error(f"unknown mode {m!r}")
    llmc = [os.path.abspath(args.llmc)]
    for kv in args.config:
        llmc += ["--config", kv]
    stdlib = sysconfig.get_paths()["stdlib"]
    work = args.keep or tempfile.mkdtemp(prefix="llmc-csn-")
    try:
        with_docs, no_docs, queries = build_copies(stdlib, work)
        random.Random(0).shuffle(queries)
        queries = queries[args.offset : args.offset + args.queries]
        print(f"stdlib {stdlib}: {len(queries)} queries", flush=True)
        report = {
            "stdlib": stdlib,
            "offset": args.offset,
            "queries": len(queries),
            "config": args.config,
            "copies": {},
        }
        for name, repo in (("with_docs", with_docs), ("no_docs", no_docs)):
            stats = index(llmc, repo)
            store = os.path.join(repo, ".llmc")
            sizes = {
                "sqlite": sum(
                    os.path.getsize(os.path.join(store, f))
                    for f in os.listdir(store)
                    if f.startswith("index.db")
                ),
                "lexical": dir_size(os.path.join(store, "lexical")),
                "vectors": dir_size(os.path.join(store, "vectors")),
            }
            entry = {
                "files": stats["files"],
                "chunks": stats["chunks"],
                "index_seconds": round(stats["wall_seconds"], 2),
                # A run that found nothing to do (a kept copy) reports no search stats.
                "embed_seconds": (
                    round(stats["search"]["vectors"]["embed_seconds"], 2)
                    if stats.get("search")
                    else None
                ),
                "bytes": sizes,
                "modes": {},
            }
            for mode in modes:
                entry["modes"][mode] = evaluate(llmc, repo, queries, mode)
                m = entry["modes"][mode]
                print(
                    f"{name:9} {mode:8} MRR@10 {m['mrr@10']:.3f}  Recall@10 {m['recall@10']:.3f}",
                    flush=True,
                )
            if args.bench and name == "with_docs":
                entry["search_ms_median"] = {}
                for mode in modes:
                    times = []
                    for q in queries[: args.bench]:
                        t = time.perf_counter()
                        run(llmc + ["-C", repo, "search", "--mode", mode, "--k", "10", q["query"]])
                        times.append((time.perf_counter() - t) * 1000)
                    entry["search_ms_median"][mode] = round(statistics.median(times), 1)
                print(f"{name:9} search medians (ms): {entry['search_ms_median']}", flush=True)
            report["copies"][name] = entry
        print(json.dumps(report, indent=2))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Builds a "who calls X?" reference set for one checkout from a compiler/language-server
grade resolver (see README.md in this folder).

    callers_truth.py CHECKOUT --lang {python,ts,rust,go,java} --commit SHA [--name NAME]
                     [--out-dir DIR] [--facts FILE] [--seed N] [--targets N]

Each language back end prints one JSON document ("facts"):
    {"tool", "tool_version", "stats": {...}, "unresolved_samples": [...],
     "defs": [{"id", "path", "line", "name", "qualname", "kind", "container", ...}],
     "refs": [{"def", "path", "line", "col", "kind"}]}
where a ref's kind is "call" for a call of the definition and something else (import, value,
decorator, annotation, type, qualifier, ...) for other references. This script samples
targets from the facts (seeded, stratified) and writes
    OUT_DIR/NAME.jsonl       questions for `llmc eval` (question, intent, gold, note)
    OUT_DIR/NAME.refs.jsonl  per target, every reference with its kind
    OUT_DIR/NAME.facts.json  only with --keep-facts: the back end's raw output
Same inputs give the same files (seeded sampling, sorted output).
"""
import argparse
import collections
import hashlib
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
MAX_CALL_SITES = 200

# kinds of definitions, grouped into the strata the sample is spread over
GROUPS = {
    # python
    "function": "function", "method": "method", "staticmethod": "static",
    "classmethod": "static", "class": "constructor",
    # rust
    "associated_function": "static", "trait_method": "method",
    "trait_associated_function": "static", "tuple_struct_constructor": "constructor",
    # ts / js
    "interface_method": "method", "static_method": "static", "constructor": "constructor",
    # go
    "interface_method_go": "method",
    # java
    "java_method": "method", "java_static_method": "static",
    "java_constructor": "constructor", "java_interface_method": "method",
}


# where the tools were installed on the machine these files were made on (README.md);
# each can be overridden from the environment
DEFAULT_ENV = {
    "TS_MODULE": "/work/truth-tools/ts/node_modules/typescript",
    "RA_CALLERS": "/work/truth-tools/ra-callers/target/release/ra-callers",
    "RUST_SRC_PATH": "/usr/src/rustc-1.63.0/library",
    "GO": "/usr/lib/go-1.23/bin/go",
    "TRUTH_JAVA_CLASSPATH": ":".join(
        f"/usr/share/java/{j}.jar" for j in
        ["junit-jupiter-api", "junit-jupiter-params", "opentest4j", "apiguardian-api",
         "junit-platform-commons", "junit4", "re2j"]),
}


def backend_env():
    env = dict(os.environ)
    for k, v in DEFAULT_ENV.items():
        env.setdefault(k, v)
    return env


def backend_cmd(lang, checkout, env):
    if lang == "python":
        return [sys.executable, str(HERE / "truth_python.py"), checkout]
    if lang == "ts":
        return ["node", str(HERE / "truth_ts.js"), checkout]
    if lang == "rust":
        return [env["RA_CALLERS"], checkout]
    if lang == "go":
        return [env["GO"], "-C", str(HERE / "truth_go"), "run", ".", checkout]
    if lang == "c":
        return [sys.executable, str(HERE / "truth_c.py"), checkout]
    if lang == "java":
        return ["java", "--add-exports", "jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED",
                str(HERE / "TruthJava.java"), checkout]
    raise SystemExit(f"unknown language {lang}")


def question_name(d, lang):
    sep = "::" if lang == "rust" else "."
    if d["kind"] in ("function",) or not d.get("container"):
        return d["name"]
    return f'{d["container"]}{sep}{d["name"]}'


def count_bucket(n):
    if n == 1:
        return "1"
    if n <= 5:
        return "2-5"
    return "6+"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkout")
    ap.add_argument("--lang", required=True, choices=["python", "ts", "rust", "go", "java", "c"])
    ap.add_argument("--commit", required=True, help="commit of the checkout, recorded in every note")
    ap.add_argument("--name", help="repository name for the output files (default: folder name)")
    ap.add_argument("--out-dir", default=str(HERE.parent.parent / "testdata" / "real" / "callers"))
    ap.add_argument("--facts", help="read the back end's output from this file instead of running it")
    ap.add_argument("--keep-facts", action="store_true", help="also write NAME.facts.json")
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--targets", type=int, default=60)
    args = ap.parse_args()

    checkout = str(Path(args.checkout).resolve())
    name = args.name or Path(checkout).name
    try:
        head = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        if not head.startswith(args.commit):
            print(f"warning: checkout is at {head}, not {args.commit}", file=sys.stderr)
    except (subprocess.CalledProcessError, FileNotFoundError):
        pass

    t0 = time.time()
    if args.facts:
        facts = json.loads(Path(args.facts).read_text())
    else:
        env = backend_env()
        cmd = backend_cmd(args.lang, checkout, env)
        print("running:", " ".join(cmd), file=sys.stderr)
        res = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if res.returncode != 0:
            sys.stderr.write(res.stderr[-4000:])
            raise SystemExit(f"back end failed ({res.returncode})")
        facts = json.loads(res.stdout)
        if args.keep_facts:
            Path(args.out_dir).mkdir(parents=True, exist_ok=True)
            Path(args.out_dir, f"{name}.facts.json").write_text(res.stdout)
    elapsed = time.time() - t0

    defs = {d["id"]: d for d in facts["defs"]}
    refs_by_def = collections.defaultdict(list)
    for r in facts["refs"]:
        refs_by_def[r["def"]].append(r)
    names_count = collections.Counter(d["name"] for d in facts["defs"])
    qual_count = collections.Counter((d["qualname"]) for d in facts["defs"])
    qual_file_count = collections.Counter((d["qualname"], d["path"]) for d in facts["defs"])

    # candidates: named things a developer would ask about, with 1..200 call lines
    cands = []
    for d in facts["defs"]:
        if d["kind"] not in GROUPS or d.get("nested") or d.get("skip_target"):
            continue
        n = d["name"]
        if n.startswith("__") and n.endswith("__"):
            continue
        if qual_file_count[(d["qualname"], d["path"])] > 1:
            continue  # the same qualified name twice in one file: no question can tell them apart
        call_lines = {(r["path"], r["line"]) for r in refs_by_def[d["id"]] if r["kind"] == "call"}
        if not (1 <= len(call_lines) <= MAX_CALL_SITES):
            continue
        ambiguous = names_count[n] > 1
        key = (GROUPS[d["kind"]], count_bucket(len(call_lines)), "ambiguous" if ambiguous else "unique")
        cands.append((key, d, call_lines))

    seed = int(hashlib.sha256(f"{args.seed}:{name}".encode()).hexdigest()[:12], 16)
    rng = random.Random(seed)
    strata = collections.defaultdict(list)
    for key, d, cl in sorted(cands, key=lambda c: (c[1]["path"], c[1]["line"], c[1]["name"])):
        strata[key].append((d, cl))
    for key in sorted(strata):
        rng.shuffle(strata[key])
    picked = []
    # round robin over strata; strata of ambiguous names get two picks per round
    while len(picked) < args.targets and any(strata.values()):
        for key in sorted(strata):
            take = 2 if key[2] == "ambiguous" else 1
            for _ in range(take):
                if strata[key] and len(picked) < args.targets:
                    d, cl = strata[key].pop()
                    picked.append((key, d, cl))

    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    eval_lines = []
    refs_lines = []
    for key, d, call_lines in sorted(picked, key=lambda p: (p[1]["path"], p[1]["line"], p[1]["name"])):
        qn = question_name(d, args.lang)
        if qual_count[d["qualname"]] > 1:
            # the same qualified name is written in several files: say which one
            q = f"who calls `{qn}` in `{d['path']}`?"
        else:
            q = f"who calls `{qn}`?"
        rs = refs_by_def[d["id"]]
        excluded = collections.Counter(r["kind"] for r in rs if r["kind"] != "call")
        excluded["definition"] = len(d.get("overloads") or [None])
        note = {
            "def_path": d["path"], "def_line": d["line"], "kind": d["kind"],
            "qualname": d["qualname"], "name": d["name"],
            "tool": facts["tool"], "tool_version": facts["tool_version"],
            "repo": name, "commit": args.commit,
            "stratum": "/".join(key),
            "same_name_defs": names_count[d["name"]],
            "same_qualname_defs": qual_count[d["qualname"]],
            "call_sites": len([r for r in rs if r["kind"] == "call"]),
            "refs_excluded": dict(sorted(excluded.items())),
        }
        for extra in ("trait_impl", "module", "overloads", "implementations", "via_interface",
                      "receiver", "package"):
            if d.get(extra):
                note[extra] = d[extra]
        in_macro = sum(1 for r in rs if r["kind"] == "call" and r.get("in_macro"))
        if in_macro:
            note["calls_inside_macros"] = in_macro
        amb = sum(1 for r in rs if r["kind"] == "call" and r.get("ambiguous"))
        if amb:
            note["calls_also_resolving_elsewhere"] = amb
        gold = [{"path": p, "line": l} for (p, l) in sorted(call_lines)]
        eval_lines.append(json.dumps({"question": q, "intent": "callers", "gold": gold,
                                      "note": json.dumps(note, sort_keys=True)}))
        refs_lines.append(json.dumps({
            "question": q, "target": {k: note[k] for k in ("def_path", "def_line", "kind", "qualname")},
            "refs": [{"path": r["path"], "line": r["line"], "col": r.get("col"), "kind": r["kind"]}
                     for r in sorted(rs, key=lambda r: (r["path"], r["line"], r.get("col") or 0, r["kind"]))],
        }))
    (out_dir / f"{name}.jsonl").write_text("\n".join(eval_lines) + "\n")
    (out_dir / f"{name}.refs.jsonl").write_text("\n".join(refs_lines) + "\n")

    strata_count = collections.Counter("/".join(k) for k, _, _ in picked)
    summary = {
        "repo": name, "commit": args.commit, "lang": args.lang, "tool": facts["tool"],
        "tool_version": facts["tool_version"], "backend_seconds": round(elapsed, 1),
        "stats": facts["stats"], "defs": len(facts["defs"]), "candidates": len(cands),
        "targets": len(picked), "gold_lines": sum(len(cl) for _, _, cl in picked),
        "strata": dict(sorted(strata_count.items())),
    }
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The C back end of callers_truth.py: GCC's own call graph (`-fcallgraph-info`).

    truth_c.py CHECKOUT

Compiles every tracked `.c` file of CHECKOUT with `gcc -c -O0 -fcallgraph-info` (each in a
scratch folder, nothing written into the checkout) and reads the `.ci` files GCC writes:
one node per function a translation unit defines or calls, one edge per call with the
call's `file:line:col`. A `static` function is named `file:name` there; a function with
external linkage is linked by name to the one translation unit that defines it, as the
linker does. Calls through function pointers are not in GCC's graph and not in the facts.

The compile flags come from the environment, so each repository's build can be followed:
`TRUTH_C_CFLAGS` (added to every compile, e.g. `-DLUA_USE_LINUX`), `TRUTH_C_EXCLUDE`
(comma-separated globs of `.c` files that are not compiled: other platforms, unity
builds). Every folder holding a tracked header is on the quoted include path (`-iquote`, so
`#include <poll.h>` still finds the system header, not a project file of that name); the
checkout's root is on the full include path too (`#include <hiredis.h>` in its examples). A file that does
not compile is left out and named in `stats.failed`; the calls it makes are then missing
from the facts, so regenerate until it is empty or excluded on purpose.

Prints the facts document callers_truth.py reads (see there).
"""
import fnmatch
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

NODE = re.compile(r'node: \{ title: "([^"]+)" label: "([^"\\]+)\\n([^"]+)"( shape : ellipse)? \}')
EDGE = re.compile(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)" label: "([^"]+)" \}')


def split_loc(loc):
    """`path:line:col` → (path, line, col); the path may hold colons."""
    path, line, col = loc.rsplit(":", 2)
    return path, int(line), int(col)


def main():
    checkout = Path(sys.argv[1]).resolve()
    cflags = shlex.split(os.environ.get("TRUTH_C_CFLAGS", ""))
    exclude = [g for g in os.environ.get("TRUTH_C_EXCLUDE", "").split(",") if g]
    files = subprocess.run(["git", "-C", str(checkout), "ls-files", "-z"], capture_output=True,
                           check=True).stdout.decode().split("\0")
    sources = sorted(f for f in files if f.endswith(".c")
                     and not any(fnmatch.fnmatch(f, g) for g in exclude))
    include = sorted({str(Path(f).parent) for f in files if f.endswith(".h")})
    version = subprocess.run(["gcc", "-dumpfullversion"], capture_output=True, text=True,
                             check=True).stdout.strip()
    scratch = Path(tempfile.mkdtemp(prefix="truth-c."))

    def compile_one(i_src):
        i, src = i_src
        out = scratch / f"{i}.o"
        cmd = (["gcc", "-c", "-O0", "-w", "-fcallgraph-info", "-o", str(out)]
               + ["-I."] + [f"-iquote{d}" for d in include] + cflags + [src])
        res = subprocess.run(cmd, cwd=checkout, capture_output=True, text=True)
        ci = scratch / f"{i}.ci"
        if res.returncode != 0 or not ci.exists():
            return src, None, res.stderr.strip().splitlines()[:1]
        return src, ci.read_text(), None

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        units = list(pool.map(compile_one, enumerate(sources)))

    def rel(path):
        p = os.path.normpath(path)
        return p if not os.path.isabs(p) else os.path.relpath(p, checkout)

    defs = {}  # id -> def
    globals_by_name = {}  # name -> ids of functions with external linkage
    unit_nodes = []  # per unit: title -> def id (defined) or None (declared only)
    failed = []
    for src, text, err in units:
        if text is None:
            failed.append({"file": src, "error": err})
            unit_nodes.append(None)
            continue
        nodes = {}
        for title, name, loc, ellipse in NODE.findall(text):
            if ellipse:
                nodes[title] = None
                continue
            path, line, _ = split_loc(loc)
            path = rel(path)
            if path.startswith(".."):
                nodes[title] = None
                continue
            is_static = ":" in title
            did = f"{path}:{line}:{name}"
            defs.setdefault(did, {"id": did, "path": path, "line": line, "name": name,
                                  "qualname": name, "kind": "function", "container": None,
                                  "static": is_static})
            nodes[title] = did
            if not is_static:
                globals_by_name.setdefault(name, set()).add(did)
        unit_nodes.append((nodes, text))

    refs = []
    seen = set()
    unresolved = external = 0
    for entry in unit_nodes:
        if entry is None:
            continue
        nodes, text = entry
        for source, target, loc in EDGE.findall(text):
            path, line, col = split_loc(loc)
            path = rel(path)
            if path.startswith(".."):
                continue
            did = nodes.get(target)
            targets = [did] if did else []
            if not did and ":" not in target:
                targets = sorted(globals_by_name.get(target, ()))
            if not targets:
                if target == "__indirect_call" or target.startswith("__builtin"):
                    unresolved += 1
                else:
                    external += 1
                continue
            for t in targets:
                key = (t, path, line, col)
                if key in seen:
                    continue
                seen.add(key)
                refs.append({"def": t, "path": path, "line": line, "col": col, "kind": "call",
                             "ambiguous": len(targets) > 1})
    # A call GCC places on a line that does not spell the callee's name came from a macro.
    lines_of = {}
    for r in refs:
        name = defs[r["def"]]["name"]
        if r["path"] not in lines_of:
            try:
                lines_of[r["path"]] = (checkout / r["path"]).read_text(errors="replace").splitlines()
            except OSError:
                lines_of[r["path"]] = []
        text = lines_of[r["path"]]
        line = text[r["line"] - 1] if 0 < r["line"] <= len(text) else ""
        if not re.search(rf"\b{re.escape(name)}\b", line):
            r["in_macro"] = True
    for d in defs.values():
        # `main` and friends: one per program, never one answer.
        if len(globals_by_name.get(d["name"], ())) > 1:
            d["skip_target"] = True
    print(json.dumps({
        "tool": "gcc -fcallgraph-info", "tool_version": f"gcc {version}",
        "stats": {"files": len(sources), "compiled": len(sources) - len(failed),
                  "failed": failed, "functions": len(defs), "calls_in_repo": len(refs),
                  "calls_outside": external, "indirect_or_builtin": unresolved,
                  "cflags": " ".join(cflags), "excluded": exclude},
        "unresolved_samples": [],
        "defs": sorted(defs.values(), key=lambda d: (d["path"], d["line"])),
        "refs": sorted(refs, key=lambda r: (r["def"], r["path"], r["line"], r["col"])),
    }))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Every `super().m(…)` call of a Python checkout, as llmc resolved it, against jedi.

    scripts/truth/super_calls.py CHECKOUT [--show]

CHECKOUT must be indexed (`llmc index`). For each call whose receiver llmc read as
`super(…)` (the `calls` table of `.llmc/index.db`), jedi's `Script.goto(follow_imports=True)`
is asked at the method's name, with `src/` (when there is one) and the checkout on its
`sys_path` as `truth_python.py` sets them. Prints how many such calls there are, how many
jedi resolves inside the repository, how many llmc resolves to a definition, and how
many of those agree: the same file, and jedi's line inside llmc's definition or jedi's
full name ending in llmc's qualified name (an `@overload`ed method's stub and its body).
With --show, every call llmc resolved that jedi does not confirm, for reading by hand
(jedi does not follow Python's MRO past a base that lacks the method).
"""
import argparse
import os
import re
import sqlite3
import sys

import jedi

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("checkout")
ap.add_argument("--show", action="store_true")
a = ap.parse_args()
root = os.path.abspath(a.checkout)
db = sqlite3.connect(os.path.join(root, ".llmc", "index.db"))
rows = db.execute(
    """SELECT f.path, c.line, c.name, s.qualname, sf.path, s.start_line, s.end_line
       FROM calls c JOIN files f ON f.id = c.file_id
       LEFT JOIN symbols s ON s.id = c.callee_id
       LEFT JOIN files sf ON sf.id = s.file_id
       WHERE c.qualifier LIKE 'super(%'"""
).fetchall()
src = os.path.join(root, "src")
sys_path = ([src] if os.path.isdir(src) else []) + [root] + [p for p in sys.path[1:] if p]
project = jedi.Project(root, sys_path=sys_path, smart_sys_path=True)
calls = in_repo = resolved = agree = 0
for path, line, name, qualname, callee_path, start, end in rows:
    try:
        text = open(os.path.join(root, path), encoding="utf-8").read()
    except (OSError, UnicodeDecodeError):
        continue
    lines = text.split("\n")
    if line > len(lines):
        continue
    m = re.search(r"super\([^)]*\)\s*\.\s*" + re.escape(name) + r"\b", lines[line - 1])
    if not m:
        continue
    calls += 1
    try:
        found = jedi.Script(text, path=os.path.join(root, path), project=project).goto(
            line, m.end() - len(name), follow_imports=True)
    except Exception:  # jedi's own failures: no answer from it
        found = []
    here = [d for d in found if d.module_path and d.line
            and str(d.module_path).startswith(root + os.sep)]
    in_repo += bool(here)
    if not callee_path:
        continue
    resolved += 1
    same = any(os.path.relpath(str(d.module_path), root) == callee_path
               and (start <= d.line <= end or (d.full_name or "").endswith("." + qualname))
               for d in here)
    agree += same
    if a.show and not same:
        print(f"{path}:{line} {name} -> {callee_path}:{qualname} | jedi:",
              [(os.path.relpath(str(d.module_path), root), d.line) for d in found])
print(f"{os.path.basename(root)}: super() calls {calls}, jedi in the repository {in_repo}, "
      f"llmc resolved {resolved}, agree {agree}")

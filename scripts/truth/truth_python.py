#!/usr/bin/env python3
"""Python facts for callers_truth.py: definitions and jedi-resolved references.

Call expressions and name loads are found with Python's own `ast`; each callee name token
is resolved with jedi's `Script.goto(follow_imports=True)`; a reference is kept when jedi's
answer is a `def`/`class` written in the repository (matched by file + line of its name).

Usage: truth_python.py CHECKOUT > facts.json
"""
import ast
import json
import os
import sys
import time
from pathlib import Path

import jedi

SKIP_DIRS = {".git", ".hg", ".tox", ".nox", ".venv", "venv", "node_modules", "build", "dist",
             "__pycache__", ".mypy_cache", ".pytest_cache", "site-packages"}


def py_files(root: Path):
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for f in sorted(filenames):
            if f.endswith((".py", ".pyi")):
                out.append(Path(dirpath) / f)
    return out


def char_col(line_bytes: bytes, byte_col: int) -> int:
    """ast columns are UTF-8 byte offsets; jedi wants code-point columns."""
    return len(line_bytes[:byte_col].decode("utf-8", errors="replace"))


class Defs(ast.NodeVisitor):
    def __init__(self, rel):
        self.rel = rel
        self.stack = []  # enclosing (kind, name)
        self.out = []

    def _fn(self, node):
        decos = [ast.unparse(d) for d in node.decorator_list]
        in_class = bool(self.stack) and self.stack[-1][0] == "class"
        if in_class:
            args = node.args.posonlyargs + node.args.args
            if "staticmethod" in decos:
                kind = "staticmethod"
            elif "classmethod" in decos:
                kind = "classmethod"
            elif any(d == "property" or d.endswith((".setter", ".getter", ".deleter")) or
                     d.endswith("cached_property") for d in decos):
                kind = "property"
            elif args:
                kind = "method"
            else:
                kind = "staticmethod"
            container = self.stack[-1][1]
        else:
            kind = "function"
            container = ".".join(n for _, n in self.stack)
        qual = ".".join([n for _, n in self.stack] + [node.name])
        self.out.append({"path": self.rel, "line": node.lineno, "name": node.name,
                         "qualname": qual, "kind": kind, "container": container,
                         "decorators": decos, "nested": any(k == "def" for k, _ in self.stack)})
        self.stack.append(("def", node.name))
        self.generic_visit(node)
        self.stack.pop()

    visit_FunctionDef = _fn
    visit_AsyncFunctionDef = _fn

    def visit_ClassDef(self, node):
        qual = ".".join([n for _, n in self.stack] + [node.name])
        self.out.append({"path": self.rel, "line": node.lineno, "name": node.name,
                         "qualname": qual, "kind": "class",
                         "container": ".".join(n for _, n in self.stack),
                         "decorators": [ast.unparse(d) for d in node.decorator_list],
                         "nested": any(k == "def" for k, _ in self.stack)})
        self.stack.append(("class", node.name))
        self.generic_visit(node)
        self.stack.pop()


def name_pos(node):
    """(line, byte_col, identifier) of the name token a Name/Attribute node ends with."""
    if isinstance(node, ast.Name):
        return node.lineno, node.col_offset, node.id
    if isinstance(node, ast.Attribute):
        return node.end_lineno, node.end_col_offset - len(node.attr.encode()), node.attr
    return None


def occurrences(tree, def_names):
    """Yield (line, byte_col, ident, role) for call callees and, for names that some repo
    definition carries, for non-call uses too."""
    parents = {}
    for p in ast.walk(tree):
        for c in ast.iter_child_nodes(p):
            parents[c] = p
    callees = set()
    decorators = set()
    annotations = set()
    bases = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            callees.add(n.func)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for d in n.decorator_list:
                decorators.add(d)
        if isinstance(n, ast.ClassDef):
            bases.update(n.bases)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = n.args
            for arg in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg]:
                if arg is not None and arg.annotation is not None:
                    annotations.add(arg.annotation)
            if n.returns is not None:
                annotations.add(n.returns)
        if isinstance(n, ast.AnnAssign):
            annotations.add(n.annotation)

    def inside(node, roots):
        while node is not None:
            if node in roots:
                return True
            node = parents.get(node)
        return False

    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            pos = name_pos(n.func)
            if pos is None:
                yield (n.lineno, n.col_offset, None, "call_nonname")
            else:
                yield (*pos, "call")
        elif isinstance(n, (ast.Name, ast.Attribute)) and isinstance(n.ctx, ast.Load):
            if n in callees:
                continue
            pos = name_pos(n)
            if pos[2] not in def_names:
                continue
            # the left part of `a.b` is reported through its own node
            if n in decorators:
                role = "decorator"
            elif inside(n, annotations):
                role = "annotation"
            elif n in bases:
                role = "base_class"
            else:
                role = "value"
            yield (*pos, role)
        elif isinstance(n, ast.ImportFrom):
            for alias in n.names:
                if alias.name in def_names and hasattr(alias, "lineno"):
                    yield (alias.lineno, alias.col_offset, alias.name, "import")


def main():
    root = Path(sys.argv[1]).resolve()
    t0 = time.time()
    files = py_files(root)
    sys_path = []
    if (root / "src").is_dir():
        sys_path.append(str(root / "src"))
    sys_path.append(str(root))
    # the repository first, then the interpreter's own paths (stdlib, site-packages), so that
    # `import pkg` means the checkout even when a release of pkg is installed
    sys_path += [p for p in sys.path[1:] if p and Path(p).resolve() != Path(__file__).resolve().parent]
    project = jedi.Project(str(root), sys_path=sys_path, smart_sys_path=True)

    defs = []
    sources = {}
    for f in files:
        rel = f.relative_to(root).as_posix()
        try:
            text = f.read_text(encoding="utf-8")
            tree = ast.parse(text, filename=rel)
        except (SyntaxError, UnicodeDecodeError, ValueError) as e:
            print(f"skip {rel}: {e}", file=sys.stderr)
            continue
        sources[rel] = (text, tree)
        v = Defs(rel)
        v.visit(tree)
        defs.extend(v.out)
    for i, d in enumerate(defs):
        d["id"] = i
    by_loc = {(d["path"], d["line"], d["name"]): d["id"] for d in defs}
    def_names = {d["name"] for d in defs}

    stats = {"files": len(sources), "call_exprs": 0, "calls_name_callee": 0,
             "calls_resolved_in_repo": 0, "calls_resolved_in_repo_nondef": 0,
             "calls_resolved_outside": 0, "calls_unresolved": 0, "calls_ambiguous_multi": 0}
    refs = set()
    unresolved_samples = []
    for rel, (text, tree) in sorted(sources.items()):
        lines = text.encode("utf-8").split(b"\n")
        script = jedi.Script(text, path=str(root / rel), project=project)
        for (line, bcol, ident, role) in occurrences(tree, def_names):
            if role == "call_nonname":
                stats["call_exprs"] += 1
                continue
            col = char_col(lines[line - 1], bcol)
            try:
                names = script.goto(line, col, follow_imports=True)
            except Exception as e:  # jedi internal errors: count as unresolved
                names = []
                print(f"jedi error {rel}:{line}:{col}: {e!r}", file=sys.stderr)
            hits = set()
            outside = False
            nondef = False
            for nm in names:
                mp = nm.module_path
                if mp is None:
                    outside = True
                    continue
                try:
                    mrel = Path(mp).resolve().relative_to(root).as_posix()
                except ValueError:
                    outside = True
                    continue
                key = (mrel, nm.line, nm.name)
                if key in by_loc and nm.type in ("function", "class"):
                    hits.add(by_loc[key])
                else:
                    nondef = True
            if role == "call":
                stats["call_exprs"] += 1
                stats["calls_name_callee"] += 1
                if hits:
                    stats["calls_resolved_in_repo"] += 1
                    if len(hits) > 1:
                        stats["calls_ambiguous_multi"] += 1
                elif nondef:
                    stats["calls_resolved_in_repo_nondef"] += 1
                elif outside:
                    stats["calls_resolved_outside"] += 1
                else:
                    stats["calls_unresolved"] += 1
                    if len(unresolved_samples) < 40:
                        unresolved_samples.append(f"{rel}:{line}:{col} {ident}")
            for h in hits:
                refs.add((h, rel, line, col + 1, role, len(hits) > 1))
    stats["seconds"] = round(time.time() - t0, 1)
    out = {
        "tool": "jedi",
        "tool_version": jedi.__version__,
        "stats": stats,
        "unresolved_samples": unresolved_samples,
        "defs": defs,
        "refs": [{"def": h, "path": p, "line": l, "col": c, "kind": r, "ambiguous": a}
                 for (h, p, l, c, r, a) in sorted(refs)],
    }
    json.dump(out, sys.stdout, indent=None)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

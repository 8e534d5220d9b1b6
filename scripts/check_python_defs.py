#!/usr/bin/env python3
"""Cross-check llmc's Python definitions against CPython's own `ast` module.

Usage: scripts/check_python_defs.py TREE   (TREE already indexed with `llmc index`)

For every .py file that `ast` parses, compares the set of (kind, qualified name, start,
end) of functions, methods and classes with what llmc stored in TREE/.llmc/index.db, and
prints agreement and the first differences. Module-level ALL_CAPS constants are left out
(ast has no notion of them).
"""
import ast
import os
import sqlite3
import sys


def ast_defs(tree):
    out = set()

    def visit(node, prefix, in_class):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                q = prefix + child.name
                out.add(("method" if in_class else "function", q, child.lineno, child.end_lineno))
                visit(child, q + ".", False)
            elif isinstance(child, ast.ClassDef):
                q = prefix + child.name
                out.add(("class", q, child.lineno, child.end_lineno))
                visit(child, q + ".", True)
            else:
                visit(child, prefix, in_class)

    visit(tree, "", False)
    return out


def main():
    root = sys.argv[1]
    db = sqlite3.connect(os.path.join(root, ".llmc", "index.db"))
    ours = {}
    for path, kind, qual, s, e in db.execute(
        "SELECT f.path, s.kind, s.qualname, s.start_line, s.end_line FROM symbols s "
        "JOIN files f ON f.id = s.file_id WHERE f.lang = 'python' AND s.kind != 'constant'"
    ):
        ours.setdefault(path, set()).add((kind, qual, s, e))
    files = agree = only_ast = only_ours = skipped = 0
    examples = []
    by_file = {}
    for path in sorted(ours.keys() | set()):
        full = os.path.join(root, path)
        try:
            with open(full, "rb") as f:
                tree = ast.parse(f.read())
        except (SyntaxError, ValueError):
            skipped += 1
            continue
        files += 1
        theirs = ast_defs(tree)
        mine = ours.get(path, set())
        agree += len(theirs & mine)
        for d in sorted(theirs - mine):
            only_ast += 1
            by_file[path] = by_file.get(path, 0) + 1
            if len(examples) < 15:
                examples.append(f"  ast only : {path} {d}")
        for d in sorted(mine - theirs):
            only_ours += 1
            by_file[path] = by_file.get(path, 0) + 1
            if len(examples) < 30:
                examples.append(f"  llmc only: {path} {d}")
    total = agree + only_ast
    print(f"files compared: {files} (skipped {skipped} that ast cannot parse)")
    print(f"definitions: ast {total}, agree {agree} ({100.0 * agree / max(total, 1):.2f}%), "
          f"ast-only {only_ast}, llmc-only {only_ours}")
    print("files with differences: " + ", ".join(f"{p} ({n})" for p, n in sorted(by_file.items())))
    print("\n".join(examples))


if __name__ == "__main__":
    main()

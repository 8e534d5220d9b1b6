#!/usr/bin/env python3
"""Copies a checkout with its doc comments removed, keeping every line number.

    questions_strip_docs.py CHECKOUT OUT

For the "CodeSearchNet protocol": the doc-comment questions of questions_make.py are asked
of this copy, where the sentence they quote no longer appears next to the code. Because no
line moves, the gold of REPO.nodoc/*.jsonl is the same as in the full set.

- Python: every docstring (module, class, function; found with `ast`) is replaced by spaces,
  newlines kept; when the docstring is the only statement of a body, its first line becomes
  `...` so that the file still parses. `#` comments (found with `tokenize`) are blanked too.
- TypeScript/JavaScript, Rust, Go: every comment node of tree-sitter (`//`, `///`, `//!`,
  `/* */`, `/** */`) is replaced by spaces, newlines kept. Strings that contain `//` are
  not touched because the parser, not a regex, finds the comments.
- Other files (Markdown docs, configs) are copied unchanged; see questions_README.md.

The copy is a plain directory of the tracked files at the checkout's work tree (no .git):
`llmc` indexes it like any folder. It is made fresh: OUT must not exist.
"""

from __future__ import annotations

import ast
import io
import shutil
import sys
import tokenize
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from questions_defs import LANG_BY_EXT, parse_tree, tracked_files  # noqa: E402


def _offsets(text: str) -> list[int]:
    """Character offset of the start of every line (1-based index -> offset at [i-1])."""
    offs = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            offs.append(i + 1)
    return offs


def _blank(chars: list[str], start: int, end: int) -> None:
    for i in range(start, end):
        if chars[i] not in "\n\r":
            chars[i] = " "


def strip_python(text: str) -> str:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return text
    offs = _offsets(text)
    # ast columns are UTF-8 byte offsets: convert per line
    lines = text.splitlines(keepends=True)

    def pos(lineno: int, col_bytes: int) -> int:
        line = lines[lineno - 1] if lineno - 1 < len(lines) else ""
        col = len(line.encode("utf-8")[:col_bytes].decode("utf-8", "ignore"))
        return offs[lineno - 1] + col

    chars = list(text)
    edits = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        body = node.body
        if not body:
            continue
        first = body[0]
        if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)):
            continue
        s, e = pos(first.lineno, first.col_offset), pos(first.end_lineno, first.end_col_offset)
        edits.append((s, e, len(body) == 1 and not isinstance(node, ast.Module)))
    for s, e, only in edits:
        _blank(chars, s, e)
        if only:
            chars[s] = "."
            if e - s >= 3:
                chars[s + 1] = "."
                chars[s + 2] = "."
            else:  # a docstring shorter than 3 characters cannot exist ("" is 2): keep `pass`-free
                chars[s] = "0"
    out = "".join(chars)
    # comments
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(out).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return out
    offs = _offsets(out)
    chars = list(out)
    for t in toks:
        if t.type == tokenize.COMMENT:
            (l1, c1), (l2, c2) = t.start, t.end
            _blank(chars, offs[l1 - 1] + c1, offs[l2 - 1] + c2)
    return "".join(chars)


def strip_tree_sitter(lang: str, data: bytes) -> bytes:
    tree = parse_tree(lang, data)
    buf = bytearray(data)
    stack = [tree.root_node]
    while stack:
        n = stack.pop()
        if n.type in ("comment", "line_comment", "block_comment", "html_comment"):
            for i in range(n.start_byte, n.end_byte):
                if buf[i] not in (0x0A, 0x0D):
                    buf[i] = 0x20
            continue
        stack.extend(n.children)
    return bytes(buf)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    src, out = Path(argv[0]).resolve(), Path(argv[1]).resolve()
    if out.exists():
        print(f"{out} exists: remove it first", file=sys.stderr)
        return 1
    counts = {"stripped": 0, "copied": 0}
    for rel in tracked_files(src):
        p = src / rel
        if not p.is_file() or p.is_symlink():
            continue
        dst = out / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        name = rel.rsplit("/", 1)[-1]
        ext = "." + name.rsplit(".", 1)[-1] if "." in name else ""
        lang = LANG_BY_EXT.get(ext)
        data = p.read_bytes()
        new = None
        if lang == "python":
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                text = None
            if text is not None:
                new = strip_python(text).encode("utf-8")
        elif lang in ("typescript", "tsx", "javascript", "rust", "go") and b"\0" not in data[:8192]:
            new = strip_tree_sitter(lang, data)
        if new is not None:
            # lines left with spaces only become empty (line numbers do not change)
            def emptied(ln: bytes) -> bytes:
                if ln.strip():
                    return ln
                return b"\r\n" if ln.endswith(b"\r\n") else b"\n" if ln.endswith(b"\n") else b""

            new = b"".join(emptied(ln) for ln in new.splitlines(keepends=True))
            assert new.count(b"\n") == data.count(b"\n"), rel
            dst.write_bytes(new)
            counts["stripped"] += 1
        else:
            shutil.copyfile(p, dst)
            counts["copied"] += 1
    print(f"{out}: {counts['stripped']} source files without comments, {counts['copied']} other files copied")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Definitions, doc comments, call sites and imports of a checkout, from real parsers.

Python is read with the standard library's `ast`; TypeScript/JavaScript, Rust and Go with
tree-sitter (the `tree_sitter` wheel and the `tree_sitter_<lang>` grammar wheels from PyPI).
Nothing here is written by hand about any repository: every record comes from a parse.

Conventions follow testdata/README.md of llmc: a definition's range starts on the line of
its keyword or modifiers (`def`, `pub fn`, `export function`, `func`) and not on decorators,
attributes or doc comments; it ends on its last line. Lines are 1-based, paths use `/`.
"""

from __future__ import annotations

import ast
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

LANG_BY_EXT = {
    ".py": "python",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".rs": "rust",
    ".go": "go",
}

# Paths that are tests, fixtures, docs or examples: their definitions are not used as the
# subject of doc-comment / definition / callee questions (they are still parsed for
# imports and for the uniqueness of names, so that gold stays complete).
TEST_RE = re.compile(
    r"(^|/)(tests?|__tests__|testdata|test_data|fixtures?|docs?|examples?|benches|website|"
    r"_site|perf-testing|__performance_tests__|scripts|vendor|node_modules|dist|build)/"
    r"|_test\.go$|\.test\.[jt]sx?$|\.spec\.[jt]sx?$|(^|/)test_[^/]*\.py$|(^|/)conftest\.py$"
    r"|\.d\.ts$|(^|/)[^/]*\.config\.[jt]s$|(^|/)build\.rs$"
)


@dataclass
class Call:
    name: str  # the called name (last segment: `foo` of `a.b.foo(...)`)
    line: int


@dataclass
class Def:
    path: str
    lang: str
    kind: str  # function method class struct enum trait interface impl module constant type macro
    name: str
    qualname: str
    start: int
    end: int
    doc: str | None = None  # the doc comment's text, markers removed
    calls: list[Call] = field(default_factory=list)
    test: bool = False


@dataclass
class Import:
    path: str  # the importing file
    line: int
    target: str  # resolved repo path (python/ts), or module/crate path (go/rust/external)
    external: bool


def tracked_files(root: Path) -> list[str]:
    out = subprocess.run(
        ["git", "-C", str(root), "ls-files", "-z"], check=True, capture_output=True
    ).stdout.decode("utf-8", "replace")
    return sorted(p for p in out.split("\0") if p)


# ----------------------------------------------------------------------------- Python


def _py_module_name(path: str, files: set[str]) -> str | None:
    """`src/click/core.py` -> `click.core` (walking up while `__init__.py` exists)."""
    parts = path[:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
        pkg_dir = parts
    else:
        pkg_dir = parts[:-1]
    # find the highest directory that is still a package
    top = len(pkg_dir)
    while top > 0 and "/".join(pkg_dir[:top] + ["__init__.py"]) in files:
        top -= 1
    mod = parts[top:]
    return ".".join(mod) if mod else None


def _py_defs(path: str, text: str, test: bool) -> tuple[list[Def], ast.Module | None]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return [], None
    defs: list[Def] = []

    def calls_in(node: ast.AST) -> list[Call]:
        out: list[Call] = []
        stack = list(ast.iter_child_nodes(node))
        while stack:
            n = stack.pop()
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                continue  # nested definitions own their calls
            if isinstance(n, ast.Call):
                f = n.func
                if isinstance(f, ast.Name):
                    out.append(Call(f.id, f.lineno))
                elif isinstance(f, ast.Attribute):
                    out.append(Call(f.attr, f.end_lineno or f.lineno))
            stack.extend(ast.iter_child_nodes(n))
        return sorted(out, key=lambda c: (c.line, c.name))

    def walk(body, prefix: str, in_class: bool):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                q = f"{prefix}.{node.name}" if prefix else node.name
                if isinstance(node, ast.ClassDef):
                    kind = "class"
                else:
                    kind = "method" if in_class else "function"
                defs.append(
                    Def(
                        path=path,
                        lang="python",
                        kind=kind,
                        name=node.name,
                        qualname=q,
                        start=node.lineno,
                        end=node.end_lineno or node.lineno,
                        doc=ast.get_docstring(node, clean=True),
                        calls=[] if kind == "class" else calls_in(node),
                        test=test,
                    )
                )
                walk(node.body, q, isinstance(node, ast.ClassDef))
            elif isinstance(node, (ast.If, ast.Try, ast.With)):
                # definitions under `if TYPE_CHECKING:` / `try:` at the same level
                for sub in ("body", "orelse", "finalbody", "handlers"):
                    for item in getattr(node, sub, []) or []:
                        if isinstance(item, ast.ExceptHandler):
                            walk(item.body, prefix, in_class)
                        else:
                            walk([item], prefix, in_class)

    walk(tree.body, "", False)
    return defs, tree


def _py_imports(path: str, tree: ast.Module, files: set[str], modules: dict[str, str]) -> list[Import]:
    out: list[Import] = []
    me = _py_module_name(path, files) or ""
    is_pkg = path.endswith("__init__.py")
    pkg = me if is_pkg else me.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                tgt = modules.get(a.name)
                out.append(Import(path, node.lineno, tgt or a.name, tgt is None))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".") if pkg else []
                if node.level > 1:
                    base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            # `from . import types` imports the submodule `pkg.types` when it exists
            resolved_any = False
            for a in node.names:
                sub = f"{mod}.{a.name}" if mod else a.name
                if sub in modules:
                    out.append(Import(path, node.lineno, modules[sub], False))
                    resolved_any = True
            if not resolved_any:
                tgt = modules.get(mod)
                out.append(Import(path, node.lineno, tgt or mod, tgt is None))
    return out


# ----------------------------------------------------------------------------- tree-sitter

_PARSERS: dict[str, object] = {}


def _parser(lang: str):
    if lang in _PARSERS:
        return _PARSERS[lang]
    from tree_sitter import Language, Parser

    if lang == "typescript":
        import tree_sitter_typescript as m

        L = Language(m.language_typescript())
    elif lang == "tsx":
        import tree_sitter_typescript as m

        L = Language(m.language_tsx())
    elif lang == "javascript":
        import tree_sitter_javascript as m

        L = Language(m.language())
    elif lang == "rust":
        import tree_sitter_rust as m

        L = Language(m.language())
    elif lang == "go":
        import tree_sitter_go as m

        L = Language(m.language())
    else:
        raise ValueError(lang)
    p = Parser(L)
    _PARSERS[lang] = p
    return p


def parse_tree(lang: str, data: bytes):
    return _parser(lang).parse(data)


def _txt(node) -> str:
    return node.text.decode("utf-8", "replace")


def _line(node) -> int:
    return node.start_point[0] + 1


def _end_line(node) -> int:
    return node.end_point[0] + 1


def _clean_block_comment(text: str) -> str:
    """`/** ... */` -> its text without the markers and leading `*`."""
    body = text
    if body.startswith("/**"):
        body = body[3:]
    elif body.startswith("/*"):
        body = body[2:]
    if body.endswith("*/"):
        body = body[:-2]
    lines = []
    for ln in body.split("\n"):
        s = ln.strip()
        if s.startswith("*"):
            s = s[1:]
            if s.startswith(" "):
                s = s[1:]
        lines.append(s.rstrip())
    return "\n".join(lines).strip()


def _leading_comments(node, doc_only_prefix: tuple[str, ...]) -> list:
    """Comment siblings directly above `node` (contiguous, no blank line between)."""
    out = []
    prev = node.prev_sibling
    expect = _line(node) - 1
    while prev is not None and prev.type in ("comment", "line_comment", "block_comment", "attribute_item"):
        if _end_line(prev) != expect and not (prev.type == "line_comment" and _end_line(prev) == expect + 1):
            break
        if prev.type != "attribute_item":
            out.append(prev)
        expect = _line(prev) - 1
        prev = prev.prev_sibling
    out.reverse()
    return out


def _ts_doc(node) -> str | None:
    """The JSDoc `/** */` block directly above a TS/JS declaration."""
    target = node
    if target.parent is not None and target.parent.type == "export_statement":
        target = target.parent
    prev = target.prev_sibling
    if prev is None or prev.type != "comment":
        return None
    t = _txt(prev)
    if not t.startswith("/**") or _end_line(prev) < _line(target) - 1:
        return None
    return _clean_block_comment(t)


def _rust_doc(node) -> str | None:
    lines = []
    for c in _leading_comments(node, ("///",)):
        t = _txt(c)
        if t.startswith("///") and not t.startswith("////"):
            lines.append(t[3:].rstrip("\n")[1:] if t[3:4] == " " else t[3:].rstrip("\n"))
        elif t.startswith("/**") and not t.startswith("/***"):
            lines.append(_clean_block_comment(t))
        else:
            lines = []  # a plain comment breaks a doc block
    return "\n".join(lines).strip() or None


def _go_doc(node) -> str | None:
    lines = []
    for c in _leading_comments(node, ("//",)):
        t = _txt(c)
        if t.startswith("//"):
            s = t[2:]
            if s.startswith(" "):
                s = s[1:]
            if s.startswith("go:") or s.startswith("nolint"):
                continue
            lines.append(s.rstrip())
        else:
            lines.append(_clean_block_comment(t))
    return "\n".join(lines).strip() or None


_TS_CALLS = ("call_expression", "new_expression")


def _calls_ts_like(body, lang: str, skip_types: tuple[str, ...]) -> list[Call]:
    out: list[Call] = []
    stack = [body]
    while stack:
        n = stack.pop()
        if n is not body and n.type in skip_types:
            continue
        if n.type == "call_expression" or (lang in ("typescript", "tsx", "javascript") and n.type == "new_expression"):
            f = n.child_by_field_name("function") or n.child_by_field_name("constructor")
            name_node = None
            if f is not None:
                if f.type in ("identifier", "field_identifier", "property_identifier", "type_identifier"):
                    name_node = f
                elif f.type in ("member_expression", "selector_expression", "field_expression"):
                    name_node = f.child_by_field_name("property") or f.child_by_field_name("field")
                elif f.type in ("scoped_identifier",):
                    name_node = f.child_by_field_name("name")
                elif f.type == "generic_function":
                    inner = f.child_by_field_name("function")
                    if inner is not None:
                        if inner.type == "scoped_identifier":
                            name_node = inner.child_by_field_name("name")
                        elif inner.type == "field_expression":
                            name_node = inner.child_by_field_name("field")
                        else:
                            name_node = inner
            if name_node is not None:
                out.append(Call(_txt(name_node), _line(name_node)))
        stack.extend(n.children)
    return sorted(out, key=lambda c: (c.line, c.name))


_TS_FUNC_NODES = (
    "function_declaration",
    "generator_function_declaration",
    "method_definition",
    "arrow_function",
    "function_expression",
    "function",
    "class_declaration",
    "abstract_class_declaration",
    "class",
)


def _ts_defs(path: str, lang: str, data: bytes, test: bool) -> tuple[list[Def], object]:
    tree = parse_tree(lang, data)
    defs: list[Def] = []

    def start_of(node):
        p = node.parent
        if p is not None and p.type == "export_statement":
            return _line(p)
        return _line(node)

    def visit(node, prefix: str):
        for ch in node.named_children:
            t = ch.type
            if t in ("function_declaration", "generator_function_declaration", "class_declaration",
                     "abstract_class_declaration", "interface_declaration", "type_alias_declaration",
                     "enum_declaration"):
                nm = ch.child_by_field_name("name")
                if nm is None:
                    visit(ch, prefix)
                    continue
                name = _txt(nm)
                kind = {
                    "function_declaration": "function",
                    "generator_function_declaration": "function",
                    "class_declaration": "class",
                    "abstract_class_declaration": "class",
                    "interface_declaration": "interface",
                    "type_alias_declaration": "type",
                    "enum_declaration": "enum",
                }[t]
                q = f"{prefix}.{name}" if prefix else name
                body = ch.child_by_field_name("body")
                defs.append(Def(path, lang, kind, name, q, start_of(ch), _end_line(ch), _ts_doc(ch),
                                _calls_ts_like(body, lang, _TS_FUNC_NODES) if (body is not None and kind == "function") else [],
                                test))
                if kind == "class" and body is not None:
                    visit(body, q)
            elif t == "method_definition":
                nm = ch.child_by_field_name("name")
                if nm is None:
                    continue
                name = _txt(nm)
                q = f"{prefix}.{name}" if prefix else name
                body = ch.child_by_field_name("body")
                doc = None
                prev = ch.prev_sibling
                if prev is not None and prev.type == "comment" and _txt(prev).startswith("/**") and _end_line(prev) >= _line(ch) - 1:
                    doc = _clean_block_comment(_txt(prev))
                defs.append(Def(path, lang, "method", name, q, _line(ch), _end_line(ch), doc,
                                _calls_ts_like(body, lang, _TS_FUNC_NODES) if body is not None else [], test))
            elif t in ("lexical_declaration", "variable_declaration"):
                # export const foo = (...) => {...} / function (...) {...}
                for d in ch.named_children:
                    if d.type != "variable_declarator":
                        continue
                    nm, val = d.child_by_field_name("name"), d.child_by_field_name("value")
                    if nm is None or val is None or nm.type != "identifier":
                        continue
                    if val.type in ("arrow_function", "function_expression", "function"):
                        name = _txt(nm)
                        q = f"{prefix}.{name}" if prefix else name
                        body = val.child_by_field_name("body")
                        defs.append(Def(path, lang, "function", name, q, start_of(ch), _end_line(ch), _ts_doc(ch),
                                        _calls_ts_like(body, lang, _TS_FUNC_NODES) if body is not None else [], test))
            elif t in ("export_statement", "statement_block", "program", "ambient_declaration"):
                visit(ch, prefix)
            elif t in ("internal_module", "module"):
                body = ch.child_by_field_name("body")
                if body is not None:
                    visit(body, prefix)

    visit(tree.root_node, "")
    return defs, tree


def _ts_imports(path: str, tree, files: set[str]) -> list[Import]:
    out: list[Import] = []
    base = path.rsplit("/", 1)[0] if "/" in path else ""

    def resolve(spec: str) -> str | None:
        if not spec.startswith("."):
            return None
        parts = (base.split("/") if base else []) + spec.split("/")
        stack: list[str] = []
        for p in parts:
            if p in ("", "."):
                continue
            if p == "..":
                if stack:
                    stack.pop()
                continue
            stack.append(p)
        cand = "/".join(stack)
        stem = re.sub(r"\.(m|c)?js$", "", cand)
        for c in (cand, stem + ".ts", stem + ".tsx", stem + ".mts", stem + ".d.ts", stem + ".js", stem + ".mjs",
                  cand + "/index.ts", cand + "/index.tsx", cand + "/index.js"):
            if c in files:
                return c
        return None

    for n in tree.root_node.named_children:
        if n.type in ("import_statement", "export_statement"):
            src = n.child_by_field_name("source")
            if src is None:
                continue
            spec = _txt(src).strip("'\"`")
            tgt = resolve(spec)
            out.append(Import(path, _line(n), tgt or spec, tgt is None))
    return out


def _rust_defs(path: str, data: bytes, test: bool) -> tuple[list[Def], object]:
    tree = parse_tree("rust", data)
    defs: list[Def] = []
    kinds = {
        "function_item": "function",
        "struct_item": "struct",
        "enum_item": "enum",
        "trait_item": "trait",
        "mod_item": "module",
        "const_item": "constant",
        "static_item": "constant",
        "type_item": "type",
        "macro_definition": "macro",
        "union_item": "struct",
    }

    def impl_name(node) -> str:
        ty = node.child_by_field_name("type")
        if ty is None:
            return "impl"
        if ty.type == "generic_type":
            inner = ty.child_by_field_name("type")
            if inner is not None:
                ty = inner
        if ty.type == "scoped_type_identifier":
            nm = ty.child_by_field_name("name")
            if nm is not None:
                ty = nm
        return _txt(ty)

    def is_test_mod(node) -> bool:
        prev = node.prev_sibling
        while prev is not None and prev.type in ("attribute_item", "line_comment"):
            if prev.type == "attribute_item" and "cfg(test)" in _txt(prev).replace(" ", ""):
                return True
            prev = prev.prev_sibling
        return False

    def visit(node, prefix: str, in_impl: bool, test_here: bool):
        for ch in node.named_children:
            t = ch.type
            if t in kinds:
                if t == "mod_item" and ch.child_by_field_name("body") is None:
                    continue
                nm = ch.child_by_field_name("name")
                if nm is None:
                    continue
                name = _txt(nm)
                q = f"{prefix}::{name}" if prefix else name
                kind = kinds[t]
                if kind == "function" and in_impl:
                    kind = "method"
                body = ch.child_by_field_name("body")
                tst = test_here or (t == "mod_item" and is_test_mod(ch))
                calls = _calls_ts_like(body, "rust", ("function_item", "closure_expression_nope")) if (body is not None and kind in ("function", "method")) else []
                defs.append(Def(path, "rust", kind, name, q, _line(ch), _end_line(ch), _rust_doc(ch), calls, tst))
                if t in ("mod_item", "trait_item") and body is not None:
                    visit(body, q, t == "trait_item", tst)
            elif t == "impl_item":
                name = impl_name(ch)
                q = f"{prefix}::{name}" if prefix else name
                defs.append(Def(path, "rust", "impl", name, q, _line(ch), _end_line(ch), _rust_doc(ch), [], test_here))
                body = ch.child_by_field_name("body")
                if body is not None:
                    visit(body, q, True, test_here)
            elif t == "declaration_list":
                visit(ch, prefix, in_impl, test_here)

    visit(tree.root_node, "", False, test)
    return defs, tree


def _rust_use_paths(node, prefix: str = "") -> list[tuple[str, int]]:
    """Flattens a use tree into (path, line) leaves."""
    t = node.type
    if t in ("identifier", "scoped_identifier", "crate", "self", "super", "metavariable"):
        p = _txt(node)
        return [(f"{prefix}::{p}" if prefix else p, _line(node))]
    if t == "use_as_clause":
        return _rust_use_paths(node.child_by_field_name("path"), prefix)
    if t == "use_wildcard":
        inner = node.named_children[0] if node.named_children else None
        base = _txt(inner) if inner is not None else ""
        p = f"{prefix}::{base}" if prefix and base else (base or prefix)
        return [(p + "::*", _line(node))]
    if t == "scoped_use_list":
        path = node.child_by_field_name("path")
        lst = node.child_by_field_name("list")
        pre = prefix
        if path is not None:
            pre = f"{prefix}::{_txt(path)}" if prefix else _txt(path)
        return _rust_use_paths(lst, pre) if lst is not None else []
    if t == "use_list":
        out = []
        for c in node.named_children:
            out.extend(_rust_use_paths(c, prefix))
        return out
    return []


def _rust_imports(path: str, tree) -> list[Import]:
    out: list[Import] = []
    stack = [tree.root_node]
    while stack:
        n = stack.pop()
        if n.type == "use_declaration":
            arg = n.child_by_field_name("argument")
            if arg is not None:
                for p, ln in _rust_use_paths(arg):
                    out.append(Import(path, ln, p, True))
            continue
        if n.type == "extern_crate_declaration":
            nm = n.child_by_field_name("name")
            if nm is not None:
                out.append(Import(path, _line(n), _txt(nm), True))
            continue
        stack.extend(n.named_children)
    return out


def _go_defs(path: str, data: bytes, test: bool) -> tuple[list[Def], object]:
    tree = parse_tree("go", data)
    defs: list[Def] = []
    for ch in tree.root_node.named_children:
        t = ch.type
        if t == "function_declaration":
            nm = ch.child_by_field_name("name")
            body = ch.child_by_field_name("body")
            name = _txt(nm)
            defs.append(Def(path, "go", "function", name, name, _line(ch), _end_line(ch), _go_doc(ch),
                            _calls_ts_like(body, "go", ("func_literal_nope",)) if body is not None else [], test))
        elif t == "method_declaration":
            nm = ch.child_by_field_name("name")
            recv = ch.child_by_field_name("receiver")
            rtype = ""
            if recv is not None:
                m = re.search(r"\*?\s*([A-Za-z_][A-Za-z0-9_]*)\s*(\[[^\]]*\])?\s*\)\s*$", _txt(recv))
                if m:
                    rtype = m.group(1)
            name = _txt(nm)
            body = ch.child_by_field_name("body")
            defs.append(Def(path, "go", "method", name, f"{rtype}.{name}" if rtype else name, _line(ch), _end_line(ch),
                            _go_doc(ch), _calls_ts_like(body, "go", ("func_literal_nope",)) if body is not None else [], test))
        elif t == "type_declaration":
            specs = [c for c in ch.named_children if c.type in ("type_spec", "type_alias")]
            for sp in specs:
                nm = sp.child_by_field_name("name")
                ty = sp.child_by_field_name("type")
                kind = "type"
                if ty is not None and ty.type == "struct_type":
                    kind = "struct"
                elif ty is not None and ty.type == "interface_type":
                    kind = "interface"
                # a single spec: the range is the whole declaration and its doc is above `type`
                if len(specs) == 1:
                    defs.append(Def(path, "go", kind, _txt(nm), _txt(nm), _line(ch), _end_line(ch), _go_doc(ch), [], test))
                else:
                    defs.append(Def(path, "go", kind, _txt(nm), _txt(nm), _line(sp), _end_line(sp), _go_doc(sp), [], test))
    return defs, tree


def _go_imports(path: str, tree) -> list[Import]:
    out: list[Import] = []
    stack = [tree.root_node]
    while stack:
        n = stack.pop()
        if n.type == "import_spec":
            p = n.child_by_field_name("path")
            if p is not None:
                out.append(Import(path, _line(n), _txt(p).strip('"`'), True))
            continue
        if n.type in ("source_file", "import_declaration", "import_spec_list"):
            stack.extend(n.named_children)
    return out


# ----------------------------------------------------------------------------- whole repo


@dataclass
class Repo:
    root: Path
    files: list[str]
    lang_files: dict[str, str]  # path -> language
    defs: list[Def]
    imports: list[Import]
    py_modules: dict[str, str]
    crates: set[str] = field(default_factory=set)  # Rust dependencies named in any Cargo.toml


def scan(root: Path) -> Repo:
    files = tracked_files(root)
    fileset = set(files)
    lang_files = {}
    for p in files:
        ext = "." + p.rsplit(".", 1)[-1] if "." in p.rsplit("/", 1)[-1] else ""
        if p.endswith(".d.ts"):
            ext = ".ts"
        lang = LANG_BY_EXT.get(ext)
        if lang and (root / p).is_file():
            lang_files[p] = lang
    py_modules = {}
    for p, lang in lang_files.items():
        if lang == "python":
            m = _py_module_name(p, fileset)
            if m:
                py_modules.setdefault(m, p)
    defs: list[Def] = []
    imports: list[Import] = []
    for p, lang in sorted(lang_files.items()):
        data = (root / p).read_bytes()
        if len(data) > 2_000_000 or b"\0" in data[:8192]:
            continue
        test = bool(TEST_RE.search(p))
        if lang == "python":
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            ds, tree = _py_defs(p, text, test)
            defs += ds
            if tree is not None:
                imports += _py_imports(p, tree, fileset, py_modules)
        elif lang in ("typescript", "tsx", "javascript"):
            if lang == "javascript" and (p.endswith(".min.js") or "/dist/" in p):
                continue
            ds, tree = _ts_defs(p, lang, data, test)
            defs += ds
            imports += _ts_imports(p, tree, fileset)
        elif lang == "rust":
            ds, tree = _rust_defs(p, data, test)
            defs += ds
            imports += _rust_imports(p, tree)
        elif lang == "go":
            ds, tree = _go_defs(p, data, test)
            defs += ds
            imports += _go_imports(p, tree)
    crates = set()
    for p in files:
        if p.rsplit("/", 1)[-1] == "Cargo.toml":
            import tomllib

            try:
                doc = tomllib.loads((root / p).read_text())
            except (OSError, ValueError):
                continue
            tables = [doc]
            tables += [v for k, v in doc.get("target", {}).items() if isinstance(v, dict)]
            for t in tables:
                for sect in ("dependencies", "dev-dependencies", "build-dependencies"):
                    for name, spec in (t.get(sect) or {}).items():
                        real = spec.get("package", name) if isinstance(spec, dict) else name
                        crates.add(name.replace("-", "_"))
                        crates.add(real.replace("-", "_"))
            ws = doc.get("workspace", {}).get("dependencies", {})
            crates |= {n.replace("-", "_") for n in ws}
            if "package" in doc:
                crates.add(doc["package"].get("name", "").replace("-", "_"))
    crates.discard("")
    return Repo(root, files, lang_files, defs, imports, py_modules, crates)

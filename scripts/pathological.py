#!/usr/bin/env python3
"""Pathological inputs for the index: each file alone in a fresh directory, indexed by
`llmc index`, with wall time and peak RSS (GNU time). The bound the index must keep: no
input file of at most 1 MiB takes the index over 500 MB of RSS or 10 s.

    python3 scripts/pathological.py [--llmc target/release/llmc] [--size 1048576] [--only NAME]
                                    [--kill-after 60] [--limit-mb 6000]

`--kill-after` and `--limit-mb` (an address-space limit) keep a build without the bounds
(the "before" of a comparison) from taking the machine down: such a run shows as killed
(exit 137) or aborted (exit 134) instead of finishing.

Prints one row per input: name, bytes, exit code, seconds, peak RSS in MB, and whether
it stayed within the bound. Exits 1 when any input broke the bound or crashed the index.
"""

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile


def inputs(size):
    """(file name, text) pairs of about `size` bytes each."""

    def fit(unit, fixed=128):
        # Room for the fixed text around the repeated unit: every file stays <= size.
        return max(1, (size - fixed) // len(unit))

    n = fit("()") // 1
    yield "parens.py", "x = " + "(" * (n // 2) + "1" + ")" * (n // 2) + "\n"
    yield "parens.js", "const x = " + "(" * (n // 2) + "1" + ")" * (n // 2) + ";\n"
    yield "parens.rs", "fn f() { let x = " + "(" * (n // 2) + "1" + ")" * (n // 2) + "; }\n"
    yield "parens.go", "package p\nfunc f() { x := " + "(" * (n // 2) + "1" + ")" * (n // 2) + "; _ = x }\n"
    for name, op in [("not", "!"), ("amp", "&"), ("neg", "-")]:
        yield f"unary_{name}.rs", "fn f() { let x = " + op * fit(op) + "g(); }\n"
    yield "unary_try.rs", "fn f() { let x = g()" + "?" * fit("?") + "; }\n"
    yield "awaits.js", "async function f() { const x = " + "await " * fit("await ") + "g(); }\n"
    yield "awaits.py", "async def f():\n    x = " + "await " * fit("await ") + "g()\n"
    k = fit("a::{}")
    yield "uses.rs", "use " + "a::{" * k + "x" + "}" * k + ";\n"
    yield "pointers.c", "int " + "*" * fit("*") + "x;\n"
    yield "ref_type.rs", "fn f(x: " + "&" * fit("&") + "T) {}\n"
    yield "qualified.cpp", "void f() { " + "a::" * fit("a::") + "g(); }\n"
    k = fit("mod m {  }")
    yield "mods.rs", "mod m { " * k + "fn f(){}" + " }" * k + "\n"
    k = fit("mod m {\n}\n")
    yield "mods_lines.rs", "mod m {\n" * k + "fn f(){}\n" + "}\n" * k
    k = fit("class A { }")
    yield "classes.java", "class A { " * k + "}" * k + "\n"
    k = fit("namespace a {  }")
    yield "namespaces.cpp", "namespace a { " * k + "void f(){}" + " }" * k + "\n"
    yield "chain.js", "x" + ".a()" * fit(".a()") + ";\n"
    yield "chain.rs", "fn f(){ x" + ".a()" * fit(".a()") + "; }\n"
    yield "chain.py", "x" + ".a()" * fit(".a()") + "\n"
    k = fit("Option<>")
    yield "generics.rs", "fn f(x: " + "Option<" * k + "T" + ">" * k + ") {}\n"
    k = fit("[]")
    yield "lists.py", "x = " + "[" * k + "]" * k + "\n"
    k = fit("{a:}")
    yield "objects.js", "const x = " + "{a:" * k + "1" + "}" * k + ";\n"
    yield "ternary.ts", "const x = " + "a ? b : " * fit("a ? b : ") + "c;\n"
    yield "sum.py", "x = " + "a + " * fit("a + ") + "b\n"
    yield "long_name.py", "def " + "a" * (size // 2) + "():\n    pass\n"
    yield "many_defs.py", "".join(f"def f{i}(): pass\n" for i in range(fit("def f00000(): pass\n")))
    yield "many_calls.py", "def f():\n" + "    g()\n" * fit("    g()\n")
    k = fit("    " * 50 + "def f(): pass\n")
    yield "indents.py", "class A:\n" + "".join("    " * (1 + i % 50) + f"def f{i}(): pass\n" for i in range(k))
    yield "quote.md", "# h\n" + "> " * fit("> ") + "x\n"
    yield "one_line.txt", "word " * fit("word ")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llmc", default="target/release/llmc")
    ap.add_argument("--size", type=int, default=1 << 20)
    ap.add_argument("--only")
    ap.add_argument("--max-mb", type=float, default=500)
    ap.add_argument("--max-s", type=float, default=10)
    ap.add_argument("--kill-after", type=float, default=60)
    ap.add_argument("--limit-mb", type=int, default=6000)
    args = ap.parse_args()
    llmc = os.path.abspath(args.llmc)
    failed = 0
    print(f"{'input':<16} {'bytes':>8} {'exit':>4} {'seconds':>8} {'peak MB':>8}  bound")
    for name, text in inputs(args.size):
        if args.only and args.only not in name:
            continue
        d = tempfile.mkdtemp(prefix="llmc-patho-")
        try:
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
            limit = args.limit_mb * 1024 * 1024

            def bound():
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

            # timeout(1) kills llmc itself; GNU time still reports its peak RSS
            r = subprocess.run(
                ["/usr/bin/time", "-f", "%e %M", "timeout", "-s", "KILL", str(args.kill_after),
                 llmc, "index", "-q"],
                cwd=d,
                capture_output=True,
                text=True,
                preexec_fn=bound,
            )
            last = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "0 0"
            parts = last.split()
            try:
                secs, kb = float(parts[0]), float(parts[1])
            except (ValueError, IndexError):
                secs, kb = float("nan"), float("nan")
            mb = kb / 1024
            ok = r.returncode == 0 and secs <= args.max_s and mb <= args.max_mb
            failed += not ok
            print(
                f"{name:<16} {len(text):>8} {r.returncode:>4} {secs:>8.2f} {mb:>8.1f}  "
                f"{'ok' if ok else 'BROKEN'}"
            )
        finally:
            shutil.rmtree(d, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

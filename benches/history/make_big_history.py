#!/usr/bin/env python3
"""Builds a large git history from real source files, for `cargo bench --bench history`.

usage: make_big_history.py SRC_DIR DEST [COMMITS]

The first commits add SRC_DIR's Rust files one per commit (real code); the rest edit
them: most change one line, some add a small function, every 97th renames a file. Authors
and dates are fixed (one hour apart from 2020-01-01), so the history is the same on every
run. Written with `git fast-import`, then checked out.
"""
import os
import subprocess
import sys


def main():
    src, dest = sys.argv[1], sys.argv[2]
    total = int(sys.argv[3]) if len(sys.argv) > 3 else 2400
    paths = []
    for d, _, names in os.walk(src):
        for n in names:
            if n.endswith(".rs"):
                paths.append(os.path.relpath(os.path.join(d, n), src))
    paths.sort()
    files = {}
    for p in paths:
        with open(os.path.join(src, p), "rb") as f:
            files[p] = f.read().decode("utf-8", "replace").split("\n")
    os.makedirs(dest, exist_ok=True)
    subprocess.run(["git", "init", "-q", "-b", "main", dest], check=True)
    fi = subprocess.Popen(["git", "fast-import", "--quiet"], cwd=dest, stdin=subprocess.PIPE)
    out = fi.stdin
    authors = ["Ada", "Brian", "Chen", "Dana", "Emeka"]
    live = []  # paths in the tree, in order of addition
    seed = 12345

    def rnd(n):
        nonlocal seed
        seed = (seed * 1103515245 + 12345) % (1 << 31)
        return seed % n

    def data(b):
        out.write(b"data %d\n" % len(b))
        out.write(b)
        out.write(b"\n")

    for i in range(total):
        who = authors[i % len(authors)]
        ts = 1577836800 + i * 3600
        ops = []
        if i < len(paths):
            p = paths[i]
            live.append(p)
            ops.append(("M", p))
            msg = "Add %s" % p
        elif i % 97 == 0:
            k = rnd(len(live))
            old = live[k]
            base, ext = os.path.splitext(old)
            new = "%s_r%d%s" % (base, i, ext)
            files[new] = files.pop(old)
            live[k] = new
            ops.append(("R", old, new))
            msg = "Rename %s to %s" % (old, new)
        else:
            p = live[rnd(len(live))]
            lines = files[p]
            if i % 5 == 0:
                at = rnd(len(lines) + 1)
                lines[at:at] = ["", "fn tweak_%d() -> u32 {" % i, "    %d" % i, "}"]
                msg = "Add tweak_%d to %s" % (i, p)
            else:
                at = rnd(len(lines))
                lines[at] = lines[at] + " // rev %d" % i
                msg = "Tweak line %d of %s" % (at + 1, p)
            ops.append(("M", p))
        out.write(b"commit refs/heads/main\n")
        out.write(b"mark :%d\n" % (i + 1))
        ident = ("%s <%s@example.com> %d +0000\n" % (who, who.lower(), ts)).encode()
        out.write(b"author " + ident)
        out.write(b"committer " + ident)
        data(msg.encode())
        if i > 0:
            out.write(b"from :%d\n" % i)
        for op in ops:
            if op[0] == "M":
                out.write(("M 100644 inline %s\n" % op[1]).encode())
                data("\n".join(files[op[1]]).encode())
            else:
                out.write(("R %s %s\n" % (op[1], op[2])).encode())
    out.close()
    if fi.wait() != 0:
        sys.exit("git fast-import failed")
    subprocess.run(["git", "checkout", "-q", "-f", "main"], cwd=dest, check=True)


if __name__ == "__main__":
    main()

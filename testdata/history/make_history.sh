#!/bin/sh
# Builds the fixture history that tests/it/history.rs checks `llmc log` against, in the
# directory given as $1 (created; must not exist or be empty). Every author, date and
# content is fixed, so the commits (and their hashes) are the same on every machine.
#
#  1 2024-01-01 Alice  add calc/ops.py (add, sub) and util.py (clamp, lerp)
#  2 2024-01-02 Bob    one commit touching two functions in one file (add, sub)
#  3 2024-01-03 Alice  rename calc/ops.py -> calc/arith.py (content unchanged)
#  4 2024-01-04 Carol  move clamp from util.py to calc/arith.py
#  5 2024-01-05 Bob    a bad change to add ...
#  6 2024-01-06 Alice  ... reverted by git revert
#  7 2024-01-07 Carol  on branch feature: add mul
#  8 2024-01-08 Bob    on main: change sub
#  9 2024-01-09 Alice  merge feature into main (no conflict)
# 10 2024-01-10 Bob    delete util.py
# 11 2024-01-11 Carol  add util.py again, with a different lerp
# 12 2024-01-12 Bob    on branch hotfix: lerp clamps t
# 13 2024-01-13 Carol  on main: lerp checks t, conflicting with hotfix
# 14 2024-01-14 Alice  merge hotfix, resolving the conflict in lerp by hand
set -eu
dest=$1
mkdir -p "$dest"
cd "$dest"

unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME="$PWD"
git init -q -b main .
git config commit.gpgsign false

who() { # NAME DAY
    export GIT_AUTHOR_NAME="$1" GIT_COMMITTER_NAME="$1"
    email=$(printf '%s' "$1" | tr 'A-Z' 'a-z')@example.com
    export GIT_AUTHOR_EMAIL="$email" GIT_COMMITTER_EMAIL="$email"
    export GIT_AUTHOR_DATE="2024-01-$2T12:00:00+00:00" GIT_COMMITTER_DATE="2024-01-$2T12:00:00+00:00"
}
commit() { git add -A && git commit -q -m "$1"; }

who Alice 01
mkdir -p calc
cat > calc/ops.py <<'PY'
"""Arithmetic."""


def add(a, b):
    return a + b


def sub(a, b):
    return a - b
PY
cat > util.py <<'PY'
def clamp(x, lo, hi):
    return max(lo, min(x, hi))


def lerp(a, b, t):
    return a + (b - a) * t
PY
commit "Add calculator and helpers"

who Bob 02
cat > calc/ops.py <<'PY'
"""Arithmetic."""


def add(a, b):
    """Sum of a and b."""
    return a + b


def sub(a, b):
    """Difference of a and b."""
    return a - b
PY
commit "Document add and sub"

who Alice 03
git mv calc/ops.py calc/arith.py
git commit -q -m "Rename ops to arith"

who Carol 04
cat > util.py <<'PY'
def lerp(a, b, t):
    return a + (b - a) * t
PY
cat >> calc/arith.py <<'PY'


def clamp(x, lo, hi):
    return max(lo, min(x, hi))
PY
commit "Move clamp into calc"

who Bob 05
sed 's/    return a + b/    return a + b + 1/' calc/arith.py > calc/arith.tmp
mv calc/arith.tmp calc/arith.py
commit "Make add off by one"

who Alice 06
git revert --no-edit HEAD > /dev/null

who Carol 07
git checkout -q -b feature
cat >> calc/arith.py <<'PY'


def mul(a, b):
    return a * b
PY
commit "Add mul"

who Bob 08
git checkout -q main
sed 's/    return a - b/    return b - a if a < b else a - b/' calc/arith.py > calc/arith.tmp
mv calc/arith.tmp calc/arith.py
commit "Handle negative differences in sub"

who Alice 09
git merge -q --no-ff -m "Merge branch feature" feature > /dev/null

who Bob 10
git rm -q util.py
git commit -q -m "Drop util"

who Carol 11
cat > util.py <<'PY'
def lerp(a, b, t):
    """Linear interpolation."""
    return a * (1 - t) + b * t
PY
commit "Bring util back with a stable lerp"

who Bob 12
git checkout -q -b hotfix
cat > util.py <<'PY'
def lerp(a, b, t):
    """Linear interpolation."""
    t = max(0.0, min(t, 1.0))
    return a * (1 - t) + b * t
PY
commit "Clamp t in lerp"

who Carol 13
git checkout -q main
cat > util.py <<'PY'
def lerp(a, b, t):
    """Linear interpolation."""
    assert 0.0 <= t <= 1.0
    return a * (1 - t) + b * t
PY
commit "Check t in lerp"

who Alice 14
git merge -q hotfix > /dev/null 2>&1 || true
cat > util.py <<'PY'
def lerp(a, b, t):
    """Linear interpolation."""
    if not 0.0 <= t <= 1.0:
        t = max(0.0, min(t, 1.0))
    return a * (1 - t) + b * t
PY
git add util.py
git commit -q --no-edit -m "Merge branch hotfix"

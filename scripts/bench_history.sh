#!/usr/bin/env bash
# Time to the first structural answer and to the full history, on fresh clones, for two
# llmc binaries side by side in one run (issue #21): the medians of N runs per binary,
# each run on a fresh clone with no index.
#
#   scripts/bench_history.sh [--runs N] BEFORE_BIN AFTER_BIN REPO=QUESTION...
#
#   REPO=QUESTION   a local repository (cloned fresh for every run, `git clone -q`) and the
#                   structural question asked of it, e.g.
#                   /work/real/click='who calls make_context?'
#
# Per run and binary: `llmc ask --no-llm QUESTION` on the fresh clone (no index) is the
# first answer; then the index's `history_remaining` is polled every 0.2 s until the
# history is complete (it is 0, read by the background `llmc index --history-only`
# the ask started; a binary whose ask reads the whole history first is complete at once).
# Prints one table row per repository: commits, and per binary the median seconds to the
# first answer and to the full history. Run it on a machine as idle as you can get.
#
# The 100k-commit measure (minutes to full history, peak RSS, resumed after a SIGKILL) is
# scripts/bench_history.sh --long BIN REPO [KILL_AFTER_S]: `llmc index` on a fresh clone,
# then `llmc index --history-only` under /usr/bin/time -v, killed after KILL_AFTER_S
# seconds (default 60) and run again to the end under /usr/bin/time -v.
set -u

runs=3
if [ "${1:-}" = "--runs" ]; then
    runs=${2:?--runs needs a number}
    shift 2
fi

scratch=$(mktemp -d /tmp/bench_history.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

now() { date +%s.%N; }
# A fresh clone of $1 at $2. A snapshot missing a few large objects (the fetch tool's
# mirrors leave out their largest files) gets each replaced by an empty blob
# (refs/replace), so checkout and `git log -p` work; the replacement is noted on stderr.
fresh_clone() {
    git clone -q --no-checkout "$1" "$2"
    local missing
    missing=$(git -C "$1" rev-list --objects --missing=print HEAD 2>/dev/null | sed -n 's/^?//p')
    if [ -n "$missing" ]; then
        local empty
        empty=$(git -C "$2" hash-object -w --stdin </dev/null)
        for m in $missing; do
            git -C "$2" update-ref "refs/replace/$m" "$empty"
        done
        echo "$(basename "$1"): $(echo "$missing" | wc -l) missing object(s) replaced by an empty blob" >&2
    fi
    git -C "$2" checkout -q
}
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }
# Commits the index of $1 has not read yet (0 when whole; 1 while there is no index),
# read from its meta table (a `llmc status` would walk the tree and slow the run measured).
remaining() {
    python3 - "$1/.llmc/index.db" <<'PY' 2>/dev/null || echo 1
import sqlite3, sys
c = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
row = c.execute("SELECT value FROM meta WHERE key = 'history_remaining'").fetchone()
print(int(row[0]) if row else 0)
PY
}

if [ "${1:-}" = "--long" ]; then
    bin=${2:?--long BIN REPO}
    repo=${3:?--long BIN REPO}
    kill_after=${4:-60}
    dest=$scratch/long
    fresh_clone "$repo" "$dest"
    echo "commits: $(git -C "$dest" rev-list --count HEAD)"
    t0=$(now)
    LLMCTEST_HISTORY_BACKGROUND=0 /usr/bin/time -f 'index: %e s wall, %M KiB max RSS' "$bin" -q -C "$dest" index
    "$bin" -q -C "$dest" index --history-only &
    pid=$!
    sleep "$kill_after"
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    echo "killed after ${kill_after} s: $("$bin" -q -C "$dest" status --json | python3 -c 'import json,sys; h=json.load(sys.stdin)["history"]; print(h["commits"], "held,", h.get("remaining"), "left")')"
    /usr/bin/time -f 'history-only (resumed): %e s wall, %M KiB max RSS' "$bin" -q -C "$dest" index --history-only
    t1=$(now)
    echo "total wall from the first index to the full history (incl. ${kill_after} s killed run): $(echo "$t1 - $t0" | bc) s"
    echo "full: $("$bin" -q -C "$dest" status --json | python3 -c 'import json,sys; h=json.load(sys.stdin)["history"]; print(h["commits"], "commits,", h.get("remaining"), "left")')"
    exit 0
fi

before=${1:?BEFORE_BIN}
after=${2:?AFTER_BIN}
shift 2
printf '| repository | commits | before: first answer | before: full history | after: first answer | after: full history |\n'
printf '| --- | --- | --- | --- | --- | --- |\n'
for spec in "$@"; do
    repo=${spec%%=*}
    question=${spec#*=}
    commits=$(git -C "$repo" rev-list --count HEAD)
    for which in before after; do
        bin=$before
        [ "$which" = after ] && bin=$after
        : >"$scratch/$which.first"
        : >"$scratch/$which.full"
    done
    for run in $(seq "$runs"); do
        for which in before after; do
            bin=$before
            [ "$which" = after ] && bin=$after
            dest=$scratch/clone
            rm -rf "$dest"
            fresh_clone "$repo" "$dest" 2>/dev/null
            sync
            t0=$(now)
            "$bin" -q -C "$dest" ask --no-llm "$question" >/dev/null 2>&1
            t1=$(now)
            while [ "$(remaining "$dest")" != 0 ]; do sleep 0.2; done
            t2=$(now)
            # Let a background run that is finishing exit before the clone goes.
            while pgrep -f "$dest" >/dev/null 2>&1 && [ "$(echo "$(now) - $t2 < 30" | bc)" = 1 ]; do sleep 0.1; done
            echo "$t1 - $t0" | bc >>"$scratch/$which.first"
            echo "$t2 - $t0" | bc >>"$scratch/$which.full"
            echo "run $run $which $(basename "$repo"): first $(echo "$t1 - $t0" | bc) s, full $(echo "$t2 - $t0" | bc) s" >&2
        done
    done
    printf '| %s | %s | %s s | %s s | %s s | %s s |\n' "$(basename "$repo")" "$commits" \
        "$(median <"$scratch/before.first")" "$(median <"$scratch/before.full")" \
        "$(median <"$scratch/after.first")" "$(median <"$scratch/after.full")"
done

#!/usr/bin/env bash
# Runs every llmc benchmark in one go and writes their output, the machine they ran on and
# this command line into the raw part of BENCHMARKS.md, below its marker line (the part
# above it is written by hand and kept), or into --out FILE.
#
#   scripts/bench.sh [--tree DIR] [--queries N] [--bench N] [--out FILE] [--dry-run]
#
#   --tree DIR    run the benches that take a tree (index, graph, search, ask, mcp) on DIR
#                 instead of their defaults (the Python standard library, the cargo
#                 registry sources); the history bench always builds its own history
#   --queries N   queries for scripts/csn_eval.py (default 300)
#   --bench N     whole-process runs per mode for scripts/csn_eval.py (default 30)
#   --out FILE    where to write (default BENCHMARKS.md)
#   --dry-run     print the commands and write FILE without running them
#
# The benches: cargo bench --bench index, graph, history, search, ask and mcp (graph and
# ask time ripgrep next to llmc on the same tree; mcp times a warm `llmc mcp` next to
# whole processes and checks its budgets on a clone of this repository), then the
# search-quality check
# `python3 scripts/csn_eval.py --queries 300 --bench 30` on the release binary. Run it on
# an idle machine: the numbers are whole-process wall-clock medians. A bench that fails is
# recorded with its exit code and the run goes on; the script exits 1 if any failed.
set -u

cd "$(dirname "$0")/.."

tree=""
queries=300
runs=30
out=BENCHMARKS.md
dry=0
cmdline="scripts/bench.sh${*:+ $*}"
while [ $# -gt 0 ]; do
    case "$1" in
    --tree) tree=${2:?--tree needs a directory}; shift 2 ;;
    --queries) queries=${2:?--queries needs a number}; shift 2 ;;
    --bench) runs=${2:?--bench needs a number}; shift 2 ;;
    --out) out=${2:?--out needs a file}; shift 2 ;;
    --dry-run) dry=1; shift ;;
    -h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench.sh: unknown argument: $1 (see --help)" >&2; exit 2 ;;
    esac
done
if [ -n "$tree" ] && [ ! -d "$tree" ]; then
    echo "bench.sh: --tree $tree is not a directory" >&2
    exit 2
fi
case "$queries$runs" in
*[!0-9]*) echo "bench.sh: --queries and --bench take numbers" >&2; exit 2 ;;
esac
for tool in cargo python3 rg; do
    command -v "$tool" >/dev/null || { echo "bench.sh: $tool is not installed" >&2; exit 2; }
done

tree_args=()
[ -n "$tree" ] && tree_args=(-- "$(cd "$tree" && pwd)")

# name|command: one line per benchmark, in the order they run.
benches=(
    "index|cargo bench -q --bench index ${tree_args[*]}"
    "graph|cargo bench -q --bench graph ${tree_args[*]}"
    "history|cargo bench -q --bench history"
    "search|cargo bench -q --bench search ${tree_args[*]}"
    "ask|cargo bench -q --bench ask ${tree_args[*]}"
    "mcp|cargo bench -q --bench mcp ${tree_args[*]}"
    "search quality|cargo build --release --quiet && python3 scripts/csn_eval.py --llmc ${CARGO_TARGET_DIR:-target}/release/llmc --queries $queries --bench $runs"
)

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
failed=0

# The hand-written part of the file, above the marker, is kept as it is.
marker='<!-- Everything below is written by scripts/bench.sh; edit above this line only. -->'
{
    if [ -f "$out" ] && grep -qxF "$marker" "$out"; then
        awk -v m="$marker" '{ print } $0 == m { exit }' "$out"
    else
        echo "$marker"
    fi
    echo
    echo "# Raw output of \`scripts/bench.sh\`"
    echo
    echo "Each section gives the command and its output as printed; rerun it on an idle machine."
    echo
    echo "Command line: \`$cmdline\`"
    echo
    echo "## Machine"
    echo
    echo '```'
    echo "date:  $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "nproc: $(nproc)"
    echo "cpu:   $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
    echo "rustc: $(rustc -V)"
    echo "rg:    $(rg --version | sed -n 1p)"
    echo "git:   $(git rev-parse --short HEAD 2>/dev/null || echo 'not a git checkout')$(git diff --quiet HEAD 2>/dev/null || echo ' (with local changes)')"
    echo
    free -g
    echo '```'
} >"$tmp"

for entry in "${benches[@]}"; do
    name=${entry%%|*}
    cmd=${entry#*|}
    cmd=${cmd% }
    echo "bench.sh: $name: $cmd" >&2
    {
        echo
        echo "## $name"
        echo
        echo "\`$cmd\`"
        echo
        echo '```'
    } >>"$tmp"
    if [ "$dry" = 1 ]; then
        echo "(dry run: not run)" >>"$tmp"
        status=0
    else
        start=$(date +%s)
        bash -c "$cmd" 2>&1 | tee -a "$tmp"
        status=${PIPESTATUS[0]}
        echo "(exit $status, $(($(date +%s) - start)) s)" >>"$tmp"
    fi
    echo '```' >>"$tmp"
    if [ "$status" != 0 ]; then
        failed=1
        echo "bench.sh: $name failed (exit $status)" >&2
    fi
done

cp "$tmp" "$out"
echo "bench.sh: wrote $out" >&2
exit "$failed"

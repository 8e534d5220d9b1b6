#!/usr/bin/env bash
# What building llmc costs a newcomer, per revision: `cargo install --locked --path .` time,
# the installed binary's size (and stripped), the install's build files, then `cargo test`
# time (build and run) and the size of `target/` it leaves. Each revision is measured on a
# fresh clone with an empty target directory, one after the other: run it on an idle
# machine. The crates must already be downloaded (`cargo fetch`), as they are after any
# build here.
#
#   scripts/build_cost.sh [--no-test] [REV...]     (default REV: HEAD)
#
# Prints one line per measure: `REV MEASURE VALUE`.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
run_tests=1
revs=()
for a in "$@"; do
    case "$a" in
    --no-test) run_tests=0 ;;
    -h | --help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) revs+=("$a") ;;
    esac
done
[ ${#revs[@]} -eq 0 ] && revs=(HEAD)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset CARGO_TARGET_DIR

seconds() { # LOG command...: runs the command with its output in LOG, prints its wall time
    local log=$1 s e status=0
    shift
    s=$(date +%s.%N)
    "$@" >"$log" 2>&1 || status=$?
    e=$(date +%s.%N)
    echo "$e - $s" | bc
    return "$status"
}

for rev in "${revs[@]}"; do
    dir="$work/$(echo "$rev" | tr -c 'A-Za-z0-9.\n-' '_')"
    git clone -q "$repo" "$dir"
    git -C "$dir" checkout -q "$(git -C "$repo" rev-parse "$rev")"
    cd "$dir"
    t=$(seconds "$dir/install.log" cargo install --locked --quiet --path . --root "$dir/inst")
    echo "$rev install_s $t"
    echo "$rev binary_bytes $(stat -c %s "$dir/inst/bin/llmc")"
    cp "$dir/inst/bin/llmc" "$dir/stripped" && strip "$dir/stripped"
    echo "$rev stripped_bytes $(stat -c %s "$dir/stripped")"
    echo "$rev install_target_bytes $(du -sb "$dir/target" | cut -f1)"
    rm -rf "$dir/target"
    if [ "$run_tests" = 1 ]; then
        t=$(seconds "$dir/test.log" cargo test --quiet) || {
            echo "$rev cargo test failed: see the log" >&2
            tail -20 "$dir/test.log" >&2
        }
        echo "$rev test_s $t"
        echo "$rev test_target_bytes $(du -sb "$dir/target" | cut -f1)"
    fi
    cd "$repo"
    rm -rf "$dir"
done

#!/usr/bin/env bash
# Cold-indexes a copy of each TREE with this checkout's release build and prints the md5 of its
# `Store::dump` (examples/dump.rs): run it before and after a change that must not change what
# an index holds, and compare the sums.
#   scripts/dump_compare.sh [TREE...]   (default: Python's stdlib and the cargo registry sources)
# Dumps are kept in ${DUMP_OUT:-/tmp/llmc-dumps}/<name>.dump for diffing.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin llmc --example dump
bin=target/release/llmc
dump=target/release/examples/dump
out=${DUMP_OUT:-/tmp/llmc-dumps}
mkdir -p "$out"
if [ $# -eq 0 ]; then
  set -- "$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')" \
         "$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/ | head -1)"
fi
for tree in "$@"; do
  name=$(basename "$tree")
  work=$(mktemp -d)
  cp -r "$tree" "$work/$name"
  # history is off: these trees are not repositories, and the dump must not depend on the clock
  git -C "$work/$name" init -q
  start=$(date +%s.%N)
  "$bin" -C "$work/$name" index --quiet >/dev/null
  end=$(date +%s.%N)
  "$dump" "$work/$name" > "$out/$name.dump"
  printf '%s  %s  (%s lines, index %.1f s)\n' "$(md5sum < "$out/$name.dump" | cut -d' ' -f1)" \
    "$name" "$(wc -l < "$out/$name.dump")" "$(echo "$end - $start" | bc)"
  rm -rf "$work"
done

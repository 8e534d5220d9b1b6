#!/usr/bin/env bash
# Callers with precise edges from SCIP indexes (BENCHMARKS.md, "Precise edges from SCIP"):
# copies the checkouts to a scratch directory (never writing in them), runs scip-python
# and scip-typescript there, indexes each copy with llmc twice (heuristic only, then with
# the SCIP index named in its llmc.toml) and scores both with graph_callers_score.py.
#
#   scripts/truth/scip_callers.sh [--llmc BIN] [--real DIR] [--work DIR] [REPO ...]
#
# REPO is among click, httpx (Python) and ky, immer (TypeScript); all four by default.
# The indexers come from PATH or <target>/scip-indexers (installed by .ci/run).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
top="$(cd "$here/../.." && pwd)"
llmc="$top/target/release/llmc"
real=/work/real
work=/tmp/scipreal
repos=()
while [ $# -gt 0 ]; do
    case "$1" in
        --llmc) llmc="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
        --real) real="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        *) repos+=("$1"); shift ;;
    esac
done
[ ${#repos[@]} -gt 0 ] || repos=(click httpx ky immer)
PATH="${CARGO_TARGET_DIR:-$top/target}/scip-indexers/node_modules/.bin:$PATH"
mkdir -p "$work"
echo '[]' > "$work/env.json"
pairs=()
for r in "${repos[@]}"; do
    rm -rf "${work:?}/$r"
    cp -r "$real/$r" "$work/$r"
    rm -rf "$work/$r/.llmc" "$work/$r/llmc.toml"
    case "$r" in
        click|httpx)
            /usr/bin/time -f "$r: scip-python %e s" scip-python index --quiet --cwd "$work/$r" \
                --project-name "$r" --environment "$work/env.json" --output "$work/$r.scip"
            ;;
        ky|immer)
            # The repositories' own tsconfig.json cover the library only; the reference
            # sets count the tests' calls too.
            if [ "$r" = ky ]; then
                (cd "$work/ky" && npm install --no-save --ignore-scripts --no-audit --no-fund \
                    --silent @sindresorhus/tsconfig)
                python3 - "$work/ky/tsconfig.json" <<'EOF'
import json, sys
c = json.load(open(sys.argv[1])); c["include"] = ["source", "test"]
json.dump(c, open(sys.argv[1], "w"), indent=2)
EOF
            else
                python3 - "$work/immer/tsconfig.json" <<'EOF'
import json, sys
c = json.load(open(sys.argv[1])); c.pop("files", None)
c["include"] = ["src", "__tests__", "perf-testing", "__performance_tests__"]
json.dump(c, open(sys.argv[1], "w"), indent=2)
EOF
            fi
            /usr/bin/time -f "$r: scip-typescript %e s" scip-typescript index --no-progress-bar \
                --cwd "$work/$r" --output "$work/$r.scip"
            ;;
        *) echo "unknown repository $r" >&2; exit 2 ;;
    esac
    pairs+=("$work/$r" "$top/testdata/real/callers/$r.jsonl")
done
for r in "${repos[@]}"; do "$llmc" -C "$work/$r" index -q; done
echo "heuristic only:"
python3 "$here/graph_callers_score.py" --llmc "$llmc" "${pairs[@]}"
for r in "${repos[@]}"; do
    printf '[graph]\nscip = ["../%s.scip"]\n' "$r" > "$work/$r/llmc.toml"
    "$llmc" -C "$work/$r" index --json > "$work/$r.index.json"
    python3 -c "import json,sys; p=json.load(open(sys.argv[1]))['precise']; \
print(f\"$r: SCIP pass {p['seconds']:.3f} s for {p['documents']} documents\")" "$work/$r.index.json"
done
echo "with precise edges:"
python3 "$here/graph_callers_score.py" --by-resolution --llmc "$llmc" "${pairs[@]}"

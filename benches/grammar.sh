#!/usr/bin/env bash
# The plot grammar's cost (issue 7, Proof). Not a test: prints figures for
# a person to read.
#
#   benches/grammar.sh [--runs N]
#
# 1. Library time on one core (benches/grammar.rs): a 5,000-row spec with
#    three marks (two lines and a rule) validated and drawn at 100 columns;
#    target under 5 ms (the median, JSON parsing shown apart).
# 2. Whole process: `viz-render` drawing that spec, beside `viz-render`
#    drawing a 20-row bar chart (the smallest thing it does), alternating
#    runs, with the ratio and peak memory (benches/compare.py).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${BENCH_DIR:-$ROOT/target/bench}
mkdir -p "$WORK"

# One core, as the target says; taskset is in util-linux.
PIN=()
if command -v taskset >/dev/null 2>&1; then
  PIN=(taskset -c 0)
fi

cd "$ROOT"
cargo build --release --quiet --bin viz-parse --bin viz-render
echo "\$ cargo bench --bench grammar (pinned to one core: ${PIN[*]:-no taskset})" >&2
BENCH=$("$ROOT/benches/bench-exe.sh" grammar)
"${PIN[@]}" "$BENCH"

"$BENCH" --emit > "$WORK/grammar5k.jsonl"
awk 'BEGIN { srand(2); print "model,secs";
  for (i = 1; i <= 20; i++) printf "Model %02d,%.1f\n", i, 2.5 + rand() * 4 }' > "$WORK/bar20.csv"
target/release/viz-parse --chart bar "$WORK/bar20.csv" > "$WORK/bar20.jsonl"

BIN=$ROOT/target/release
CASES=$WORK/grammar-cases.json
cat > "$CASES" <<JSON
[
  {"name": "ui chart, 5,000 rows, 3 marks",
   "ours": "$BIN/viz-render --width 100 --color never $WORK/grammar5k.jsonl",
   "peer": "$BIN/viz-render --width 100 --color never $WORK/bar20.jsonl",
   "peer_name": "viz-render, 20-row bar chart", "runs": 21}
]
JSON
echo "\$ benches/compare.py $CASES $*" >&2
python3 "$ROOT/benches/compare.py" "$CASES" "$@"

#!/usr/bin/env bash
# A heatmap of 1M rows (two categories, a count per cell) beside xan's
# (issue 36): wall time and peak memory on the same generated file in the
# same run, with the ours/peer ratio; and the same at 4M rows, whose
# memory must be the 1M run's (flat in the rows: the cells are counted as
# the rows stream by, 24 x 7 of them here).
# Not a test: prints figures for a person to read.
#
#   benches/heatmap.sh [--runs N]   (default: 7 alternating runs at 1M, 3 at 4M)
#
# Target (issue 36): at most 0.5x `xan heatmap` whole-process time. xan
# draws a heatmap of a matrix (a row per category, a column per other
# category), so its pipeline first counts the pairs and pivots them:
# `xan select hour,day | xan pivot day 'count()' | xan heatmap`. xan
# 0.61.0 is installed on demand under target/peers (cargo install
# --locked: several minutes on a small machine, once); nothing outside the
# checkout is touched. Peak memory is the largest single process of each
# pipeline (benches/compare.py).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${BENCH_DIR:-$ROOT/target/bench}
mkdir -p "$WORK"
export PATH="$HOME/.cargo/bin:$PATH"

PEERS=$ROOT/target/peers
export PATH="$PEERS/bin:$PATH"
if [ ! -x "$PEERS/bin/xan" ]; then
  echo "installing xan@0.61.0 (the peer) with cargo install --locked into $PEERS" >&2
  cargo install --locked --quiet --root "$PEERS" --target-dir "$PEERS/build" xan@0.61.0 >&2
fi

(cd "$ROOT" && cargo build --release --quiet --bin viz-parse --bin viz-render)
BIN=$ROOT/target/release

# N rows of an event log: id, the hour (0-23), the day of the week, a value.
gen() {
  local n=$1 out=$2
  [ -s "$out" ] && return
  awk -v n="$n" 'BEGIN { srand(36); split("Mon Tue Wed Thu Fri Sat Sun", d, " ");
    print "id,hour,day,value";
    for (i = 0; i < n; i++) printf "%d,%d,%s,%.2f\n", i, int(rand() * 24), d[1 + int(rand() * 7)], rand() * 100 }' > "$out"
}
gen 1000000 "$WORK/heat1m.csv"
gen 4000000 "$WORK/heat4m.csv"
for f in heat1m.csv heat4m.csv; do
  printf '%-11s %9d lines %7.1f MB\n' "$f" "$(wc -l < "$WORK/$f")" \
    "$(awk -v b="$(wc -c < "$WORK/$f")" 'BEGIN { print b / 1e6 }')" >&2
done

ours() { echo "$BIN/viz-parse --chart heatmap -x day -s hour $WORK/$1 | $BIN/viz-render --width 80 --color always"; }
peer() { echo "xan select hour,day $WORK/$1 | xan pivot day 'count()' | xan heatmap --color always"; }

CASES=$WORK/heatmap-cases.json
cat > "$CASES" <<EOF
[
  {"name": "heatmap, 1M rows (hour x day, count)", "ours": "$(ours heat1m.csv)",
   "peer": "$(peer heat1m.csv)", "peer_name": "xan select | xan pivot | xan heatmap",
   "target_ratio": 0.5, "runs": 7},
  {"name": "heatmap, 4M rows (hour x day, count)", "ours": "$(ours heat4m.csv)",
   "peer": "$(peer heat4m.csv)", "peer_name": "xan select | xan pivot | xan heatmap",
   "target_ratio": 0.5, "runs": 3}
]
EOF

RESULTS=$WORK/heatmap-results.json
echo "\$ benches/compare.py $CASES $* --json $RESULTS" >&2
python3 "$ROOT/benches/compare.py" "$CASES" "$@" --json "$RESULTS"

# Flat memory: the 4M run's peak beside the 1M run's.
python3 - "$RESULTS" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
m1, m4 = r[0]["ours_mib"], r[1]["ours_mib"]
print(f"memory 1M -> 4M rows: {m1:.1f} -> {m4:.1f} MiB ({m4 / m1:.2f}x)")
PY

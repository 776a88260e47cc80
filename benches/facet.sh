#!/usr/bin/env bash
# Small multiples (issue 36): `viz-parse --facet` | viz-render over 1M rows
# faceted by a 6-valued field, beside `xan plot -S` (xan's small multiples),
# wall time and peak memory in the same run (benches/compare.py), and the
# same facet over 4M rows to show memory flat in the rows.
# Not a test: prints figures for a person to read.
#
#   benches/facet.sh [--runs N]   (default: 5 alternating runs of each case)
#
# Target (issue 36): at most 0.5x `xan plot -S` whole-process time, memory
# flat in the rows. xan is installed on demand from crates.io under
# target/peers (as benches/viz.sh does), nothing outside the checkout.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${BENCH_DIR:-$ROOT/target/bench}
mkdir -p "$WORK"
export PATH="$HOME/.cargo/bin:$PATH"

# xan pinned as benches/viz.sh pins it, under target/peers.
PEERS=$ROOT/target/peers
export PATH="$PEERS/bin:$PATH"
[ -x "$PEERS/bin/xan" ] || cargo install --locked --quiet --root "$PEERS" \
  --target-dir "$PEERS/build" xan@0.61.0 >&2

(cd "$ROOT" && cargo build --release --quiet --bin viz-parse --bin viz-render)
BIN=$ROOT/target/release

# N rows of x,y,grp: six groups, each a noisy sine of its own amplitude.
gen_facet() {
  local n=$1 out=$2
  if [ ! -s "$out" ]; then
    echo "generating $n rows into $out" >&2
    awk -v n="$n" 'BEGIN { srand(17); print "x,y,grp";
      split("north south east west centre islands", g, " ");
      for (i = 0; i < n; i++) { k = i % 6 + 1;
        printf "%d,%.3f,%s\n", i, (100 * k) * sin(i * 6.283185307 * 12 / n) + rand() * 40, g[k] } }' > "$out"
  fi
}
gen_facet 1000000 "$WORK/facet1m.csv"
gen_facet 4000000 "$WORK/facet4m.csv"
for f in facet1m.csv facet4m.csv; do
  printf '%-12s %9d lines %7.1f MB\n' "$f" "$(wc -l < "$WORK/$f")" \
    "$(awk -v b="$(wc -c < "$WORK/$f")" 'BEGIN { print b / 1e6 }')" >&2
done

ours() { echo "$BIN/viz-parse --chart $1 -x x -y y --facet grp --facet-columns 3 $WORK/$2 | $BIN/viz-render --width 120 --color never"; }
xan_sm() { echo "xan plot $1 x y -c grp -S 3 $WORK/$2 --cols 120 --rows 30 --color never"; }

CASES=$WORK/facet-cases.json
cat > "$CASES" <<EOF
[
  {"name": "facet lines, 1M rows, 6 panels", "ours": "$(ours line facet1m.csv)",
   "peer": "$(xan_sm -L facet1m.csv)", "peer_name": "xan plot -L -S 3",
   "target_ratio": 0.5, "runs": 5},
  {"name": "facet scatter, 1M rows, 6 panels", "ours": "$(ours point facet1m.csv)",
   "peer": "$(xan_sm "" facet1m.csv)", "peer_name": "xan plot -S 3",
   "target_ratio": 0.5, "runs": 5},
  {"name": "facet lines, 4M rows, 6 panels", "ours": "$(ours line facet4m.csv)",
   "peer": "$(xan_sm -L facet4m.csv)", "peer_name": "xan plot -L -S 3",
   "target_ratio": 0.5, "runs": 3}
]
EOF

echo "\$ benches/compare.py $CASES $* " >&2
python3 "$ROOT/benches/compare.py" "$CASES" "$@"

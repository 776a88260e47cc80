#!/usr/bin/env bash
# viz-parse | viz-render beside xan, the closest peer (issue 2, Proof):
# wall time and peak memory on the same generated files in the same run,
# with ours/xan ratios. Not a test: prints figures for a person to read.
#
#   benches/viz.sh [--runs N]   (default: 21 alternating runs of each 20-row
#                                case, 7 of the 1M and 3 of the 4M one)
#
# Targets: 20 rows parse+render under 5 ms and 5 MiB; 1,000,000 rows (line,
# two numeric columns, about 16 MB) faster than xan and under 10 MiB peak;
# memory flat as the input grows (the 4,000,000-row file needs about the
# same as the 1M one: O(max points), not O(rows)).
#
# Peak memory is the largest single process of each pipeline (see
# benches/compare.py), so `viz-parse | viz-render` is judged by its larger
# half; wall time covers the whole pipeline, `sh -c` start-up included
# (the driver prints that floor). The 20-row figures are process start-up
# almost entirely, so a busy machine moves them; `perf stat -r 100 sh -c
# '...'` gives a steadier number when in doubt.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${BENCH_DIR:-$ROOT/target/bench}
mkdir -p "$WORK"
export PATH="$HOME/.cargo/bin:$PATH"

if ! command -v xan >/dev/null 2>&1; then
  echo "installing xan (the peer) with cargo install --locked xan" >&2
  cargo install --locked xan >&2
fi

# GNU time gives compare.py honest peak-memory figures (see its docstring).
if [ ! -x /usr/bin/time ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  apt-get install -y time >/dev/null 2>&1 || true
fi

(cd "$ROOT" && cargo build --release --quiet --bin viz-parse --bin viz-render)
BIN=$ROOT/target/release

# 20 labelled bars: model,secs.
if [ ! -s "$WORK/bar20.csv" ]; then
  awk 'BEGIN { srand(2); print "model,secs";
    for (i = 1; i <= 20; i++) printf "Model %02d,%.1f\n", i, 2.5 + rand() * 4 }' > "$WORK/bar20.csv"
fi
# 20 years of a trend: year,value.
if [ ! -s "$WORK/line20.csv" ]; then
  awk 'BEGIN { srand(3); print "year,value";
    for (i = 0; i < 20; i++) printf "%d,%.2f\n", 2005 + i, 100 + i * 3 + rand() * 10 }' > "$WORK/line20.csv"
fi
# N rows of two numeric columns x,y: a noisy sine, 30 periods.
gen_xy() {
  local n=$1 out=$2
  if [ ! -s "$out" ]; then
    echo "generating $n rows into $out" >&2
    awk -v n="$n" 'BEGIN { srand(5); print "x,y";
      for (i = 0; i < n; i++) printf "%d,%.4f\n", i, 1000 * sin(i * 6.283185307 * 30 / n) + rand() * 50 }' > "$out"
  fi
}
gen_xy 1000000 "$WORK/xy1m.csv"
gen_xy 4000000 "$WORK/xy4m.csv"

for f in bar20 line20 xy1m xy4m; do
  printf '%-8s %9d rows %7.1f MB\n' "$f" "$(($(wc -l < "$WORK/$f.csv") - 1))" \
    "$(awk -v b="$(wc -c < "$WORK/$f.csv")" 'BEGIN { print b / 1e6 }')" >&2
done

ours_bar() { echo "$BIN/viz-parse --chart bar $WORK/$1.csv | $BIN/viz-render --width 80 --color never"; }
ours_line() { echo "$BIN/viz-parse --chart line $WORK/$1.csv | $BIN/viz-render --width 80 --color never"; }
peer_line() { echo "xan plot -L x y $WORK/$1.csv --cols 80 --rows 15 --color never"; }

CASES=$WORK/cases.json
cat > "$CASES" <<EOF
[
  {"name": "bar, 20 rows", "ours": "$(ours_bar bar20)",
   "peer": "xan hist -l model -v secs $WORK/bar20.csv --cols 80 --color never",
   "peer_name": "xan hist", "target_ms": 5, "target_mib": 5, "runs": 21},
  {"name": "line, 20 rows", "ours": "$(ours_line line20)",
   "peer": "xan plot -L year value $WORK/line20.csv --cols 80 --rows 15 --color never",
   "peer_name": "xan plot -L", "target_ms": 5, "target_mib": 5, "runs": 21},
  {"name": "line, 1,000,000 rows", "ours": "$(ours_line xy1m)", "peer": "$(peer_line xy1m)",
   "peer_name": "xan plot -L", "target_ratio": 1, "target_mib": 10},
  {"name": "line, 4,000,000 rows", "ours": "$(ours_line xy4m)", "peer": "$(peer_line xy4m)",
   "peer_name": "xan plot -L", "target_ratio": 1, "target_mib": 10, "runs": 3}
]
EOF

echo "\$ benches/compare.py $CASES $*" >&2
python3 "$ROOT/benches/compare.py" "$CASES" "$@"

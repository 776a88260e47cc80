#!/usr/bin/env bash
# viz-parse | viz-render beside xan (the closest peer), lowcharts and
# DuckDB (issues 12 and 22): wall time and peak memory on the same
# generated files in the same run, with ours/peer ratios, and the time per
# million rows from 1M to 10M.
# Not a test: prints figures for a person to read.
#
#   benches/viz.sh [--runs N]   (default: 21 alternating runs of each 20-row
#                                case, 7 of the 1M ones, 3 of 4M and 10M)
#
# Targets (issue 12): 20 rows under 5 ms and 5 MiB; the 1M-row x,y line
# chart (CSV, 16 MB) at most 0.5x xan's `plot` and no slower than lowcharts
# given the same values (its input: one number a line); the same rows as
# JSON lines at most 1.4x our CSV time (issue 22; 1.5x in issue 12); a
# JSON array of 200k and 400k flights (vega-datasets' flights-200k.json
# shape, one line) in at most 16 MiB, beside the same records as JSON
# lines (issue 22: it was read whole, 139 MB); a 1M-row bar chart of the top 30
# at most 0.5x `xan top -l 30 | xan hist`; peak memory under 8 MiB in
# every case and flat from 1M to 10M rows; time linear in the rows (the
# script prints the slope and how far 4M lies from the 1M-10M line).
# Issue 22: a mean by group over 1M rows (20 groups) at most 0.5x `xan
# groupby | xan hist`, and beside `duckdb -c` (the ratio reported; DuckDB
# prints a table, not a chart); a histogram of 1M values at most 0.5x `xan
# bins | xan hist` and lowcharts' `hist`; a scatter of 1M points under 150
# ms and 10 MiB (beside `xan plot`, which draws one).
#
# Peak memory is the largest single process of each pipeline (see
# benches/compare.py), so `viz-parse | viz-render` is judged by its larger
# half; wall time covers the whole pipeline, `sh -c` start-up included
# (the driver prints that floor). The 20-row figures are process start-up
# almost entirely, so a busy machine moves them; `perf stat -r 100 sh -c
# '...'` gives a steadier number when in doubt. For where the time goes,
# `valgrind --tool=callgrind target/release/viz-parse --chart line
# target/bench/xy1m.csv` counts instructions, which a busy machine does not
# move.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${BENCH_DIR:-$ROOT/target/bench}
mkdir -p "$WORK"
export PATH="$HOME/.cargo/bin:$PATH"

# The peers, pinned to versions that build with this repository's rustc,
# installed once under target/ (nothing outside the checkout is touched).
PEERS=$ROOT/target/peers
export PATH="$PEERS/bin:$PATH"
for peer in xan@0.61.0 lowcharts@0.5.8; do
  if [ ! -x "$PEERS/bin/${peer%@*}" ]; then
    echo "installing $peer (a peer) with cargo install --locked into $PEERS" >&2
    cargo install --locked --quiet --root "$PEERS" --target-dir "$PEERS/build" "$peer" >&2
  fi
done
# DuckDB's command line, from PyPI (duckdb-cli), in a venv of its own.
if [ ! -x "$PEERS/py/bin/duckdb" ]; then
  echo "installing duckdb-cli 1.5.6 (a peer) with pip into $PEERS/py" >&2
  python3 -m venv "$PEERS/py" && "$PEERS/py/bin/pip" install -q duckdb-cli==1.5.6 >&2
fi
DUCKDB=$PEERS/py/bin/duckdb

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
gen_xy 10000000 "$WORK/xy10m.csv"
# The same 1M rows as JSON lines, and their y values alone (lowcharts'
# input, and ours for its histogram: one number a line, no header).
if [ ! -s "$WORK/xy1m.jsonl" ]; then
  awk -F, 'NR > 1 { printf "{\"x\":%s,\"y\":%s}\n", $1, $2 }' "$WORK/xy1m.csv" > "$WORK/xy1m.jsonl"
fi
if [ ! -s "$WORK/y1m.txt" ]; then
  awk -F, 'NR > 1 { print $2 }' "$WORK/xy1m.csv" > "$WORK/y1m.txt"
fi
# Flights as vega-datasets has them (flights-200k.json: one line, an array
# of {"delay", "distance", "time"}), 200k and 400k of them, and as JSON lines.
gen_flights() {
  local n=$1 out=$2
  if [ ! -s "$out.jsonl" ]; then
    awk -v n="$n" 'BEGIN { srand(11);
      for (i = 0; i < n; i++) printf "{\"delay\":%d,\"distance\":%d,\"time\":%.1f}\n",
        int(rand() * 200) - 30, 100 + int(rand() * 2400), (i * 24.0) / n }' > "$out.jsonl"
  fi
  if [ ! -s "$out.json" ]; then
    { printf '['; paste -sd, "$out.jsonl" | tr -d '\n'; printf ']'; } > "$out.json"
  fi
}
gen_flights 200000 "$WORK/flights200k"
gen_flights 400000 "$WORK/flights400k"
# 1M labelled values for a top-30 bar chart: name,value.
if [ ! -s "$WORK/bar1m.csv" ]; then
  awk 'BEGIN { srand(7); print "name,value";
    for (i = 0; i < 1000000; i++) printf "item-%07d,%.2f\n", i, rand() * 100000 }' > "$WORK/bar1m.csv"
fi

# 1M rows of 20 groups for a mean by group (issue 22): grp,value.
if [ ! -s "$WORK/grp1m.csv" ]; then
  awk 'BEGIN { srand(11); print "grp,value";
    for (i = 0; i < 1000000; i++) printf "g%02d,%.2f\n", int(rand() * 20), rand() * 1000 }' > "$WORK/grp1m.csv"
fi
# 1M points of a cloud, for a scatter: x,y (x not in order).
if [ ! -s "$WORK/pts1m.csv" ]; then
  awk 'BEGIN { srand(13); print "x,y";
    for (i = 0; i < 1000000; i++) { u = rand() * 100; printf "%.3f,%.3f\n", u, u * 0.5 + (rand() + rand() + rand()) * 20 } }' > "$WORK/pts1m.csv"
fi

for f in bar20.csv line20.csv xy1m.csv xy1m.jsonl y1m.txt bar1m.csv grp1m.csv pts1m.csv xy4m.csv xy10m.csv \
  flights200k.json flights400k.json; do
  printf '%-11s %9d lines %7.1f MB\n' "$f" "$(wc -l < "$WORK/$f")" \
    "$(awk -v b="$(wc -c < "$WORK/$f")" 'BEGIN { print b / 1e6 }')" >&2
done

ours_bar() { echo "$BIN/viz-parse --chart bar $WORK/$1 | $BIN/viz-render --width 80 --color never"; }
ours_line() { echo "$BIN/viz-parse --chart line $WORK/$1 | $BIN/viz-render --width 80 --color never"; }
ours_auto() { echo "$BIN/viz-parse $WORK/$1 | $BIN/viz-render --width 80 --color never"; }
xan_line() { echo "xan plot -L x y $WORK/$1 --cols 80 --rows 15 --color never"; }

CASES=$WORK/cases.json
cat > "$CASES" <<EOF
[
  {"name": "bar, 20 rows", "ours": "$(ours_bar bar20.csv)",
   "peer": "xan hist -l model -v secs $WORK/bar20.csv --cols 80 --color never",
   "peer_name": "xan hist", "target_ms": 5, "target_mib": 5, "runs": 21},
  {"name": "line, 20 rows", "ours": "$(ours_line line20.csv)",
   "peer": "xan plot -L year value $WORK/line20.csv --cols 80 --rows 15 --color never",
   "peer_name": "xan plot -L", "target_ms": 5, "target_mib": 5, "runs": 21},
  {"name": "line, 1M rows CSV", "ours": "$(ours_line xy1m.csv)", "peer": "$(xan_line xy1m.csv)",
   "peer_name": "xan plot -L", "target_ratio": 0.5, "target_mib": 8},
  {"name": "line, 1M rows CSV / lowcharts", "ours": "$(ours_line xy1m.csv)",
   "peer": "lowcharts -c no plot -H 15 -w 80 $WORK/y1m.txt",
   "peer_name": "lowcharts plot (the y values)", "target_ratio": 1, "target_mib": 8},
  {"name": "line --calculate, 1M rows", "ours": "$BIN/viz-parse --chart line -x x -y r --calculate r=y*2+x/1000 $WORK/xy1m.csv | $BIN/viz-render --width 80 --color never",
   "peer": "$(ours_line xy1m.csv)", "peer_name": "ours on the same rows without it", "target_ratio": 2},
  {"name": "line, 1M rows JSON lines", "ours": "$(ours_line xy1m.jsonl)", "peer": "$(ours_line xy1m.csv)",
   "peer_name": "ours on the same rows as CSV", "target_ratio": 1.4, "target_mib": 8},
  {"name": "JSON array, 200k flights", "ours": "$(ours_auto flights200k.json)",
   "peer": "$(ours_auto flights200k.jsonl)", "peer_name": "ours on the same records as JSON lines",
   "target_mib": 16, "runs": 5},
  {"name": "JSON array, 400k flights", "ours": "$(ours_auto flights400k.json)",
   "peer": "$(ours_auto flights400k.jsonl)", "peer_name": "ours on the same records as JSON lines",
   "target_mib": 16, "runs": 5},
  {"name": "bar top 30, 1M rows", "ours": "$(ours_bar bar1m.csv)",
   "peer": "xan top value -l 30 $WORK/bar1m.csv | xan hist -l name -v value --cols 80 --color never",
   "peer_name": "xan top | xan hist", "target_ratio": 0.5, "target_mib": 8},
  {"name": "mean by group, 1M rows", "ours": "$BIN/viz-parse --aggregate mean -x grp -y value $WORK/grp1m.csv | $BIN/viz-render --width 80 --color never",
   "peer": "xan groupby grp 'mean(value) as mean' $WORK/grp1m.csv | xan hist -l grp -v mean --cols 80 --color never",
   "peer_name": "xan groupby | xan hist", "target_ratio": 0.5, "target_mib": 8},
  {"name": "mean by group / duckdb", "ours": "$BIN/viz-parse --aggregate mean -x grp -y value $WORK/grp1m.csv | $BIN/viz-render --width 80 --color never",
   "peer": "$DUCKDB -c \\"select grp, avg(value) from read_csv('$WORK/grp1m.csv') group by 1 order by 1\\"",
   "peer_name": "duckdb -c (a table, no chart)"},
  {"name": "histogram, 1M values", "ours": "$BIN/viz-parse --chart hist -y y $WORK/xy1m.csv | $BIN/viz-render --width 80 --color never",
   "peer": "xan bins -s y $WORK/xy1m.csv | xan hist -l lower_bound -v count --cols 80 --color never",
   "peer_name": "xan bins | xan hist", "target_ratio": 0.5, "target_mib": 8},
  {"name": "histogram, 1M values / lowcharts", "ours": "$BIN/viz-parse --chart hist $WORK/y1m.txt | $BIN/viz-render --width 80 --color never",
   "peer": "lowcharts -c no hist $WORK/y1m.txt",
   "peer_name": "lowcharts hist (the same file)", "target_ratio": 0.5, "target_mib": 8},
  {"name": "scatter, 1M points", "ours": "$BIN/viz-parse --chart point -x x -y y $WORK/pts1m.csv | $BIN/viz-render --width 80 --color never",
   "peer": "xan plot x y $WORK/pts1m.csv --cols 80 --rows 15 --color never",
   "peer_name": "xan plot (scatter)", "target_ms": 150, "target_mib": 10},
  {"name": "line, 4M rows CSV", "ours": "$(ours_line xy4m.csv)", "peer": "$(xan_line xy4m.csv)",
   "peer_name": "xan plot -L", "target_ratio": 0.5, "target_mib": 8, "runs": 3},
  {"name": "line, 10M rows CSV", "ours": "$(ours_line xy10m.csv)", "peer": "$(xan_line xy10m.csv)",
   "peer_name": "xan plot -L", "target_ratio": 0.5, "target_mib": 8, "runs": 3}
]
EOF

RESULTS=$WORK/results.json
echo "\$ benches/compare.py $CASES $* --json $RESULTS" >&2
python3 "$ROOT/benches/compare.py" "$CASES" "$@" --json "$RESULTS"

# Linear growth: the slope through the 1M and 10M medians, and how far the
# 4M median lies from that line; memory from 1M to 10M rows.
python3 - "$RESULTS" <<'PY'
import json, sys
r = {c["name"]: c for c in json.load(open(sys.argv[1]))}
t1, t4, t10 = (r[f"line, {n}M rows CSV"]["ours_ms"] for n in (1, 4, 10))
m1, m10 = (r[f"line, {n}M rows CSV"]["ours_mib"] for n in (1, 10))
slope = (t10 - t1) / 9
line4 = t1 + 3 * slope
print(f"growth: {slope:.1f} ms per million rows (1M {t1:.0f} ms, 10M {t10:.0f} ms); "
      f"4M took {t4:.0f} ms, {100 * (t4 - line4) / line4:+.0f}% from that line")
print(f"memory: {m1:.1f} MiB at 1M rows, {m10:.1f} MiB at 10M rows")
PY

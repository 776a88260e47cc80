#!/usr/bin/env bash
# gem-ask map's benchmark (issue 34): N records against a fake server that
# answers each request in DELAY seconds, with -j JOBS, beside the ideal
# (N x DELAY / JOBS) and beside a process per record
# (`xargs -P JOBS -n 1 gem-ask`). Not a test: prints figures and ratios.
#
#   benches/map.sh [N] [JOBS] [DELAY]     (defaults 10000 16 0.2)
#
# Environment: GEM_ASK, a gem-ask binary (default: a release build of it).
set -euo pipefail

N=${1:-10000}
JOBS=${2:-16}
DELAY=${3:-0.2}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${BENCH_DIR:-$ROOT/target/bench-map}
mkdir -p "$WORK"

gem_ask=${GEM_ASK:-}
if [ -z "$gem_ask" ]; then
  (cd "$ROOT" && cargo build --release --quiet --bin gem-ask)
  gem_ask=${CARGO_TARGET_DIR:-$ROOT/target}/release/gem-ask
fi

coproc FAKE { exec python3 "$ROOT/benches/map_fake.py" "$DELAY"; }
trap 'kill "$FAKE_PID" 2>/dev/null || true' EXIT
read -r url <&"${FAKE[0]}"

export GEMINI_API_KEY=bench GEMINI_BASE_URL=$url XDG_DATA_HOME=$WORK XDG_CONFIG_HOME=$WORK
seq 1 "$N" | sed 's/^/record /' >"$WORK/in.txt"

now() { python3 -c 'import time; print(time.monotonic())'; }

t0=$(now)
/usr/bin/time -f '%U %S %M' -o "$WORK/map.time" \
  "$gem_ask" map -j "$JOBS" '{line}' "$WORK/in.txt" >"$WORK/map.out" 2>"$WORK/map.err"
t1=$(now)
lines=$(wc -l <"$WORK/map.out")
[ "$lines" -eq "$N" ] || { echo "map.sh: $lines lines for $N records" >&2; exit 1; }

t2=$(now)
xargs -P "$JOBS" -n 1 -d '\n' "$gem_ask" --no-history <"$WORK/in.txt" >"$WORK/xargs.out" 2>/dev/null || true
t3=$(now)

python3 - "$N" "$JOBS" "$DELAY" "$t0" "$t1" "$t2" "$t3" "$WORK/map.time" <<'PY'
import sys
n, jobs, delay = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
t0, t1, t2, t3 = map(float, sys.argv[4:8])
user, sys_, rss = open(sys.argv[8]).read().split()[-3:]
ideal = n * delay / jobs
wall, xwall = t1 - t0, t3 - t2
cpu = float(user) + float(sys_)
print(f"records {n}, -j {jobs}, {delay * 1000:.0f} ms a request")
print(f"ideal                    {ideal:8.2f} s")
print(f"gem-ask map              {wall:8.2f} s  {wall / ideal:5.2f}x ideal  cpu {cpu:.2f} s ({100 * cpu / wall:.1f}% of a core)  max RSS {int(rss) / 1024:.1f} MB")
print(f"xargs -P {jobs} -n 1 gem-ask {xwall:8.2f} s  {xwall / ideal:5.2f}x ideal  {xwall / wall:5.2f}x gem-ask map")
PY

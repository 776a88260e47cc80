#!/usr/bin/env bash
# gem-ask's audit log (issue 35): `gem-ask log search` finding a tool call
# of last week among 10,000 sessions (target: under 100 ms), beside rg
# (ripgrep) over the same session files as the named peer. Not a test:
# prints figures for a person to read.
#
#   benches/log.sh [SESSIONS] [RUNS]     (default 10000 sessions, 11 runs)
#
# The sessions (benches/log_data.py) are gem-ask's session files of 1-4
# turns with shell and file tool calls, over the last 60 days; one of five
# days ago runs `git bisect run ./flaky-check.sh`. The query:
#   gem-ask log search bisect flaky --tool run_shell_command --since 7d
# against the index beside the files once built (its first build, from no
# index, is timed once too, and so is a refresh after one session is
# added); rg -l 'bisect run ./flaky' over the directory (rg cannot filter
# by tool or time: it reads every file). Median wall time of RUNS runs
# each, alternating. rg is taken from PATH, else installed with cargo
# under target/peers/rg. Besides the wall times (which a busy machine
# moves), the CPU time (user + system) of the whole gem-ask process.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
N=${1:-10000}
RUNS=${2:-11}
WORK=${BENCH_DIR:-$ROOT/target/bench-log}
DATA=$WORK/data/gemline/sessions

RG=$(command -v rg || true)
if [ -z "$RG" ]; then
  RG=$ROOT/target/peers/rg/bin/rg
  if [ ! -x "$RG" ]; then
    echo "installing ripgrep (the peer) into target/peers/rg" >&2
    cargo install --quiet --root "$ROOT/target/peers/rg" ripgrep
  fi
fi
# GEM=path/to/gem-ask uses that build instead of building a release one.
if [ -z "${GEM:-}" ]; then
  (cd "$ROOT" && cargo build --release --quiet --bin gem-ask)
  GEM=$ROOT/target/release/gem-ask
fi

if [ "$(find "$DATA" -name '*.jsonl' 2>/dev/null | wc -l)" -ne "$N" ]; then
  rm -rf "$WORK/data"
  echo "writing $N session files under $DATA" >&2
  python3 "$ROOT/benches/log_data.py" "$DATA" "$N"
fi
rm -f "$DATA"/log-index.sqlite3*
export XDG_DATA_HOME=$WORK/data

ours() { "$GEM" log search bisect flaky --tool run_shell_command --since 7d; }
peer() { "$RG" -l 'bisect run ./flaky' "$DATA"; }
ms() { # the wall time of "$@" in milliseconds, its output to /dev/null
  local t0 t1
  t0=$(date +%s%N); "$@" >/dev/null; t1=$(date +%s%N)
  echo $(((t1 - t0) / 1000000))
}
cpu_ms() { # the CPU time (user + system) of "$@" in milliseconds
  local TIMEFORMAT='%3U %3S' t
  t=$( { time "$@" >/dev/null; } 2>&1 )
  awk -v t="$t" 'BEGIN {split(t, a, " "); printf "%d\n", (a[1] + a[2]) * 1000}'
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

build=$(ms ours)
found=$(ours)
echo "$found" | grep -q 'flaky-check' || { echo "gem-ask log did not find the call: $found" >&2; exit 1; }
[ "$(peer | wc -l)" -ge 1 ] || { echo "rg did not find the call" >&2; exit 1; }

o=(); p=(); oc=(); pc=()
for _ in $(seq "$RUNS"); do
  o+=("$(ms ours)"); p+=("$(ms peer)")
  oc+=("$(cpu_ms ours)"); pc+=("$(cpu_ms peer)")
done
om=$(printf '%s\n' "${o[@]}" | median)
pm=$(printf '%s\n' "${p[@]}" | median)
ocm=$(printf '%s\n' "${oc[@]}" | median)
pcm=$(printf '%s\n' "${pc[@]}" | median)
cp "$(ls "$DATA"/*.jsonl | head -1)" "$DATA/29990101-000000-bench01.jsonl"
refresh=$(ms ours)
rm -f "$DATA/29990101-000000-bench01.jsonl"
ms ours >/dev/null
size=$(du -k "$DATA/log-index.sqlite3" | cut -f1)
files=$(du -sk --exclude='log-index*' "$DATA" | cut -f1)

printf '\n%d sessions (%d KiB of session files; the index %d KiB), median of %d runs\n\n' \
  "$N" "$files" "$size" "$RUNS"
printf '| what | gem-ask log | rg (the peer) | ratio |\n| --- | --- | --- | --- |\n'
printf '| search a tool call of last week | %d ms | %d ms | %s |\n' "$om" "$pm" \
  "$(awk -v a="$om" -v b="$pm" 'BEGIN {printf (b > 0 ? "%.2fx" : "-"), a / b}')"
printf '| the same, CPU time (user + system) | %d ms | %d ms | |\n' "$ocm" "$pcm"
printf '| the first search, building the index | %d ms | | |\n' "$build"
printf '| a search after one session was added | %d ms | | |\n' "$refresh"
printf '\ntarget: the search under 100 ms: %s\n' "$([ "$om" -lt 100 ] && echo met || echo missed)"

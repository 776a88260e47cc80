#!/usr/bin/env bash
# Live charts' benchmark (issue 13): 100,000 lines/s through
# `viz-parse --follow | viz-render --live` on a pseudo terminal, beside
# ttyplot (the Debian package) fed the same. Not a test: prints figures and
# ratios for a person to read (benches/live_bench.py does the measuring).
#
#   benches/live.sh [RATE] [SECONDS]      (default 100000 10)
#
# Environment:
#   TTYPLOT  a ttyplot binary; else `ttyplot` on PATH; else, as root,
#            `apt-get install ttyplot`; else gemline alone.
#   LINES    lines of the flat-out phase (2000000); IDLE seconds of the
#            idle phase (10).
#
# Exit 1 when gemline's last frame came more than one --interval (250 ms)
# after the last input line.
set -euo pipefail

RATE=${1:-100000}
SECONDS_=${2:-10}
ROOT=$(cd "$(dirname "$0")/.." && pwd)

ttyplot=${TTYPLOT:-}
if [ -z "$ttyplot" ]; then
  if ! command -v ttyplot >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "live.sh: installing ttyplot (apt-get install ttyplot)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ttyplot >/dev/null 2>&1 \
      || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ttyplot >/dev/null; } \
      || echo "live.sh: ttyplot could not be installed; gemline alone" >&2
  fi
  ttyplot=$(command -v ttyplot || true)
fi

(cd "$ROOT" && cargo build --release --quiet --bin viz-parse --bin viz-render)
bin=${CARGO_TARGET_DIR:-$ROOT/target}/release
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); ttyplot: ${ttyplot:-none}"
exec python3 "$ROOT/benches/live_bench.py" \
  --viz-parse "$bin/viz-parse" --viz-render "$bin/viz-render" \
  ${ttyplot:+--ttyplot "$ttyplot"} \
  --rate "$RATE" --seconds "$SECONDS_" --lines "${LINES:-2000000}" --idle "${IDLE:-10}"

#!/usr/bin/env bash
# Charts as pictures (issue 24, Performance). Not a test: prints figures
# for a person to read.
#
#   benches/graphics.sh [--runs N]
#
# Whole process, wall time and peak memory: `viz-render --graphics kitty`
# drawing a 1,000-point line chart on a terminal (the SVG rasterised with
# resvg at 80 columns of 10 x 20 pixels, PNG-encoded, sent in kitty's
# escapes; target under 30 ms), beside `viz-render --graphics off` drawing
# the same chart as text; the same for iTerm2 and sixel (sixel quantizes
# the anti-aliased picture to 256 colours); and `--format png` into a file.
# The terminal is a real pseudo-terminal (80 x 24 cells, 800 x 480 pixels)
# held open by a small Python drainer, so each command is viz-render alone
# writing to /dev/pts/N, as it would to a terminal.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${BENCH_DIR:-$ROOT/target/bench}
mkdir -p "$WORK"
cd "$ROOT"
cargo build --release --quiet --bin viz-render
BIN=$ROOT/target/release

python3 - > "$WORK/line1000.jsonl" <<'PY'
import json, math
pts = [{"label": str(i), "value": round(40 * math.sin(i / 37) + 10 * math.sin(i / 5), 3)} for i in range(1000)]
print(json.dumps({"type": "visualization", "chartType": "line", "title": "1,000 points",
                  "xLabel": "sample", "unit": "ms", "series": [{"name": "rtt", "points": pts}]}))
PY

# A pseudo-terminal whose output is read and dropped; its slave's path on stdout.
PTY_FILE=$WORK/pty-path
rm -f "$PTY_FILE"
python3 - "$PTY_FILE" <<'PY' &
import fcntl, os, pty, struct, sys, termios
m, s = pty.openpty()
fcntl.ioctl(s, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 800, 480))
open(sys.argv[1], "w").write(os.ttyname(s))
while True:
    try:
        if not os.read(m, 1 << 16):
            break
    except OSError:
        break
PY
DRAINER=$!
trap 'kill $DRAINER 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$PTY_FILE" ] && break; sleep 0.1; done
PTY=$(cat "$PTY_FILE")

CASES=$WORK/graphics-cases.json
cat > "$CASES" <<JSON
[
  {"name": "1,000-point line, kitty",
   "ours": "$BIN/viz-render --width 80 --graphics kitty $WORK/line1000.jsonl > $PTY",
   "peer": "$BIN/viz-render --width 80 --graphics off $WORK/line1000.jsonl > $PTY",
   "peer_name": "viz-render --graphics off (text)", "target_ms": 30, "runs": 15},
  {"name": "1,000-point line, iterm",
   "ours": "$BIN/viz-render --width 80 --graphics iterm $WORK/line1000.jsonl > $PTY",
   "peer": "$BIN/viz-render --width 80 --graphics off $WORK/line1000.jsonl > $PTY",
   "peer_name": "viz-render --graphics off (text)", "runs": 11},
  {"name": "1,000-point line, sixel",
   "ours": "$BIN/viz-render --width 80 --graphics sixel $WORK/line1000.jsonl > $PTY",
   "peer": "$BIN/viz-render --width 80 --graphics off $WORK/line1000.jsonl > $PTY",
   "peer_name": "viz-render --graphics off (text)", "runs": 11},
  {"name": "1,000-point line, --format png",
   "ours": "$BIN/viz-render --format png $WORK/line1000.jsonl > $WORK/line1000.png",
   "peer": "$BIN/viz-render --format svg $WORK/line1000.jsonl > $WORK/line1000.svg",
   "peer_name": "viz-render --format svg", "runs": 11}
]
JSON
python3 "$ROOT/benches/compare.py" "$CASES" "$@"

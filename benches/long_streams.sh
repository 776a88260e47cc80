#!/usr/bin/env bash
# Long streams in flat memory (issue 11). Not a test: prints peak RSS
# figures for a person to read, and checks what the runs produced.
#
#   benches/long_streams.sh [CHUNKS] [VIZ_BYTES] [TOPIC_EVENTS]
#       defaults: 100000 chunks (~50 MB of answer), 1 GB, 10,000,000 events
#
# 1. gem-ask against a fake Gemini server (benches/long_streams.py, on
#    127.0.0.1) streaming CHUNKS chunks of ~500 bytes: every chunk's
#    `message` event in order, `result` success, the session holding the
#    whole answer; peak RSS of gem-ask (target: under 16 MiB). Then the
#    next turn on that session, which resends the answer as history.
# 2. viz-render on a mixed event stream (text, tool calls and results,
#    bar and line charts) generated on the fly and piped in (nothing is
#    stored): VIZ_BYTES and a tenth of it, to show the peak does not grow.
# 3. topic-tag on TOPIC_EVENTS and a tenth of it, piped the same way.
# 4. A server that goes silent after one chunk: gem-ask --read-timeout 2
#    must end with a `result` of status error and a non-zero exit, without
#    hanging (given 30 s at most).
#
# Peak RSS is GNU time's %M for the measured process alone (the generator
# and the checker run beside it in the pipeline, unmeasured). Release
# binaries are built first (or BIN_DIR names the binaries to measure).
set -euo pipefail

CHUNKS=${1:-100000}
VIZ_BYTES=${2:-1000000000}
TOPIC_EVENTS=${3:-10000000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
HELP=$ROOT/benches/long_streams.py
[ -x /usr/bin/time ] || { echo "long_streams.sh: needs GNU time (/usr/bin/time)" >&2; exit 69; }

# BIN_DIR: binaries to measure instead of a fresh release build.
if [ -n "${BIN_DIR:-}" ]; then
  BIN=$BIN_DIR
else
  (cd "$ROOT" && cargo build --release --quiet --bins)
  BIN=${CARGO_TARGET_DIR:-$ROOT/target}/release
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/long-streams.XXXXXX")
SERVER=""
cleanup() {
  if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# Starts the helper's server in MODE; sets SERVER (its pid) and PORT.
start_server() {
  : > "$WORK/port"
  python3 "$HELP" serve "$@" > "$WORK/port" &
  SERVER=$!
  for _ in $(seq 100); do
    [ -s "$WORK/port" ] && break
    sleep 0.1
  done
  PORT=$(head -1 "$WORK/port")
}

stop_server() {
  kill "$SERVER" 2>/dev/null || true
  wait "$SERVER" 2>/dev/null || true
  SERVER=""
}

ask() {
  env -u GEMINI_SESSION_ID -u GOOGLE_API_KEY -u GOOGLE_GEMINI_BASE_URL -u GEMINI_MODEL \
    GEMINI_API_KEY=bench-key GEMINI_BASE_URL="http://127.0.0.1:$PORT" \
    XDG_DATA_HOME="$WORK/data" XDG_CONFIG_HOME="$WORK/data" "$@"
}

mib() { awk -v k="$1" 'BEGIN { printf "%.1f MiB", k / 1024 }'; }

echo "== gem-ask: one answer of $CHUNKS chunks from a fake server"
start_server long "$CHUNKS"
start=$(date +%s.%N)
ask /usr/bin/time -f '%M' -o "$WORK/ask.rss" "$BIN/gem-ask" --session long "write at length" \
  | python3 "$HELP" check-events "$CHUNKS"
end=$(date +%s.%N)
stop_server
python3 "$HELP" check-session "$WORK/data/gemline/sessions/long.jsonl" "$CHUNKS"
ask_rss=$(tail -1 "$WORK/ask.rss")
verdict=$([ "$ask_rss" -lt $((16 * 1024)) ] && echo "under 16 MiB: met" || echo "under 16 MiB: NOT met")
echo "gem-ask peak RSS: $(mib "$ask_rss") ($verdict), $(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }') s"
# The next turn on that session loads the answer and sends it back: the
# request body must hold it, so this peak grows with the answer (bounded
# by the session size cap).
start_server long "$CHUNKS"
ask /usr/bin/time -f '%M' -o "$WORK/next.rss" "$BIN/gem-ask" --session long "and briefly?" > /dev/null
stop_server
echo "gem-ask next turn, the answer resent as history: peak RSS $(mib "$(tail -1 "$WORK/next.rss")")"
rm -rf "$WORK/data"

viz() {
  python3 "$HELP" viz-events "$1" \
    | /usr/bin/time -f '%e %M' -o "$WORK/viz.rss" "$BIN/viz-render" --width 100 --color never > /dev/null
  read -r secs rss < "$WORK/viz.rss"
  echo "viz-render, $(awk -v b="$1" 'BEGIN { printf "%.0f MB", b / 1e6 }') of events: peak RSS $(mib "$rss"), ${secs} s"
}
echo "== viz-render: mixed events generated on the fly"
viz $((VIZ_BYTES / 10))
viz "$VIZ_BYTES"

topic() {
  python3 "$HELP" topic-events "$1" \
    | /usr/bin/time -f '%e %M' -o "$WORK/topic.rss" "$BIN/topic-tag" > /dev/null
  read -r secs rss < "$WORK/topic.rss"
  echo "topic-tag, $1 events: peak RSS $(mib "$rss"), ${secs} s"
}
echo "== topic-tag"
topic $((TOPIC_EVENTS / 10))
topic "$TOPIC_EVENTS"

echo "== gem-ask: a server silent past --read-timeout 2"
start_server stall
start=$(date +%s.%N)
set +e
ask timeout 30 "$BIN/gem-ask" --session stall --read-timeout 2 "hello" > "$WORK/stall.out" 2> "$WORK/stall.err"
code=$?
set -e
end=$(date +%s.%N)
stop_server
secs=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }')
result=$(grep '"type":"result"' "$WORK/stall.out" || true)
echo "exit $code after ${secs} s; result: $result"
if [ "$code" = 124 ]; then
  echo "stall: NOT met (gem-ask hung until timeout killed it)"; exit 1
elif [ "$code" = 0 ] || ! grep -q '"status":"error"' <<< "$result"; then
  echo "stall: NOT met (expected a result of status error and a non-zero exit)"; exit 1
fi
echo "stall: met (result status error, exit $code, no hang)"

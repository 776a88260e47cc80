#!/usr/bin/env bash
# The memory an attachment costs (issue 24, Performance). Not a test:
# prints figures for a person to read.
#
#   benches/attach.sh [RUNS] [MB]
#
# gem-ask with a 10 MB attachment (a WAV of random samples: inline, since
# its base64 fits the request's budget) beside gem-ask with none, against a
# local fake Gemini server: peak RSS of each (GNU time), and the difference
# as a multiple of the file's base64 encoding, which the request body
# holds once (target: at most 1x). See benches/attach_memory.py.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
cargo build --release --quiet --bin gem-ask
python3 "$ROOT/benches/attach_memory.py" "$ROOT/target/release/gem-ask" "${1:-7}" "${2:-10}"

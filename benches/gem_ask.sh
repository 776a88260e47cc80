#!/usr/bin/env bash
# gem-ask's benchmark (issue 3): one-shot wall time and peak memory beside
# aichat (crates.io), and the latency gem-ask adds to each streamed chunk.
# Not a test: prints figures for a person to read.
#
#   benches/gem_ask.sh [RUNS]      (default 21)
#
# Environment:
#   AICHAT   an aichat binary; else `aichat` on PATH; else it is installed
#            with `cargo install --locked aichat` into target/bench-gem-ask.
#   GAP      seconds between the two chunks in the latency phase (0.05).
#
# Builds gem-ask in release mode, starts a fake Gemini server on 127.0.0.1
# (benches/gem_ask_bench.py) that streams a two-chunk answer, points aichat
# at it through `api_base` in a throwaway config directory, and prints the
# medians and ratios. Nothing leaves the machine.
set -euo pipefail

RUNS=${1:-21}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${BENCH_DIR:-$ROOT/target/bench-gem-ask}
mkdir -p "$WORK"

aichat=${AICHAT:-}
if [ -z "$aichat" ]; then
  if command -v aichat >/dev/null 2>&1; then
    aichat=$(command -v aichat)
  elif [ -x "$WORK/aichat/bin/aichat" ]; then
    aichat=$WORK/aichat/bin/aichat
  else
    echo "gem_ask.sh: installing aichat (cargo install --locked aichat) into $WORK/aichat" >&2
    cargo install --locked --quiet --root "$WORK/aichat" aichat
    aichat=$WORK/aichat/bin/aichat
  fi
fi
[ -x "$aichat" ] || { echo "gem_ask.sh: $aichat is not executable" >&2; exit 66; }

(cd "$ROOT" && cargo build --release --quiet --bin gem-ask)
gem_ask=${CARGO_TARGET_DIR:-$ROOT/target}/release/gem-ask

cfg=$(mktemp -d "${TMPDIR:-/tmp}/gem-ask-bench.XXXXXX")
trap 'rm -rf "$cfg"' EXIT
echo "gem-ask: $gem_ask ($("$gem_ask" --version))"
echo "aichat:  $aichat ($("$aichat" --version))"
python3 "$ROOT/benches/gem_ask_bench.py" "$gem_ask" "$aichat" "$cfg" "$RUNS"

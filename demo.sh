#!/usr/bin/env bash
# The README's demo: no API key, no network. gem-ask answers from a scripted
# Gemini session in the recorded wire format (testdata/demo/bmw.replay,
# written by an ignored test in tests/it/gem_ask_replay.rs) through the same code path
# as a live call; viz-render draws it. Then viz-parse charts bundled files.
# The session lives in a temporary XDG_DATA_HOME, so nothing is left behind.
set -euo pipefail
cd "$(dirname "$0")"
bin=target/release
[[ -x $bin/gem-ask ]] || bin=target/debug
[[ -x $bin/gem-ask ]] || { echo "demo: build first: cargo build --release" >&2; exit 1; }

export XDG_DATA_HOME="$(mktemp -d)"
trap 'rm -rf "$XDG_DATA_HOME"' EXIT
export GEMINI_SESSION_ID=demo
width=${COLUMNS:-80}

echo "\$ gem-ask \"Fastest 3 BMW models, compare 0-60 in a chart\" | viz-render"
$bin/gem-ask --replay testdata/demo/bmw.replay "Fastest 3 BMW models, compare 0-60 in a chart" \
    | $bin/viz-render --width "$width"
echo
echo "\$ gem-ask \"BMW models per year for the last 5 years\" | viz-render      # same session"
$bin/gem-ask --replay testdata/demo/bmw.replay "BMW models per year for the last 5 years" \
    | $bin/viz-render --width "$width"
echo
echo "\$ viz-parse --chart table testdata/sales.tsv -y 'Q1 sales' | viz-render"
$bin/viz-parse --chart table -y 'Q1 sales' testdata/sales.tsv | $bin/viz-render --width "$width"
echo
echo "\$ viz-parse -s symbol testdata/prices_long.csv | viz-render --ascii"
$bin/viz-parse -s symbol testdata/prices_long.csv | $bin/viz-render --width "$width" --ascii

#!/usr/bin/env bash
# Markdown answers' cost (issue 8, Proof). Not a test: prints figures for
# a person to read.
#
#   benches/markdown.sh [--runs N]
#
# 1. Library time (benches/markdown.rs): a 1 MB answer, made of
#    testdata/markdown/answer.md repeated, fed as 40-character deltas at
#    100 columns with colour; target under 50 ms in all and under 1 ms per
#    delta.
# 2. Whole process: `viz-render` drawing that answer from message events,
#    beside Python's `rich` drawing the same Markdown file (`python -m
#    rich.markdown`, installed in a venv under target/bench when missing),
#    and beside `viz-render --markdown off` (the raw text path), with
#    ratios and peak memory (benches/compare.py).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${BENCH_DIR:-$ROOT/target/bench}
mkdir -p "$WORK"
PIN=()
if command -v taskset >/dev/null 2>&1; then
  PIN=(taskset -c 0)
fi

cd "$ROOT"
cargo build --release --quiet --bin viz-render
BENCH=$("$ROOT/benches/bench-exe.sh" markdown)
echo "\$ cargo bench --bench markdown (pinned to one core: ${PIN[*]:-no taskset})" >&2
"${PIN[@]}" "$BENCH"

"$BENCH" --emit > "$WORK/answer1m.md"
python3 - "$WORK/answer1m.md" > "$WORK/answer1m.jsonl" <<'PY'
import json, sys
text = open(sys.argv[1], encoding="utf-8").read()
for i in range(0, len(text), 40):
    print(json.dumps({"type": "message", "role": "assistant", "content": text[i:i + 40], "delta": True}))
PY

VENV=$WORK/rich-venv
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import rich' 2>/dev/null; then
  echo "bench: installing rich (PyPI) in $VENV" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet rich
fi
RICH_VERSION=$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("rich"))')

BIN=$ROOT/target/release
CASES=$WORK/markdown-cases.json
cat > "$CASES" <<JSON
[
  {"name": "1 MB Markdown answer, 100 columns, colour",
   "ours": "COLUMNS=100 $BIN/viz-render --width 100 --color always $WORK/answer1m.jsonl",
   "peer": "COLUMNS=100 $VENV/bin/python -m rich.markdown --force-color --width 100 $WORK/answer1m.md",
   "peer_name": "rich $RICH_VERSION (python -m rich.markdown)", "runs": 7},
  {"name": "the same answer, Markdown on vs off",
   "ours": "$BIN/viz-render --width 100 --color always $WORK/answer1m.jsonl",
   "peer": "$BIN/viz-render --width 100 --color always --markdown off $WORK/answer1m.jsonl",
   "peer_name": "viz-render --markdown off", "runs": 11}
]
JSON
echo "\$ benches/compare.py $CASES $*" >&2
python3 "$ROOT/benches/compare.py" "$CASES" "$@"

#!/usr/bin/env bash
# Markdown answers' cost (issues 8 and 23). Not a test: prints figures for
# a person to read.
#
#   benches/markdown.sh [--runs N]
#
# 1. Library time (benches/markdown.rs): a 1 MB answer, made of
#    testdata/markdown/answer.md repeated, fed as 40-character deltas at
#    100 columns, as a pipe gets it (each block once, complete); targets
#    (issue 23) at most 50 ms with colour off, 70 ms with colour on, one
#    core; and the time each delta takes. Then the same for a code-heavy
#    answer (testdata/markdown/code_answer.md). Issue 37's target: colour
#    at 1.25x or less the time of no colour (the ratio is printed).
# 2. Whole process, wall time and peak memory as ratios in one run
#    (benches/compare.py): `viz-render` drawing that answer from message
#    events beside the peers drawing the same Markdown file: streamdown
#    (`sd`, a streaming Markdown renderer for terminals) and rich (`python
#    -m rich.markdown`), pinned and installed in a venv under
#    target/peers when missing; and beside `viz-render --markdown off`
#    (the raw text path).
#
# For where the time goes, callgrind counts instructions, which a busy
# machine does not move: `valgrind --tool=callgrind BENCH --once --color
# off` (BENCH: `benches/bench-exe.sh markdown`).
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
echo "\$ the same, a code-heavy answer (testdata/markdown/code_answer.md)" >&2
"${PIN[@]}" "$BENCH" --answer code_answer.md

"$BENCH" --emit > "$WORK/answer1m.md"
python3 - "$WORK/answer1m.md" > "$WORK/answer1m.jsonl" <<'PY'
import json, sys
text = open(sys.argv[1], encoding="utf-8").read()
for i in range(0, len(text), 40):
    print(json.dumps({"type": "message", "role": "assistant", "content": text[i:i + 40], "delta": True}))
PY

PEERS=$ROOT/target/peers
VENV=$PEERS/md-venv
STREAMDOWN=0.36.9
RICH=15.0.0
if [ ! -x "$VENV/bin/sd" ] || ! "$VENV/bin/python" -c 'import rich' 2>/dev/null; then
  echo "bench: installing streamdown $STREAMDOWN and rich $RICH (PyPI) in $VENV" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet "streamdown==$STREAMDOWN" "rich==$RICH"
fi
version() { "$VENV/bin/python" -c "import importlib.metadata as m; print(m.version('$1'))"; }

BIN=$ROOT/target/release
CASES=$WORK/markdown-cases.json
cat > "$CASES" <<JSON
[
  {"name": "1 MB answer, 100 cols, colour / sd",
   "ours": "COLUMNS=100 $BIN/viz-render --width 100 --color always $WORK/answer1m.jsonl",
   "peer": "COLUMNS=100 $VENV/bin/sd -w 100 $WORK/answer1m.md",
   "peer_name": "streamdown $(version streamdown) (sd)", "runs": 3},
  {"name": "1 MB answer, 100 cols, colour / rich",
   "ours": "COLUMNS=100 $BIN/viz-render --width 100 --color always $WORK/answer1m.jsonl",
   "peer": "COLUMNS=100 $VENV/bin/python -m rich.markdown --force-color --width 100 $WORK/answer1m.md",
   "peer_name": "rich $(version rich) (python -m rich.markdown)", "runs": 7},
  {"name": "the same answer, Markdown on vs off",
   "ours": "$BIN/viz-render --width 100 --color always $WORK/answer1m.jsonl",
   "peer": "$BIN/viz-render --width 100 --color always --markdown off $WORK/answer1m.jsonl",
   "peer_name": "viz-render --markdown off", "runs": 11}
]
JSON
echo "\$ benches/compare.py $CASES $*" >&2
python3 "$ROOT/benches/compare.py" "$CASES" "$@"

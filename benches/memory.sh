#!/usr/bin/env bash
# gem-ask's memory (issue 26) beside llm (PyPI `llm`, which keeps its
# embeddings in SQLite too), on the same data in the same run: whole-process
# wall time and peak memory, ours/peer ratios. Not a test: prints figures
# for a person to read.
#
#   benches/memory.sh [--runs N]    (default 11 alternating runs a case)
#
# Cases (targets of the issue):
#   - search 100,000 memories with 768-dimension vectors: `gem-ask memory
#     search` (keywords and vectors fused; the query embedded by a fake
#     OpenAI-compatible endpoint on 127.0.0.1) beside `llm similar -c` (the
#     query embedded in-process by the same function); under 50 ms;
#   - add 10,000 memories with their vectors: `gem-ask memory import` of
#     export lines beside `llm embed-multi` (its plugin model computes the
#     same vectors, a few numpy sums, so both mostly store); under 2 s;
#   - what memory adds to a turn before its request, the query's embedding
#     aside: the median of `gem-ask --debug`'s own figure over the runs of
#     a replayed turn (testdata/demo/bmw.replay) with --memory, over the
#     100,000-memory and a 10,000-memory store; under 10 ms. The same
#     turns' whole-process time beside the turn without memory (a ratio
#     that includes the query's embedding over HTTP).
#   - quality: how many of llm's exact 10 nearest (cosine, every vector)
#     gem-ask's vector ranking (a sign-bit pass, then exact cosine of the
#     best 1,000) also puts in its 10, over 20 queries.
#
# The data (benches/memory_data.py): memories of 8-24 words drawn by
# Zipf's law, the 33 most frequent being English stop words; vectors sums
# of word vectors (see there). Built once under target/bench-memory (the
# 100,000-memory llm database takes minutes). llm and numpy are installed
# in a venv under target/peers/llm with the plugin in
# benches/memory_llm_plugin. Timings on a busy machine move; the CPU
# seconds (`/usr/bin/time`) and `valgrind --tool=callgrind` instruction
# counts do not: see the note after the table.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${BENCH_DIR:-$ROOT/target/bench-memory}
RUNS=11
[ "${1:-}" = "--runs" ] && RUNS=$2
mkdir -p "$WORK"

VENV=$ROOT/target/peers/llm
if [ ! -x "$VENV/bin/llm" ]; then
  echo "installing llm and numpy (the peer) into $VENV" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet llm numpy
fi
if ! PYTHONPATH=$ROOT/benches "$VENV/bin/llm" embed-models 2>/dev/null | grep -q bench-embed; then
  "$VENV/bin/pip" install --quiet "$ROOT/benches/memory_llm_plugin"
  rm -rf "$ROOT/benches/memory_llm_plugin/build" "$ROOT"/benches/memory_llm_plugin/*.egg-info
fi
PY=$VENV/bin/python
LLM=$VENV/bin/llm
export PYTHONPATH=$ROOT/benches

(cd "$ROOT" && cargo build --release --quiet --bin gem-ask)
GEM=$ROOT/target/release/gem-ask

# The fake embedding endpoint.
rm -f "$WORK/port"
"$PY" "$ROOT/benches/memory_data.py" serve "$WORK/port" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null' EXIT
for _ in $(seq 100); do [ -s "$WORK/port" ] && break; sleep 0.1; done
PORT=$(cat "$WORK/port")

# A store under DIR configured for the endpoint.
home() {
  mkdir -p "$1/gemline"
  printf '[memory]\nembedding_model = "bench-embed"\nembedding_provider = "openai"\nembedding_base_url = "http://127.0.0.1:%s"\n' \
    "$PORT" > "$1/gemline/config.toml"
}
# The data, once: VERSION changes when memory_data.py's data does.
VERSION=2
build() {  # N: the gem-ask store and the llm database of N memories
  local n=$1 dir=$WORK/h$1
  if [ "$(cat "$WORK/built$n" 2>/dev/null)" = "$VERSION" ]; then return; fi
  echo "building the $n-memory stores (once)..." >&2
  rm -rf "$dir" "$WORK/llm$n.db"
  home "$dir"
  "$PY" "$ROOT/benches/memory_data.py" gem "$n" | XDG_DATA_HOME=$dir XDG_CONFIG_HOME=$dir "$GEM" memory import >/dev/null
  (printf 'id\tcontent\n'; "$PY" "$ROOT/benches/memory_data.py" texts "$n") > "$WORK/texts$n.tsv"
  "$LLM" embed-multi items "$WORK/texts$n.tsv" --format tsv -m bench-embed -d "$WORK/llm$n.db" >/dev/null 2>&1
  echo "$VERSION" > "$WORK/built$n"
}
build 100000
build 10000
home "$WORK/add"
[ -s "$WORK/add10k.jsonl" ] || "$PY" "$ROOT/benches/memory_data.py" gem 10000 > "$WORK/add10k.jsonl"
mapfile -t QUERIES < <("$PY" "$ROOT/benches/memory_data.py" queries 20)
Q=${QUERIES[0]}

env100="XDG_DATA_HOME=$WORK/h100000 XDG_CONFIG_HOME=$WORK/h100000"
cat > "$WORK/cases.json" <<JSON
[
 {"name": "search 100,000 memories (768-d)", "runs": $RUNS, "target_ms": 50, "peer_name": "llm similar",
  "ours": "env $env100 $GEM memory search -n 10 '$Q'",
  "peer": "$LLM similar items -c '$Q' -n 10 -d $WORK/llm100000.db"},
 {"name": "add 10,000 memories with vectors", "runs": 5, "target_ms": 2000, "peer_name": "llm embed-multi",
  "ours": "rm -f $WORK/add/gemline/memory.sqlite3*; env XDG_DATA_HOME=$WORK/add XDG_CONFIG_HOME=$WORK/add $GEM memory import $WORK/add10k.jsonl",
  "peer": "rm -f $WORK/add.db*; $LLM embed-multi items $WORK/texts10000.tsv --format tsv -m bench-embed -d $WORK/add.db"},
 {"name": "a replayed turn, --memory (100,000)", "runs": $RUNS, "peer_name": "the turn without memory",
  "ours": "cd $ROOT && env $env100 $GEM --replay testdata/demo/bmw.replay --no-history --memory --output jsonl 'Fastest 3 BMW models, compare 0-60 in a chart'",
  "peer": "cd $ROOT && env $env100 $GEM --replay testdata/demo/bmw.replay --no-history --output jsonl 'Fastest 3 BMW models, compare 0-60 in a chart'"}
]
JSON
python3 "$ROOT/benches/compare.py" "$WORK/cases.json" --runs "$RUNS"

echo
echo "CPU seconds (user + system) of one search over 100,000, median of $RUNS:"
for who in ours peer; do
  for _ in $(seq "$RUNS"); do
    if [ $who = ours ]; then
      /usr/bin/time -f '%U %S' -o "$WORK/t" env XDG_DATA_HOME=$WORK/h100000 XDG_CONFIG_HOME=$WORK/h100000 "$GEM" memory search -n 10 "$Q" >/dev/null
    else
      /usr/bin/time -f '%U %S' -o "$WORK/t" "$LLM" similar items -c "$Q" -n 10 -d "$WORK/llm100000.db" >/dev/null
    fi
    awk '{ printf "%.3f\n", $1 + $2 }' "$WORK/t"
  done | sort -n | awk -v who=$who '{ a[NR] = $1 } END { printf "  %-5s %.3f s\n", who, a[int((NR + 1) / 2)] }'
done

echo
echo "What memory adds to a turn before its request, the query's embedding aside (gem-ask --debug), median of $RUNS:"
for n in 100000 10000; do
  for _ in $(seq "$RUNS"); do
    (cd "$ROOT" && XDG_DATA_HOME=$WORK/h$n XDG_CONFIG_HOME=$WORK/h$n "$GEM" --replay testdata/demo/bmw.replay \
      --no-history --memory --debug --output jsonl 'Fastest 3 BMW models, compare 0-60 in a chart' 2>&1 >/dev/null) |
      sed -n 's/.*in the prompt .* in \([0-9.]*\) ms, the query.s embedding \([0-9.]*\) ms.*/\1 \2/p'
  done | sort -n | awk -v n=$n '{ a[NR] = $1; e[NR] = $2 } END { m = int((NR + 1) / 2);
    printf "  %7d memories: %.1f ms (target under 10 ms; the embedding call took %.1f ms more)\n", n, a[m], e[m] }'
done

echo
echo "Quality: of llm's exact 10 nearest by cosine, how many gem-ask's vector ranking has in its 10 (20 queries):"
total=0
for q in "${QUERIES[@]}"; do
  theirs=$("$LLM" similar items -c "$q" -n 10 -d "$WORK/llm100000.db" | "$PY" -c 'import json,sys; print(" ".join(json.loads(l)["id"] for l in sys.stdin))')
  ours=$(XDG_DATA_HOME=$WORK/h100000 XDG_CONFIG_HOME=$WORK/h100000 "$GEM" memory search -n 100 "$q" | "$PY" -c '
import json, sys
hits = [json.loads(l) for l in sys.stdin]
v = sorted((h["ranks"]["vector"]["rank"], h["key"]) for h in hits if "vector" in h.get("ranks", {}))
print(" ".join(k for _, k in v[:10]))')
  both=$(comm -12 <(tr ' ' '\n' <<<"$theirs" | sort) <(tr ' ' '\n' <<<"$ours" | sort) | wc -l)
  total=$((total + both))
done
echo "  $total of 200 ($(awk -v t=$total 'BEGIN { printf "%.1f", t / 2 }')%)"

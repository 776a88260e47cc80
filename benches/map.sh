#!/usr/bin/env bash
# gem-ask map's speed and memory (issue 34), against a fake server
# (benches/map_fake.py) whose answers are the prompts reversed, so every
# output line is checked against its record. Not a test: prints figures,
# ratios and whether each target is met.
#
#   benches/map.sh [PART...]     PARTs: speed peers million storm batch (default: all)
#
#   speed    N records (10000), -j JOBS (16), the fake answering in DELAY s
#            (0.2): wall time against the ideal N x DELAY / JOBS (target
#            1.15x), gem-ask's own CPU (target under 5% of one core); then
#            the same requests from a bare Python client (map_client.py),
#            what the fake and the machine allow under the same load.
#   peers    PEER_N records (1000) in one run: gem-ask map -j JOBS,
#            `xargs -P JOBS -n 1 gem-ask` and `parallel -j JOBS -k llm`
#            (llm from PyPI in a venv under target/peers, pointed at the
#            fake as an OpenAI-compatible model, its defaults kept: each
#            prompt logged to its SQLite database); the ratios between them.
#   million  SIZES records (10000 100000 1000000), the fake answering at
#            once, -j 32: peak memory at each size (flat) and order kept;
#            with DRY_N, then DRY_N records through --dry-run (the reader,
#            template, keys and ordered writer, no request), for a size the
#            fake cannot answer in time on a loaded machine.
#   storm    STORM_N records (4000), clean, then with half the requests
#            refused (429) for STORM_S s (30): every record answered, and
#            the requests the fake counted (target at most 2x clean).
#   batch    BATCH_N records (100000) through the fake Batch API, inline
#            then in an uploaded file, then as gem-ask chooses: time and
#            memory.
#
# Environment: GEM_ASK, a gem-ask binary (default: target/release/gem-ask,
# built with `cargo build --release -p gemline-ask --bin gem-ask` if absent);
# N JOBS DELAY PEER_N SIZES STORM_N STORM_S BATCH_N as above.
set -euo pipefail

N=${N:-10000}
JOBS=${JOBS:-16}
DELAY=${DELAY:-0.2}
PEER_N=${PEER_N:-1000}
SIZES=${SIZES:-10000 100000 1000000}
DRY_N=${DRY_N:-}
STORM_N=${STORM_N:-4000}
STORM_S=${STORM_S:-30}
BATCH_N=${BATCH_N:-100000}
PARTS=${*:-speed peers million storm batch}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
WORK=${BENCH_DIR:-$TARGET/bench-map}
mkdir -p "$WORK"

gem_ask=${GEM_ASK:-$TARGET/release/gem-ask}
if [ ! -x "$gem_ask" ]; then
  (cd "$ROOT" && cargo build --release --quiet -p gemline-ask --bin gem-ask)
fi
export XDG_DATA_HOME=$WORK XDG_CONFIG_HOME=$WORK GEMINI_API_KEY=bench OPENAI_API_KEY=bench

fake_pid=
# fake DELAY [--storm S]: (re)starts the fake; its URL in $url.
fake() {
  stop_fake
  python3 "$ROOT/benches/map_fake.py" "$@" >"$WORK/fake.url" &
  fake_pid=$!
  while [ ! -s "$WORK/fake.url" ]; do sleep 0.05; done
  url=$(head -n 1 "$WORK/fake.url")
  export GEMINI_BASE_URL=$url
}
stop_fake() {
  if [ -n "$fake_pid" ]; then
    kill "$fake_pid" 2>/dev/null || true
    wait "$fake_pid" 2>/dev/null || true
    fake_pid=
  fi
  rm -f "$WORK/fake.url"
}
trap stop_fake EXIT
stat() { curl -s "$url/stats" | python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }

# records N FILE: "record 1" .. "record N", one a line.
records() { seq 1 "$1" | sed 's/^/record /' >"$2"; }

# timed NAME CMD...: runs CMD, its wall, user+sys CPU and peak RSS (KB) in
# $WORK/NAME.time; stdin and stdout as given.
timed() {
  local name=$1
  shift
  /usr/bin/time -f '%e %U %S %M' -o "$WORK/$name.time" "$@"
}
# figure NAME: "wall cpu rss_kb" of a timed run.
figure() { tail -n 1 "$WORK/$1.time" | awk '{print $1, $2 + $3, $4}'; }

# check IN OUT: every line of OUT is its record's, in order, answered.
check() {
  python3 - "$1" "$2" <<'PY'
import json, sys
inp, out = open(sys.argv[1]), open(sys.argv[2])
n = 0
for n, (want, got) in enumerate(zip(inp, out), 1):
    want, got = want.rstrip("\n"), json.loads(got)
    answer = got.get("answer")
    if "request" in got:  # --dry-run: the record's own request
        answer = got["request"]["contents"][0]["parts"][0]["text"][::-1]
    if got.get("line") != want or answer != want[::-1]:
        sys.exit(f"line {n}: {got} is not the answer of {want!r}")
rest = len(inp.readlines()) + len(out.readlines())
if rest:
    sys.exit(f"after line {n}: {rest} lines more in one of the input and the output")
print(f"order kept, {n} records answered")
PY
}

verdict() { if python3 -c "import sys; sys.exit(0 if $1 else 1)"; then echo "met"; else echo "MISSED"; fi; }

speed() {
  echo "== speed: $N records, -j $JOBS, the fake answering in ${DELAY} s; load: $(cut -d' ' -f1-3 /proc/loadavg)"
  fake "$DELAY"
  records "$N" "$WORK/in.txt"
  timed map "$gem_ask" map -j "$JOBS" '{line}' "$WORK/in.txt" >"$WORK/map.out" 2>"$WORK/map.err"
  check "$WORK/in.txt" "$WORK/map.out"
  read -r wall cpu rss < <(figure map)
  local ideal ratio share
  ideal=$(python3 -c "print($N * $DELAY / $JOBS)")
  ratio=$(python3 -c "print(f'{$wall / $ideal:.3f}')")
  share=$(python3 -c "print(f'{100 * $cpu / $wall:.2f}')")
  echo "ideal $ideal s; gem-ask map $wall s = ${ratio}x ideal (target 1.15x: $(verdict "$ratio <= 1.15"))"
  echo "gem-ask's CPU $cpu s = ${share}% of one core (target under 5%: $(verdict "$share < 5")); peak RSS $((rss / 1024)) MB; requests $(stat requests)"
  # The same requests from a bare client right after, under the same load:
  # what the fake and the machine allow.
  local bare
  bare=$(python3 "$ROOT/benches/map_client.py" "$url" "$N" "$JOBS")
  echo "bare client (benches/map_client.py, $JOBS threads) $bare s = $(python3 -c "print(f'{$bare / $ideal:.3f}')")x ideal; gem-ask map = $(python3 -c "print(f'{$wall / $bare:.3f}')")x the bare client"
}

# llm, in its own venv under target/peers, pointed at the fake.
llm_setup() {
  local venv=$TARGET/peers/llm-venv
  if [ ! -x "$venv/bin/llm" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet llm
  fi
  llm=$venv/bin/llm
  export LLM_USER_PATH=$WORK/llm
  mkdir -p "$LLM_USER_PATH"
  printf -- '- model_id: fake\n  model_name: fake\n  api_base: "%s/v1"\n' "$url" \
    >"$LLM_USER_PATH/extra-openai-models.yaml"
  # One prompt first, as a new user tries the setup: llm makes its log
  # database then (16 first runs at once race to make it).
  "$llm" -m fake 'record 0' >/dev/null
}

peers() {
  command -v parallel >/dev/null || { echo "peers: GNU parallel is not installed (apt-get install parallel)" >&2; return 1; }
  echo "== peers: $PEER_N records, $JOBS at a time, the fake answering in ${DELAY} s; load: $(cut -d' ' -f1-3 /proc/loadavg)"
  fake "$DELAY"
  llm_setup
  records "$PEER_N" "$WORK/peer.txt"
  timed pmap "$gem_ask" map -j "$JOBS" '{line}' "$WORK/peer.txt" >"$WORK/pmap.out" 2>"$WORK/pmap.err"
  check "$WORK/peer.txt" "$WORK/pmap.out"
  timed xargs xargs -P "$JOBS" -n 1 -d '\n' "$gem_ask" --no-history \
    <"$WORK/peer.txt" >"$WORK/xargs.out" 2>"$WORK/xargs.err" || true
  timed parallel parallel -j "$JOBS" -k "$llm" -m fake '{}' \
    <"$WORK/peer.txt" >"$WORK/parallel.out" 2>"$WORK/parallel.err" || true
  python3 - "$PEER_N" "$JOBS" "$DELAY" "$WORK" <<'PY'
import json, sys
n, jobs, delay, work = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
want = {f"record {i}"[::-1] for i in range(1, n + 1)}
def fig(name):
    wall, user, sys_, rss = open(f"{work}/{name}.time").read().split()[-4:]
    return float(wall), float(user) + float(sys_), int(rss)
def answered_events(path):
    got = set()
    for l in open(path):
        try:
            e = json.loads(l)
        except ValueError:
            continue
        if e.get("type") == "message" and e.get("role") == "assistant":
            got.add(e.get("content"))
    return len(want & got)
counts = {
    "pmap": sum(1 for l in open(f"{work}/pmap.out") if json.loads(l).get("answer") in want),
    "xargs": answered_events(f"{work}/xargs.out"),
    "parallel": len(want & {l.rstrip("\n") for l in open(f"{work}/parallel.out")}),
}
ideal = n * delay / jobs
names = {"pmap": f"gem-ask map -j {jobs}", "xargs": f"xargs -P {jobs} -n 1 gem-ask",
         "parallel": f"parallel -j {jobs} -k llm"}
base = fig("pmap")
print(f"ideal {ideal:.2f} s")
for k, label in names.items():
    wall, cpu, rss = fig(k)
    print(f"{label:28} {wall:8.2f} s {wall / ideal:6.2f}x ideal {wall / base[0]:6.2f}x map's time"
          f"  cpu {cpu:7.2f} s {cpu / base[1]:7.1f}x map's  answered {counts[k]}/{n}")
PY
}

million() {
  echo "== million: peak memory by size, -j 32, the fake answering at once; load: $(cut -d' ' -f1-3 /proc/loadavg)"
  fake 0
  local n wall cpu rss first=
  for n in $SIZES; do
    records "$n" "$WORK/big.txt"
    timed "big$n" "$gem_ask" map -j 32 '{line}' "$WORK/big.txt" >"$WORK/big.out" 2>"$WORK/big.err"
    read -r wall cpu rss < <(figure "big$n")
    first=${first:-$rss}
    echo "$n records: $wall s, cpu $cpu s, peak RSS $((rss / 1024)) MB ($(python3 -c "print(f'{$rss / $first:.2f}')")x the first size's); $(check "$WORK/big.txt" "$WORK/big.out")"
  done
  if [ -n "$DRY_N" ]; then
    records "$DRY_N" "$WORK/big.txt"
    timed dry "$gem_ask" map --dry-run -j 32 '{line}' "$WORK/big.txt" >"$WORK/big.out" 2>"$WORK/big.err"
    read -r wall cpu rss < <(figure dry)
    echo "$DRY_N records, --dry-run (each record's request rendered, keyed and written in order; none sent): $wall s, cpu $cpu s, peak RSS $((rss / 1024)) MB ($(python3 -c "print(f'{$rss / $first:.2f}')")x the first size's); $(check "$WORK/big.txt" "$WORK/big.out")"
  fi
  rm -f "$WORK/big.txt" "$WORK/big.out"
}

storm() {
  echo "== storm: $STORM_N records, -j $JOBS, ${DELAY} s; then half refused (429) for ${STORM_S} s; load: $(cut -d' ' -f1-3 /proc/loadavg)"
  records "$STORM_N" "$WORK/storm.txt"
  fake "$DELAY"
  timed clean "$gem_ask" map -j "$JOBS" '{line}' "$WORK/storm.txt" >"$WORK/clean.out" 2>"$WORK/clean.err"
  check "$WORK/storm.txt" "$WORK/clean.out"
  local clean refused requests
  clean=$(stat requests)
  fake "$DELAY" --storm "$STORM_S"
  timed storm "$gem_ask" map -j "$JOBS" '{line}' "$WORK/storm.txt" >"$WORK/storm.out" 2>"$WORK/storm.err" || true
  check "$WORK/storm.txt" "$WORK/storm.out"
  requests=$(stat requests)
  refused=$(stat refused)
  echo "clean: $clean requests in $(figure clean | cut -d' ' -f1) s; storm: $requests requests ($refused refused) in $(figure storm | cut -d' ' -f1) s"
  echo "$(python3 -c "print(f'{$requests / $clean:.2f}')")x the clean run's requests (target at most 2x: $(verdict "$requests <= 2 * $clean"))"
}

batch() {
  echo "== batch: $BATCH_N records through the fake Batch API; load: $(cut -d' ' -f1-3 /proc/loadavg)"
  fake 0
  records "$BATCH_N" "$WORK/batch.txt"
  local how wall cpu rss
  for how in inline file default; do
    # The API takes 20 MB inline; the fake takes it all, to compare the two.
    # default: gem-ask's own choice (a file from 1 MB of requests on).
    local max=$((1 << 40))
    [ "$how" = file ] && max=0
    [ "$how" = default ] && max=
    GEMLINE_BATCH_INLINE_MAX=$max GEMLINE_RETRY_BASE_MS=50 \
      timed "batch-$how" "$gem_ask" map --batch '{line}' "$WORK/batch.txt" >"$WORK/batch.out" 2>"$WORK/batch.err"
    read -r wall cpu rss < <(figure "batch-$how")
    echo "$how: $wall s, cpu $cpu s, peak RSS $((rss / 1024)) MB; $(check "$WORK/batch.txt" "$WORK/batch.out")"
  done
  echo "jobs $(stat jobs), uploads $(stat uploads), online requests $(stat requests)"
}

for part in $PARTS; do
  "$part"
done

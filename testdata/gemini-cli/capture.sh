#!/bin/sh
# Captures gemini-cli's headless stream against the scripted server
# (fake-gemini.mjs) into gemini-cli-0.61-stream.jsonl (or the file named
# as the first argument); see README.md.
# Needs node and gemini-cli: npm install @google/gemini-cli@0.61.0 in a
# scratch folder, its bin on PATH or GEMINI=/path/to/gemini.
# Nothing leaves the machine: the API is 127.0.0.1, and the settings turn
# off telemetry, usage statistics and update checks.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
gemini=${GEMINI:-gemini}
out=${1:-$here/gemini-cli-0.61-stream.jsonl}
scratch=$(mktemp -d)
server=
trap '[ -z "$server" ] || kill "$server" 2>/dev/null; rm -rf "$scratch"' EXIT
mkdir -p "$scratch/home/.gemini" "$scratch/work"
cat > "$scratch/home/.gemini/settings.json" <<'JSON'
{"general":{"enableAutoUpdate":false,"enableAutoUpdateNotification":false},
 "security":{"auth":{"selectedType":"gemini-api-key"}},
 "privacy":{"usageStatisticsEnabled":false},
 "telemetry":{"enabled":false}}
JSON
cp "$here/../bmw.csv" "$scratch/work/bmw.csv"
node "$here/fake-gemini.mjs" "$scratch/port" 2> "$scratch/server.log" &
server=$!
while [ ! -s "$scratch/port" ]; do
  kill -0 "$server" 2>/dev/null || { cat "$scratch/server.log" >&2; exit 1; }
  sleep 0.1
done
cd "$scratch/work"
env -i PATH="$PATH" HOME="$scratch/home" TERM=dumb \
  GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$(cat "$scratch/port")" GEMINI_API_KEY=fake-key \
  "$gemini" --skip-trust --output-format stream-json \
  -p "Compare the 0-60 times in bmw.csv and list the quickest three." \
  > "$out" 2> "$scratch/gemini.err" || {
    cat "$scratch/gemini.err" "$scratch/server.log" >&2; exit 1; }
cat "$scratch/server.log" >&2

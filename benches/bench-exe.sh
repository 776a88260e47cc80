#!/usr/bin/env bash
# Builds the bench target NAME (benches/NAME.rs, harness = false) in
# release mode and prints the path of its executable, for the scripts that
# run it directly (pinned to a core, with their own flags).
#
#   benches/bench-exe.sh NAME
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench --quiet --bench "$1" --no-run >/dev/null 2>&1
cargo bench --bench "$1" --no-run --message-format=json 2>/dev/null |
  python3 -c 'import json, sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == sys.argv[1] and m.get("executable"):
        print(m["executable"])' "$1"

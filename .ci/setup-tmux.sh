#!/usr/bin/env bash
# tmux for the tests that drive the programs in a real terminal
# (tests/it/gem_ask_markdown_tty.rs and the live-chart and REPL tests).
set -euo pipefail
if ! command -v tmux >/dev/null 2>&1; then
    echo "setup-tmux: installing tmux (apt)" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq tmux >/dev/null
fi
tmux -V >&2

#!/usr/bin/env bash
# Installs tmux, the real terminal tests/gem_ask_repl.rs drives gem-ask -i
# in (apt). Idempotent: an installed tmux is kept.
set -euo pipefail
if ! command -v tmux >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq tmux >/dev/null
fi
echo "setup-tmux: $(tmux -V)"

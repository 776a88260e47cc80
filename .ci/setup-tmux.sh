#!/usr/bin/env bash
# Installs tmux, the real terminal tests/live.rs drives `viz-parse --follow
# | viz-render --live` in (a detached session, captured screen by screen).
# Idempotent: an installed tmux is kept.
set -euo pipefail
if ! command -v tmux >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux >/dev/null
fi
echo "setup-tmux: $(tmux -V)"

#!/usr/bin/env bash
# Installs what tests/it/shell_integration.rs needs: zsh and fish (the
# completions must load in them), man-db (`man -l` opens the installed man
# pages) and make (`make install DESTDIR=...`). Debian/Ubuntu, through apt;
# idempotent: nothing is installed when all four are there.
set -euo pipefail
missing=()
command -v zsh >/dev/null || missing+=(zsh)
command -v fish >/dev/null || missing+=(fish)
command -v man >/dev/null || missing+=(man-db)
command -v make >/dev/null || missing+=(make)
if ((${#missing[@]})); then
    sudo=()
    if [[ $(id -u) -ne 0 ]]; then sudo=(sudo); fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
zsh --version >/dev/null
fish --version >/dev/null
man --version >/dev/null
make --version >/dev/null
echo "setup-shells: zsh, fish, man and make are installed"

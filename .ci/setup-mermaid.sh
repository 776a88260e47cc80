#!/usr/bin/env bash
# Installs the real mermaid parser that checks `viz-render --format
# markdown` (tests/viz_render_report.rs runs tests/mermaid/check.mjs with
# it) under target/mermaid/node, pinned by tests/mermaid/package-lock.json:
#   mermaid (mermaid.parse, as GitHub's and GitLab's renderers use it) and
#   jsdom (the DOM mermaid needs before it can be imported under node).
# Installs node and npm from Debian when they are missing. Idempotent: an
# install matching the lock file is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
dest="$PWD/target/mermaid/node"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi

mkdir -p "$dest"
if [[ ! -f "$dest/node_modules/mermaid/package.json" ]] \
    || ! cmp -s tests/mermaid/package-lock.json "$dest/package-lock.json"; then
    cp tests/mermaid/package.json tests/mermaid/package-lock.json "$dest/"
    npm ci --prefix "$dest" --no-audit --no-fund --loglevel=error
fi

node -e 'require(process.argv[1] + "/node_modules/jsdom")' "$dest"
echo "setup-mermaid: mermaid and jsdom are in $dest"

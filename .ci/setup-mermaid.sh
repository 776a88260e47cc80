#!/usr/bin/env bash
# Installs the real mermaid parser that checks `viz-render --format
# markdown` (tests/it/viz_render_report.rs runs tests/mermaid/check.mjs with
# it) under target/mermaid/node, pinned by tests/mermaid/package-lock.json:
#   mermaid (mermaid.parse, as GitHub's and GitLab's renderers use it) and
#   jsdom (the DOM mermaid needs before it can be imported under node).
set -euo pipefail
cd "$(dirname "$0")/.."
dest="$PWD/target/mermaid/node"
.ci/npm-install.sh tests/mermaid "$dest" node_modules/mermaid/package.json jsdom
echo "setup-mermaid: mermaid and jsdom are in $dest"

#!/usr/bin/env bash
# Installs the real Vega tools that check `viz-render --format vega-lite`
# (tests/it/viz_render_vegalite.rs runs tests/vega/check.mjs with them) under
# target/vega/node, pinned by tests/vega/package-lock.json:
#   vega-lite (the compiler and its official v5 JSON schema), vega (the
#   headless View that renders SVG), ajv + ajv-formats (the schema check).
set -euo pipefail
cd "$(dirname "$0")/.."
dest="$PWD/target/vega/node"
.ci/npm-install.sh tests/vega "$dest" node_modules/vega-lite/build/vega-lite-schema.json vega-lite vega
echo "setup-vega: vega-lite, vega and ajv are in $dest"

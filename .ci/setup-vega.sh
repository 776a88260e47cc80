#!/usr/bin/env bash
# Installs the real Vega tools that check `viz-render --format vega-lite`
# (tests/viz_render_vegalite.rs runs tests/vega/check.mjs with them) under
# target/vega/node, pinned by tests/vega/package-lock.json:
#   vega-lite (the compiler and its official v5 JSON schema), vega (the
#   headless View that renders SVG), ajv + ajv-formats (the schema check).
# Installs node and npm from Debian when they are missing. Idempotent: an
# install matching the lock file is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
dest="$PWD/target/vega/node"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi

mkdir -p "$dest"
if [[ ! -f "$dest/node_modules/vega-lite/build/vega-lite-schema.json" ]] \
    || ! cmp -s tests/vega/package-lock.json "$dest/package-lock.json"; then
    cp tests/vega/package.json tests/vega/package-lock.json "$dest/"
    npm ci --prefix "$dest" --no-audit --no-fund --loglevel=error
fi

node -e 'require(process.argv[1] + "/node_modules/vega-lite"); require(process.argv[1] + "/node_modules/vega")' "$dest"
echo "setup-vega: vega-lite, vega and ajv are in $dest"

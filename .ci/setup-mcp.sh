#!/usr/bin/env bash
# Installs the MCP servers the gem-ask MCP tests run against, under target/mcp:
#   target/mcp/venv/bin/mcp-server-time          (PyPI: mcp-server-time)
#   target/mcp/node/node_modules/.bin/mcp-server-everything
#                                                (npm, pinned by tests/mcp/package-lock.json;
#                                                 the HTTP tests start it as streamableHttp and sse)
# Idempotent: an existing install is kept. Needs python3 (with venv) and npm.
set -euo pipefail
cd "$(dirname "$0")/.."
dest="$PWD/target/mcp"
mkdir -p "$dest/node"

if [[ ! -x "$dest/venv/bin/mcp-server-time" ]]; then
    "${PYTHON:-python3}" -m venv "$dest/venv"
    "$dest/venv/bin/pip" install --quiet --disable-pip-version-check mcp-server-time
fi

if [[ ! -x "$dest/node/node_modules/.bin/mcp-server-everything" ]] \
    || ! cmp -s tests/mcp/package-lock.json "$dest/node/package-lock.json"; then
    cp tests/mcp/package.json tests/mcp/package-lock.json "$dest/node/"
    npm ci --prefix "$dest/node" --no-audit --no-fund --loglevel=error
fi

"$dest/venv/bin/mcp-server-time" --help >/dev/null
test -x "$dest/node/node_modules/.bin/mcp-server-everything"
echo "setup-mcp: mcp-server-time and server-everything are in $dest"

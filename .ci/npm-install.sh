#!/usr/bin/env bash
# Installs a test's pinned npm packages: the package.json and
# package-lock.json in LOCK_DIR go to DEST, then `npm ci` there. Installs
# node and npm from Debian when they are missing. Idempotent: an install
# whose lock file matches and whose MARKER file (under DEST) exists is kept.
# Then each MODULE must load under node.
#
#   .ci/npm-install.sh LOCK_DIR DEST MARKER MODULE...
set -euo pipefail
lock_dir=$1 dest=$2 marker=$3
shift 3

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi

mkdir -p "$dest"
if [[ ! -f "$dest/$marker" ]] || ! cmp -s "$lock_dir/package-lock.json" "$dest/package-lock.json"; then
    cp "$lock_dir/package.json" "$lock_dir/package-lock.json" "$dest/"
    npm ci --prefix "$dest" --no-audit --no-fund --loglevel=error
fi

for module in "$@"; do
    node -e 'require(process.argv[1] + "/node_modules/" + process.argv[2])' "$dest" "$module"
done

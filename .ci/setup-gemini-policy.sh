#!/usr/bin/env bash
# Installs gemini-cli's core package (pinned by tests/gemini-policy/package-lock.json)
# under target/gemini-policy/node: tests/it/gem_ask_policy.rs reads its own policy
# files (dist/src/policy/policies/*.toml) with gem-ask's policy reader.
set -euo pipefail
cd "$(dirname "$0")/.."
dest="$PWD/target/gemini-policy/node"
.ci/npm-install.sh tests/gemini-policy "$dest" node_modules/@google/gemini-cli-core/package.json
echo "setup-gemini-policy: @google/gemini-cli-core is in $dest"

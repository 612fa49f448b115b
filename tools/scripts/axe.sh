#!/usr/bin/env bash
# Installs axe-core (npm), pinned by tools/axe/package-lock.json, into .cache/
# (gitignored), once per lock file, and prints the path of axe.min.js. The
# browser tests (internal/browsertest: the consent pages, the developer
# console) run its accessibility rules on each step of a page.
set -euo pipefail
cd "$(dirname "$0")/../.."

dir=$(./tools/scripts/npm-tool.sh axe)
printf '%s\n' "$dir/node_modules/axe-core/axe.min.js"

#!/usr/bin/env bash
# Installs axe-core (npm), pinned by tools/axe/package-lock.json, into .cache/
# (gitignored), once per lock file, and prints the path of axe.min.js. The
# browser tests (internal/browsertest: the consent pages, the developer
# console) run its accessibility rules on each step of a page.
set -euo pipefail
cd "$(dirname "$0")/../.."

lock=tools/axe/package-lock.json
dir=.cache/axe/$(sha256sum "$lock" | cut -c1-16)
if [ ! -f "$dir/node_modules/axe-core/axe.min.js" ]; then
	rm -rf "$dir"
	mkdir -p "$dir"
	cp tools/axe/package.json "$lock" "$dir/"
	(cd "$dir" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error) >&2
fi
printf '%s\n' "$PWD/$dir/node_modules/axe-core/axe.min.js"

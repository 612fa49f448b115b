#!/usr/bin/env bash
# Installs the Standard Webhooks reference library (npm standardwebhooks),
# pinned by tools/standardwebhooks/package-lock.json, into .cache/ (gitignored),
# once per lock file, and prints the folder that holds its node_modules. The
# webhook delivery test (services/webhooks/delivery) runs a small node verifier
# against it, so signatures are checked by code the platform did not write.
set -euo pipefail
cd "$(dirname "$0")/../.."

lock=tools/standardwebhooks/package-lock.json
dir=.cache/standardwebhooks/$(sha256sum "$lock" | cut -c1-16)
if [ ! -f "$dir/node_modules/standardwebhooks/package.json" ]; then
	rm -rf "$dir"
	mkdir -p "$dir"
	cp tools/standardwebhooks/package.json "$lock" "$dir/"
	(cd "$dir" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error) >&2
fi
printf '%s\n' "$PWD/$dir"

#!/usr/bin/env bash
# Installs date-holidays (npm), a maintained holiday data set pinned by
# tools/dateholidays/package-lock.json, into .cache/ (gitignored), once per
# lock file, and prints the folder that holds its node_modules. The shipping
# calendar's test (services/shipping/calendar) cross-checks the shipped
# calendar files against it, so the proclaimed days are checked by data the
# platform did not type.
set -euo pipefail
cd "$(dirname "$0")/../.."

lock=tools/dateholidays/package-lock.json
dir=.cache/dateholidays/$(sha256sum "$lock" | cut -c1-16)
if [ ! -f "$dir/node_modules/date-holidays/package.json" ]; then
	rm -rf "$dir"
	mkdir -p "$dir"
	cp tools/dateholidays/package.json "$lock" "$dir/"
	(cd "$dir" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error) >&2
fi
printf '%s\n' "$PWD/$dir"

#!/usr/bin/env bash
# Lints the committed OpenAPI documents (/open/v1 and the console) with Redocly CLI, a linter that shares
# no code with internal/openapi, which writes it. The CLI is pinned by
# tools/openapi-lint/package-lock.json and installed from the npm registry
# into .cache/ (gitignored), once per lock file. Any error fails; warnings
# are printed and counted.
set -euo pipefail
cd "$(dirname "$0")/../.."

lock=tools/openapi-lint/package-lock.json
dir=.cache/openapi-lint/$(sha256sum "$lock" | cut -c1-16)
if [ ! -x "$dir/node_modules/.bin/redocly" ]; then
	rm -rf "$dir"
	mkdir -p "$dir"
	cp tools/openapi-lint/package.json "$lock" "$dir/"
	(cd "$dir" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
fi
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
	"$dir/node_modules/.bin/redocly" lint --config tools/openapi-lint/redocly.yaml gen/openapi/openapi.json gen/openapi/console.json "$@"

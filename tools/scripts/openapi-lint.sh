#!/usr/bin/env bash
# Lints the committed OpenAPI documents (/open/v1 and the console) with Redocly CLI, a linter that shares
# no code with internal/openapi, which writes it. The CLI is pinned by
# tools/openapi-lint/package-lock.json and installed from the npm registry
# into .cache/ (gitignored), once per lock file. Any error fails; warnings
# are printed and counted.
set -euo pipefail
cd "$(dirname "$0")/../.."

dir=$(./tools/scripts/npm-tool.sh openapi-lint)
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
	"$dir/node_modules/.bin/redocly" lint --config tools/openapi-lint/redocly.yaml gen/openapi/openapi.json gen/openapi/console.json "$@"

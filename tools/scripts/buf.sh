#!/usr/bin/env bash
# Runs buf with the given arguments: the release's own binary from npm,
# pinned by tools/buf/package-lock.json (version and integrity of the package
# of every platform) and installed into .cache/ (gitignored) once per lock
# file. A new machine downloads it in seconds, where building it from the
# module proxy took minutes (docs/decisions.md, "CI time"). The protoc
# plugins buf runs stay in tools/generators.mod.
set -euo pipefail
dir=$("$(dirname "$0")/npm-tool.sh" buf)
exec "$dir/node_modules/.bin/buf" "$@"

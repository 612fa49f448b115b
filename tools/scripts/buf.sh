#!/usr/bin/env bash
# Runs buf with the given arguments: the release's own binary from npm,
# pinned by tools/buf/package-lock.json (version and integrity of the package
# of every platform) and installed into .cache/ (gitignored) once per lock
# file. A new machine downloads it in seconds, where building it from the
# module proxy took minutes (docs/decisions.md, "CI time"). The protoc
# plugins buf runs stay in tools/generators.mod.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"

lock="$root/tools/buf/package-lock.json"
dir="$root/.cache/buf/$(sha256sum "$lock" | cut -c1-16)"
if [ ! -x "$dir/node_modules/.bin/buf" ]; then
	rm -rf "$dir"
	mkdir -p "$dir"
	cp "$root/tools/buf/package.json" "$lock" "$dir/"
	(cd "$dir" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error) >&2
fi
exec "$dir/node_modules/.bin/buf" "$@"

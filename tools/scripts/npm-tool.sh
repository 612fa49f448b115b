#!/usr/bin/env bash
# npm-tool.sh NAME: installs the npm packages that tools/NAME/package-lock.json
# pins (versions and integrity) into .cache/npm/NAME-<digest of the lock>
# (gitignored), once per lock file, and prints that folder. The scripts
# beside it that need a pinned npm tool (axe, buf, date-holidays, Redocly,
# the Standard Webhooks library) all install through it. A new lock gets a
# new folder; an install is built in a folder of its own and renamed into
# place, so a run that stops half-way or two runs at once never leave a
# folder that looks installed and is not.
set -euo pipefail
name=${1:?usage: npm-tool.sh NAME}
root="$(cd "$(dirname "$0")/../.." && pwd)"

lock="$root/tools/$name/package-lock.json"
dir="$root/.cache/npm/$name-$(sha256sum "$lock" | cut -c1-16)"
if [ ! -d "$dir" ]; then
	mkdir -p "$root/.cache/npm"
	tmp=$(mktemp -d "$root/.cache/npm/.$name.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	cp "$root/tools/$name/package.json" "$lock" "$tmp/"
	(cd "$tmp" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error) >&2
	mv -T "$tmp" "$dir" 2>/dev/null || true # another run renamed its install first: keep that one
fi
printf '%s\n' "$dir"

#!/usr/bin/env bash
# Installs date-holidays (npm), a maintained holiday data set pinned by
# tools/dateholidays/package-lock.json, into .cache/ (gitignored), once per
# lock file, and prints the folder that holds its node_modules. The shipping
# calendar's test (services/shipping/calendar) cross-checks the shipped
# calendar files against it, so the proclaimed days are checked by data the
# platform did not type.
set -euo pipefail
cd "$(dirname "$0")/../.."

./tools/scripts/npm-tool.sh dateholidays

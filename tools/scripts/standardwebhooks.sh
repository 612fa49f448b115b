#!/usr/bin/env bash
# Installs the Standard Webhooks reference library (npm standardwebhooks),
# pinned by tools/standardwebhooks/package-lock.json, into .cache/ (gitignored),
# once per lock file, and prints the folder that holds its node_modules. The
# webhook delivery test (services/webhooks/delivery) runs a small node verifier
# against it, so signatures are checked by code the platform did not write.
set -euo pipefail
cd "$(dirname "$0")/../.."

./tools/scripts/npm-tool.sh standardwebhooks

#!/usr/bin/env bash
# Installs Debian's chromium when it is missing and prints its path. The
# browser tests (the consent pages, the developer console) drive it headless
# from Go through internal/browsertest (chromedp); under CI=true they fail
# rather than skip without it.
set -euo pipefail

as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }

bin=${MP_CHROMIUM:-}
if [[ -z "$bin" ]]; then
  bin=$(command -v chromium || true)
fi
if [[ -z "$bin" ]]; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
  bin=$(command -v chromium)
fi
"$bin" --version >&2
printf '%s\n' "$bin"

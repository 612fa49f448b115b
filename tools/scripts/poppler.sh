#!/usr/bin/env bash
# Installs Debian's poppler-utils when pdftoppm is missing and prints its path.
# The shipping label tests (services/shipping/label) rasterise labels with
# pdftoppm to decode their barcodes back, and read their text with pdftotext
# and pdfinfo; under CI=true those tests fail rather than skip without them.
set -euo pipefail

as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }

bin=$(command -v pdftoppm || true)
if [[ -z "$bin" ]]; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends poppler-utils >/dev/null
  bin=$(command -v pdftoppm)
fi
"$bin" -v >&2
printf '%s\n' "$bin"

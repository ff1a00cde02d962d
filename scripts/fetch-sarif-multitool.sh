#!/bin/sh
# Fetch Microsoft's SARIF multitool (npm @microsoft/sarif-multitool, with GitHub's ingestion
# rules) for the SARIF test (tests/test_sarif_multitool.py), idempotently. Test-only: it lands
# in tests/.cache/sarif-multitool-<version>/ (gitignored). The npm wrapper passes its arguments
# through a shell, which splits `--rule-kind "Sarif;Gh"` at the `;`: the test runs the platform
# binary this prints.
# Usage: scripts/fetch-sarif-multitool.sh [destination folder]; prints the binary's path.
set -eu

VERSION=5.7.0
HERE=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
DEST=${1:-"$HERE/../tests/.cache/sarif-multitool-$VERSION"}
BINARY="$DEST/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"

if [ ! -x "$BINARY" ]; then
    mkdir -p "$DEST"
    npm install --prefix "$DEST" --silent --no-audit --no-fund --no-save \
        "@microsoft/sarif-multitool@$VERSION" >/dev/null
fi
echo "$(cd "$(dirname "$BINARY")" && pwd)/Sarif.Multitool"

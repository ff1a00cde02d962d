#!/bin/sh
# Fetch Redocly CLI (npm @redocly/cli) for the OpenAPI consumers' test
# (tests/web/test_openapi_consumers.py), idempotently. Test-only: it lands in
# tests/.cache/redocly-<version>/ (gitignored).
# Usage: scripts/fetch-redocly.sh [destination folder]; prints the command's path.
set -eu

VERSION=2.77.0
HERE=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
DEST=${1:-"$HERE/../tests/.cache/redocly-$VERSION"}
BINARY="$DEST/node_modules/.bin/redocly"

if [ ! -x "$BINARY" ]; then
    mkdir -p "$DEST"
    npm install --prefix "$DEST" --silent --no-audit --no-fund --no-save \
        "@redocly/cli@$VERSION" >/dev/null
fi
echo "$(cd "$(dirname "$BINARY")" && pwd)/redocly"

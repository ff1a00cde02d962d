#!/bin/sh
# Fetch axe-core's axe.min.js for the browser accessibility test (tests/browser), idempotently.
# Test-only: the file lands in tests/.cache/axe-core-<version>/ (gitignored), never in static/.
# Usage: scripts/fetch-axe.sh [destination folder]
set -eu

VERSION=4.14.1
HERE=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
DEST=${1:-"$HERE/../tests/.cache/axe-core-$VERSION"}

mkdir -p "$DEST"
cd "$DEST"
if [ -s axe.min.js ]; then
    exit 0
fi
TARBALL=axe-core-$VERSION.tgz
if [ ! -s "$TARBALL" ]; then
    npm pack "axe-core@$VERSION" --silent >/dev/null
fi
tar -xzf "$TARBALL" package/axe.min.js package/LICENSE
mv package/axe.min.js axe.min.js.tmp
mv package/LICENSE LICENSE
rmdir package
mv axe.min.js.tmp axe.min.js  # last, so a half-done run never looks finished
rm -f "$TARBALL"
echo "axe-core $VERSION: $(pwd)/axe.min.js"

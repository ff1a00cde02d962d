#!/bin/sh
# Fetch the W3C Nu Html Checker (npm vnu-jar) for the page validation test (tests/test_crawl.py),
# idempotently. Test-only: it lands in tests/.cache/vnu-jar-<version>/ (gitignored). It runs on
# Java from Debian (scripts/system-deps.sh installs default-jre-headless).
# Usage: scripts/fetch-vnu.sh [destination folder]; prints the jar's path.
set -eu

VERSION=26.9.27
HERE=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
DEST=${1:-"$HERE/../tests/.cache/vnu-jar-$VERSION"}
JAR="$DEST/node_modules/vnu-jar/build/dist/vnu.jar"

if [ ! -s "$JAR" ]; then
    mkdir -p "$DEST"
    npm install --prefix "$DEST" --silent --no-audit --no-fund --no-save "vnu-jar@$VERSION" >/dev/null
fi
echo "$(cd "$(dirname "$JAR")" && pwd)/vnu.jar"

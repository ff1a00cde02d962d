#!/bin/sh
# Fetch the MCP Inspector (npm @modelcontextprotocol/inspector, whose --cli mode lists and
# calls a server's tools and resources) for tests/test_mcp_inspector.py, idempotently.
# Test-only: it lands in tests/.cache/mcp-inspector-<version>/ (gitignored).
# Usage: scripts/fetch-mcp-inspector.sh [destination folder]; prints the CLI's path.
set -eu

VERSION=2.12.0
HERE=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
DEST=${1:-"$HERE/../tests/.cache/mcp-inspector-$VERSION"}
CLI="$DEST/node_modules/.bin/mcp-inspector"

if [ ! -x "$CLI" ]; then
    mkdir -p "$DEST"
    npm install --prefix "$DEST" --silent --no-audit --no-fund --no-save \
        "@modelcontextprotocol/inspector@$VERSION" >/dev/null
fi
echo "$(cd "$(dirname "$CLI")" && pwd)/mcp-inspector"

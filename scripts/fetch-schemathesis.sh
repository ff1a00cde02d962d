#!/bin/sh
# Fetch schemathesis (PyPI) for the OpenAPI consumers' test (tests/web/test_openapi_consumers.py),
# idempotently, into a virtualenv of its own: tests/.cache/schemathesis-<version>/ (gitignored).
# Its own, because schemathesis pins jsonschema-rs below the version the service runs on; it
# talks to the service over HTTP only. Every package is pinned (scripts/schemathesis-constraints.txt).
# Usage: scripts/fetch-schemathesis.sh [destination folder]; prints the command's path.
set -eu

VERSION=4.32.5
HERE=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
DEST=${1:-"$HERE/../tests/.cache/schemathesis-$VERSION"}
BINARY="$DEST/bin/schemathesis"
PYTHON=${PYTHON:-python3}

if [ ! -x "$BINARY" ]; then
    rm -rf "$DEST"
    "$PYTHON" -m venv "$DEST"
    "$DEST/bin/pip" install --quiet --disable-pip-version-check \
        -c "$HERE/schemathesis-constraints.txt" "schemathesis==$VERSION" >/dev/null
fi
echo "$(cd "$(dirname "$BINARY")" && pwd)/schemathesis"

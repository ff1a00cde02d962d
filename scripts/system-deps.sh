#!/usr/bin/env bash
# Installs the system packages the tests need, when they are missing: Debian's Chromium for
# the browser tests (never `playwright install`, which cannot download here) and PostgreSQL
# for the store tests, Java for the HTML checker. Idempotent; a no-op when everything is present.
set -euo pipefail

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
# Java for the W3C Nu Html Checker (the page validation test, scripts/fetch-vnu.sh)
command -v java >/dev/null 2>&1 || missing+=(default-jre-headless)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "system-deps: missing ${missing[*]}; install them with apt-get as root" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "system-deps: installed ${missing[*]}"

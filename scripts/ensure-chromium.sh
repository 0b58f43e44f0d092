#!/usr/bin/env bash
# End-to-end tests drive Debian's Chromium (browsers cannot be downloaded here).
set -euo pipefail
CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Chromium not found at $CHROMIUM: installing Debian's chromium package..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "End-to-end tests need Chromium at $CHROMIUM." >&2
echo "Install it as root with:  apt-get update && apt-get install -y chromium" >&2
echo "(or point CHROMIUM_PATH at another Chromium build)" >&2
exit 1

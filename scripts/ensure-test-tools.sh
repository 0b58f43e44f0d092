#!/usr/bin/env bash
# The tests drive Debian's Chromium (browsers cannot be downloaded here), start Debian's redis-server for
# the two-instance tests, Debian's nginx as a real reverse proxy, Debian's PostgreSQL 15 for the settings
# store, Debian's poppler-utils to read the printed report's PDF back and LibreOffice Calc to read an exported
# workbook back. Installs what is missing when run as root.
set -euo pipefail
CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}
missing=()
[ -x "$CHROMIUM" ] || missing+=(chromium)
command -v redis-server >/dev/null || missing+=(redis-server)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
# PostgreSQL 15's server binaries (tests start their own server on loopback), and Chromium's German locale
# files (the browser tests read the German date field).
[ -x /usr/lib/postgresql/15/bin/postgres ] || missing+=(postgresql)
dpkg -s chromium-l10n >/dev/null 2>&1 || missing+=(chromium-l10n)
# pdftotext and pdftoppm read the printed report back (print-report.spec.ts).
command -v pdftotext >/dev/null || missing+=(poppler-utils)
# LibreOffice Calc without its GUI: the export spec converts a workbook with it, a reader that is not its writer.
command -v soffice >/dev/null || missing+=(libreoffice-calc-nogui)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's ${missing[*]} for the end-to-end tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  exit 0
fi
echo "The tests need: ${missing[*]} (Chromium at $CHROMIUM, redis-server, nginx and pdftotext on the PATH, PostgreSQL 15 in /usr/lib/postgresql/15)." >&2
echo "The tests need: ${missing[*]} (Chromium at $CHROMIUM, redis-server and nginx on the PATH, PostgreSQL 15 in /usr/lib/postgresql/15, soffice on the PATH)." >&2
echo "Install as root with:  apt-get update && apt-get install -y ${missing[*]}" >&2
echo "(or point CHROMIUM_PATH at another Chromium build)" >&2
exit 1

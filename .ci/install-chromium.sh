#!/bin/sh
# Installs Debian's chromium for the report's browser tests (playwright-core drives /usr/bin/chromium;
# playwright's own browser download does not work here). Idempotent: does nothing when it is present.
set -eu
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
test -x /usr/bin/chromium

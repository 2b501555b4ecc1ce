#!/usr/bin/env bash
# Installs Debian's Chromium and ChromeDriver for the browser tests, unless they are already there.
set -euo pipefail

if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-browser: apt-get not found; install Chromium and ChromeDriver" \
         "(/usr/bin/chromium, /usr/bin/chromedriver) by hand" >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
echo "install-browser: installing chromium and chromium-driver with apt-get"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null

#!/usr/bin/env bash
# Installs Debian's Chromium and ChromeDriver for the browser tests, unless they are already there.
set -euo pipefail
exec bash "$(dirname "$0")/apt-install.sh" install-browser /usr/bin/chromium /usr/bin/chromedriver \
    -- chromium chromium-driver

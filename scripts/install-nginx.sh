#!/usr/bin/env bash
# Installs Debian's nginx for the tests of the proxied deployment, unless it is already there.
# The tests run it as an unprivileged process on a spare port with a generated config; they never
# use the system's /etc/nginx site. (Debian starts that site after installing unless the
# machine's policy-rc.d forbids it, as container images' does.)
set -euo pipefail

if [ -x /usr/sbin/nginx ]; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-nginx: apt-get not found; install nginx (/usr/sbin/nginx) by hand" >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
echo "install-nginx: installing nginx with apt-get"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends nginx >/dev/null

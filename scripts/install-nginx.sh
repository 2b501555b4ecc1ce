#!/usr/bin/env bash
# Installs Debian's nginx for the tests of the proxied deployment, unless it is already there.
# The tests run it as an unprivileged process on a spare port with a generated config; they never
# use the system's /etc/nginx site. (Debian starts that site after installing unless the
# machine's policy-rc.d forbids it, as container images' does.)
set -euo pipefail
exec bash "$(dirname "$0")/apt-install.sh" install-nginx /usr/sbin/nginx -- nginx

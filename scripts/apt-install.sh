#!/usr/bin/env bash
# Installs Debian packages with apt-get unless the programs they provide are already there.
#   apt-install.sh WHAT PROGRAM... -- PACKAGE...
set -euo pipefail

what="$1"
shift
programs=()
while [ "$1" != "--" ]; do
    programs+=("$1")
    shift
done
shift
missing=0
for program in "${programs[@]}"; do
    [ -x "$program" ] || missing=1
done
if [ "$missing" -eq 0 ]; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "$what: apt-get not found; install $* (${programs[*]}) by hand" >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
echo "$what: installing $* with apt-get"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null

#!/bin/sh
# Installs the Debian packages praca needs, only those that are missing.
# Usage: scripts/install-deps.sh [build|test]   (test adds what `make check` needs)
set -eu
want="pkg-config gcc make libuv1-dev libhttp-parser-dev libjansson-dev libsqlite3-dev libssl-dev"
if [ "${1:-build}" = test ]; then
    want="$want clang libclang-rt-14-dev libcriterion-dev clang-format nodejs npm"
fi
missing=""
for p in $want; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing

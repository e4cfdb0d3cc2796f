#!/bin/sh
# Installs the Debian packages praca needs, only those that are missing.
# Usage: scripts/install-deps.sh [build|test]   (test adds what `make check` needs)
set -eu
want="pkg-config gcc make libuv1-dev libhttp-parser-dev libjansson-dev libsqlite3-dev libpq-dev libhiredis-dev libssl-dev libargon2-dev libwslay-dev libcurl4-openssl-dev libvips-dev libmagic-dev zlib1g-dev"
if [ "${1:-build}" = test ]; then
    want="$want clang libclang-rt-14-dev libcriterion-dev clang-format"
    want="$want python3-socketio python3-websocket python3-requests"
    # examples/voice_bot.py speaks in a voice channel: WebRTC in Python, over asyncio.
    want="$want python3-aiohttp python3-aiortc"
    # tests/e2e/email.test.js mails through a real SMTP server.
    want="$want python3-aiosmtpd"
    # examples/webhook.sh is run as it is written, with curl.
    want="$want curl"
    # The end-to-end suites run a second time on a throwaway PostgreSQL cluster.
    want="$want postgresql redis-server"
    # deploy/nginx/praca.conf is tried in front of a real praca.
    want="$want nginx-light"
    # The web pages are tested in headless Chromium driven by playwright-core; the emoji font
    # makes reactions in the screenshots look as they do on people's machines.
    want="$want chromium fonts-noto-color-emoji"
    # Voice calls between pages are tried through a real TURN server, and past a mesh through
    # a real SFU (Janus's VideoRoom).
    want="$want coturn janus"
fi
# `make run` with a TURN server of its own (PRACA_TURN_URL set): coturn, started as
# deploy/coturn/turnserver.conf shows.
[ -n "${PRACA_TURN_URL:-}" ] && want="$want coturn"
# `make run` with an SFU of its own (PRACA_SFU_URL set): Janus, set up as deploy/janus/ shows.
[ -n "${PRACA_SFU_URL:-}" ] && want="$want janus"
missing=""
for p in $want; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
# Node.js may come from elsewhere than Debian (with npm inside): look for the commands.
if [ "${1:-build}" = test ]; then
    command -v node >/dev/null 2>&1 || missing="$missing nodejs"
    command -v npm >/dev/null 2>&1 || missing="$missing npm"
fi
[ -z "$missing" ] && exit 0
echo "installing:$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing

#!/bin/sh
# A large server against a small one (bench/large_server.js says what is measured and how the
# members are seeded). MEMBERS, SMALL, MESSAGES and ROUNDS choose the sizes.
#   bench/large_server.sh                        (100,000 members, 1,000,000 messages)
#   MEMBERS=10000 MESSAGES=0 bench/large_server.sh
set -e
cd "$(dirname "$0")/.."
[ -x "${PRACA_BIN:-build/praca}" ] || make build/praca
# The raw fan-out runs the side by side's load generator, whose packages it installs as
# side-by-side.sh does.
loadgen="${LOADGEN:-../shared/bench-peer}/loadgen"
if [ -d "$loadgen" ] && [ ! -d "$loadgen/node_modules" ]; then
    (cd "$loadgen" && npm install --no-audit --no-fund >/dev/null 2>&1) || echo "cannot install $loadgen's packages: no raw fan-out" >&2
fi
PRACA_BIN="${PRACA_BIN:-build/praca}" exec node bench/large_server.js

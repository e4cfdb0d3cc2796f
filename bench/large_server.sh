#!/bin/sh
# A large server against a small one (bench/large_server.js says what is measured and how the
# members are seeded). MEMBERS, SMALL, MESSAGES and ROUNDS choose the sizes.
#   bench/large_server.sh                        (100,000 members, 1,000,000 messages)
#   MEMBERS=10000 MESSAGES=0 bench/large_server.sh
set -e
cd "$(dirname "$0")/.."
[ -x "${PRACA_BIN:-build/praca}" ] || make build/praca
PRACA_BIN="${PRACA_BIN:-build/praca}" exec node bench/large_server.js

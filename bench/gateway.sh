#!/usr/bin/env bash
# Gateway benchmarks: 10,000 WebSocket connections (RSS and CPU per connection, idle cost), then
# fan-out to 1,000 and 5,000 bots (latency from the POST, deliveries per second, losses), then
# voice signal relay between pairs of people in one voice channel.
#   bench/gateway.sh [connections] [bots] [rate] [seconds] [voice pairs]
set -euo pipefail
cd "$(dirname "$0")/.."
conns=${1:-10000}
bots=${2:-1000}
rate=${3:-20}
secs=${4:-10}
make -s build/praca
[ -d node_modules/ws ] || npm ci --no-audit --no-fund
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
dir=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$dir"' EXIT
start() {
    PRACA_RATE_LIMIT_SCALE=1000000 build/praca serve --port 0 --data "$dir/$1.db" --log-level 2 > "$dir/$1.out" &
    pid=$!
    for _ in $(seq 50); do grep -q listening "$dir/$1.out" && break; sleep 0.1; done
    base=$(sed -n 's/^listening on //p' "$dir/$1.out")
}
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) cores"
start connect
node bench/gateway.js "$base" "$pid" connect "$conns"
kill "$pid"; wait "$pid" 2>/dev/null || true
start fanout
node bench/gateway.js "$base" "$pid" fanout "$bots" "$rate" "$secs"
kill "$pid"; wait "$pid" 2>/dev/null || true
start signal
node bench/gateway.js "$base" "$pid" signal "${5:-50}" "$secs"

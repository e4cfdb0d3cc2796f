#!/usr/bin/env bash
# Server CPU per delivered event, one node on PostgreSQL next to two nodes over PostgreSQL +
# Redis, in one sitting: BOTS bots connected, messages posted at RATE per second for SECONDS.
# On one node the figure includes the sends; on two, the bots are on the second node and the
# posts go to the first, so the second's CPU is what following the stream and delivering cost.
#   bench/shared_fanout.sh [BOTS] [RATE] [SECONDS]      default: 1000 20 10
# Needs Debian's postgresql and redis-server.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bots=${1:-1000}
rate=${2:-20}
secs=${3:-10}
# shellcheck source=bench/shared_env.sh
. "$here/bench/shared_env.sh"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) cores, $bots bots, $rate messages/s for $secs s"
psql "$pg/postgres" -qc "CREATE DATABASE fanout1"
psql "$pg/postgres" -qc "CREATE DATABASE fanout2"

echo "one node on PostgreSQL:"
start_node a 18481 PRACA_DATABASE_URL="$pg/fanout1"
node "$here/bench/gateway.js" http://127.0.0.1:18481 "$(cat "$work/a.pid")" fanout "$bots" "$rate" "$secs"
kill "$(cat "$work/a.pid")"; rm -f "$work/a.pid"; sleep 0.5

echo "two nodes (bots on the second, posts to the first):"
redis=PRACA_REDIS_URL="redis://127.0.0.1:$redis_port"
start_node a 18481 PRACA_DATABASE_URL="$pg/fanout2" "$redis"
start_node b 18482 PRACA_DATABASE_URL="$pg/fanout2" "$redis"
POST_URL=http://127.0.0.1:18481 node "$here/bench/gateway.js" http://127.0.0.1:18482 "$(cat "$work/b.pid")" \
    fanout "$bots" "$rate" "$secs"

#!/usr/bin/env bash
# Where a send's CPU goes in shared mode: a node of two over PostgreSQL + Redis, sends to node a
# for 8 s, then each thread's CPU per send on both nodes, Redis's and PostgreSQL's, and the
# Redis commands run (INFO commandstats).
#   bench/shared_threads.sh        CONNS=10 by default; PRACA_BIN for another build
# Needs what bench/shared_send.sh needs.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/shared_env.sh
. "$here/bench/shared_env.sh"
conns=${CONNS:-10}
psql "$pg/postgres" -qc "CREATE DATABASE threads"
redis="PRACA_REDIS_URL=redis://127.0.0.1:$redis_port"
start_node a 18481 PRACA_DATABASE_URL="$pg/threads" "$redis"
start_node b 18482 PRACA_DATABASE_URL="$pg/threads" "$redis"
read -r sid cid < <(node "$loadgen/praca/setup.js" http://127.0.0.1:18481 50 "$work/tokens.txt")
a=$(cat "$work/a.pid") b=$(cat "$work/b.pid") r=$(cat "$work/redis.pid")
threads() { # "node:thread ticks" for each thread of both nodes, summed by name
    for p in $a $b; do
        for t in /proc/$p/task/*; do
            echo "$([ "$p" = "$a" ] && echo a || echo b):$(cat "$t/comm") $(sed 's/.*) //' "$t/stat" | awk '{print $12 + $13}')"
        done
    done | awk '{n[$1] += $2} END {for (k in n) print k, n[k]}' | sort
}
redis-cli -p "$redis_port" CONFIG RESETSTAT >/dev/null
threads >"$work/t0"
r0=$(cpu "$r") p0=$(cpu $(pg_pids))
out=$(node "$loadgen/loadgen/http.js" --url http://127.0.0.1:18481 --tokens-file "$work/tokens.txt" \
    --conns "$conns" --duration 8 --pid "$a" --server-id "$sid" --channel-id "$cid")
threads >"$work/t1"
r1=$(cpu "$r") p1=$(cpu $(pg_pids))
n=$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["requests"])')
echo "$n sends in 8 s at $conns connections; µs of CPU per send:"
join "$work/t0" "$work/t1" | while read -r name t0 t1; do
    if [ "$t1" -gt "$t0" ]; then echo "  $name $(per_send $((t1 - t0)) "$n")"; fi
done
echo "  redis $(per_send $((r1 - r0)) "$n")"
echo "  postgres $(per_send $((p1 - p0)) "$n")"
echo "Redis commands:"
redis-cli -p "$redis_port" INFO commandstats | grep -o 'cmdstat_[a-z|]*:calls=[0-9]*,usec=[0-9]*,usec_per_call=[0-9.]*' |
    sed 's/^cmdstat_/  /'

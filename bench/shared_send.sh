#!/usr/bin/env bash
# Server CPU per bot send in three storage setups, measured in one sitting on the same machine:
# SQLite; one node on PostgreSQL; and a node of two over PostgreSQL + Redis (the second node
# follows the stream and delivers to nobody). Beside praca's own CPU, the CPU PostgreSQL's
# processes, Redis and the second node spent per send in the same seconds.
#   bench/shared_send.sh [CONNS...]      default: 10 100; 50 bots installed, 10 s per run
# Needs Debian's postgresql, redis-server and wrk, and ../shared/bench-peer (LOADGEN to move it).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
conns_list=${*:-10 100}
# shellcheck source=bench/shared_env.sh
. "$here/bench/shared_env.sh"

echo "| setup | conns | sends/s | praca µs/send | PostgreSQL µs/send | Redis µs/send | second node µs/send |"
echo "|---|---:|---:|---:|---:|---:|---:|"
n=0
for setup in sqlite postgres shared; do
    n=$((n + 1))
    psql "$pg/postgres" -qc "CREATE DATABASE bench$n"
    case $setup in
    sqlite) start_node a 18481 PRACA_DATA="$work/bench.db" ;;
    postgres) start_node a 18481 PRACA_DATABASE_URL="$pg/bench$n" ;;
    shared)
        start_node a 18481 PRACA_DATABASE_URL="$pg/bench$n" PRACA_REDIS_URL="redis://127.0.0.1:$redis_port"
        start_node b 18482 PRACA_DATABASE_URL="$pg/bench$n" PRACA_REDIS_URL="redis://127.0.0.1:$redis_port"
        ;;
    esac
    read -r sid cid < <(node "$loadgen/praca/setup.js" http://127.0.0.1:18481 50 "$work/tokens.txt")
    for conns in $conns_list; do
        pg0=$(cpu $(pg_pids)) redis0=$(cpu "$(cat "$work/redis.pid")") b0=$(cpu "$(cat "$work/b.pid" 2>/dev/null || true)")
        out=$(node "$loadgen/loadgen/http.js" --url http://127.0.0.1:18481 --tokens-file "$work/tokens.txt" \
            --conns "$conns" --duration 10 --pid "$(cat "$work/a.pid")" --server-id "$sid" --channel-id "$cid")
        pg1=$(cpu $(pg_pids)) redis1=$(cpu "$(cat "$work/redis.pid")") b1=$(cpu "$(cat "$work/b.pid" 2>/dev/null || true)")
        requests=$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["requests"])')
        line=$(echo "$out" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["reqPerS"], r["serverCpuUsPerReq"])')
        set -- $line
        if [ "$setup" = sqlite ]; then extra="– | – | –"; else
            extra="$(per_send $((pg1 - pg0)) "$requests") | $(per_send $((redis1 - redis0)) "$requests") | "
            [ "$setup" = shared ] && extra="$extra$(per_send $((b1 - b0)) "$requests")" || extra="$extra–"
        fi
        echo "| $setup | $conns | $1 | $2 | $extra |"
    done
    for f in "$work"/a.pid "$work"/b.pid; do
        [ -f "$f" ] && { kill "$(cat "$f")"; rm -f "$f"; }
    done
    sleep 0.5
done

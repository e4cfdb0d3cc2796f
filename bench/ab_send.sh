#!/usr/bin/env bash
# Two builds of praca, alternated on copies of one prepared database, so a change to the send
# path is measured against the same data in one sitting: server CPU per send from the
# side-by-side's load generator (loadgen/http.js reads /proc/PID/stat).
#   bench/ab_send.sh SEED_DIR SERVER_ID CHANNEL_ID CONNS BIN...
# SEED_DIR is a side-by-side run's praca-seed folder (praca.db, tokens.txt); each BIN runs once
# per argument, in the order given (repeat a BIN to alternate).
set -euo pipefail
seed=$1 sid=$2 cid=$3 conns=$4
shift 4
loadgen=${LOADGEN:-$(dirname "$0")/../../shared/bench-peer/loadgen/http.js}
for bin in "$@"; do
    dir=$(mktemp -d)
    cp "$seed/praca.db" "$dir/run.db"
    PRACA_RATE_LIMIT_SCALE=1000000 "$bin" serve --port 18080 --data "$dir/run.db" --log-level 2 \
        > "$dir/log" 2>&1 &
    pid=$!
    for _ in $(seq 50); do curl -sf localhost:18080/api/health > /dev/null && break; sleep 0.1; done
    node "$loadgen" --url http://127.0.0.1:18080 --tokens-file "$seed/tokens.txt" --conns "$conns" \
        --duration 10 --pid "$pid" --server-id "$sid" --channel-id "$cid" 2>&1 |
        grep -o '"reqPerS":[0-9]*\|"serverCpuUsPerReq":[0-9.]*' | tr '\n' ' '
    echo " $bin, $conns conns"
    kill "$pid"
    wait "$pid" 2> /dev/null || true
    rm -rf "$dir"
done

#!/bin/sh
# Two praca nodes on this machine over a throwaway PostgreSQL and Redis, to try several nodes.
#   deploy/local-cluster.sh start [DIR]   prints each node's URL (DIR: /tmp/praca-cluster)
#   deploy/local-cluster.sh stop [DIR]    stops everything and deletes DIR
# PORTS (default "8081 8082") chooses the nodes' ports, PRACA_BIN the binary (build/praca).
# Needs Debian's postgresql and redis-server.
set -eu
cmd=${1:?usage: local-cluster.sh start|stop [DIR]}
dir=${2:-/tmp/praca-cluster}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${PRACA_BIN:-$here/build/praca}
case $cmd in
start)
    mkdir -p "$dir"
    chmod 0755 "$dir" # the cluster inside may belong to the postgres user
    pg=$("$here/scripts/pg-cluster.sh" start "$dir/pg")
    psql "$pg/postgres" -qc "CREATE DATABASE praca" 2>/dev/null || true
    redis_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" \
        --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
    export PRACA_DATABASE_URL="$pg/praca" PRACA_REDIS_URL="redis://127.0.0.1:$redis_port"
    "$bin" migrate >"$dir/migrate.log" 2>&1
    for port in ${PORTS:-8081 8082}; do
        "$bin" serve --host 127.0.0.1 --port "$port" >"$dir/node-$port.log" 2>&1 &
        echo $! >"$dir/node-$port.pid"
    done
    for port in ${PORTS:-8081 8082}; do
        for _ in $(seq 100); do grep -q listening "$dir/node-$port.log" && break; sleep 0.1; done
        grep -q listening "$dir/node-$port.log" || { cat "$dir/node-$port.log" >&2; exit 1; }
        echo "http://127.0.0.1:$port"
    done
    ;;
stop)
    for f in "$dir"/node-*.pid "$dir/redis.pid"; do
        [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
    done
    sleep 0.5
    "$here/scripts/pg-cluster.sh" remove "$dir/pg"
    rm -rf "$dir"
    ;;
*) echo "usage: local-cluster.sh start|stop [DIR]" >&2; exit 2 ;;
esac

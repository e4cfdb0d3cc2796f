#!/bin/sh
# Runs a command beside a throwaway Redis (Debian's redis-server) on a free port in a temporary
# folder, stopped and removed when the command ends. The command finds it in PRACA_TEST_REDIS
# (redis://127.0.0.1:PORT). Usage: scripts/with-redis.sh COMMAND [ARG…]
set -eu
dir=$(mktemp -d /tmp/praca-redis-XXXXXX)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" \
    --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
trap 'kill "$(cat "$dir/redis.pid")" 2>/dev/null; rm -rf "$dir"' EXIT INT TERM
i=0
until redis-cli -p "$port" ping >/dev/null 2>&1; do
    i=$((i + 1))
    [ $i -gt 100 ] && { echo "redis-server did not start" >&2; exit 1; }
    sleep 0.05
done
PRACA_TEST_REDIS=redis://127.0.0.1:$port
export PRACA_TEST_REDIS
"$@"

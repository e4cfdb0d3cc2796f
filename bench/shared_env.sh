# Sourced by the shared-mode benchmarks: a throwaway PostgreSQL cluster and Redis in a temporary
# folder (removed on exit), and helpers to start praca nodes and read processes' CPU.
# Expects `here` (the project root); sets loadgen, bin, work, pg, redis_port.
loadgen=${LOADGEN:-$here/../shared/bench-peer}
bin=${PRACA_BIN:-$here/build/praca}
work=$(mktemp -d /tmp/praca-shared-bench-XXXXXX)
chmod 0755 "$work"
cleanup() {
    for f in "$work"/*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true; done
    "$here/scripts/pg-cluster.sh" remove "$work/pg" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
pg=$("$here/scripts/pg-cluster.sh" start "$work/pg")
redis_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" \
    --daemonize yes --pidfile "$work/redis.pid" --logfile "$work/redis.log"
sleep 0.3

# CPU seconds (user + system) of the given processes, from /proc.
cpu() {
    local ticks=0 p rest
    for p in "$@"; do
        [ -n "$p" ] && [ -r "/proc/$p/stat" ] || continue
        rest=$(sed 's/.*) //' "/proc/$p/stat")
        set -- $rest
        ticks=$((ticks + ${12} + ${13}))
    done
    echo "$ticks"
}
pg_pids() {
    local master
    master=$(head -n 1 "$work/pg/data/postmaster.pid")
    echo "$master" $(pgrep -P "$master")
}
per_send() { # ticks requests -> microseconds per request
    python3 -c "import os; print(round($1 / os.sysconf('SC_CLK_TCK') * 1e6 / max($2, 1), 1))"
}

start_node() { # name port [env…]: starts praca, waits until it listens
    local name=$1 port=$2
    shift 2
    env PRACA_RATE_LIMIT_SCALE=1000000 "$@" "$bin" serve --port "$port" --log-level 2 \
        >"$work/$name.log" 2>&1 &
    echo $! >"$work/$name.pid"
    for _ in $(seq 100); do grep -q listening "$work/$name.log" && return; sleep 0.1; done
    cat "$work/$name.log" >&2
    exit 1
}


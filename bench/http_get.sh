#!/usr/bin/env bash
# Authenticated GET throughput: wrk against praca, and against nginx serving a static answer of
# the same size on the same machine (the ceiling). Prints req/s, latency and praca's CPU per
# request (from /proc/PID/stat of praca, and of the nginx worker).
#   bench/http_get.sh [seconds] [connections]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
conns=${2:-64}
need=""
command -v wrk >/dev/null || need="$need wrk"
command -v nginx >/dev/null || need="$need nginx-light"
command -v curl >/dev/null || need="$need curl"
if [ -n "$need" ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need; fi
make -s build/praca

dir=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; [ -f "$dir/nginx.pid" ] && kill "$(cat "$dir/nginx.pid")" 2>/dev/null; rm -rf "$dir"' EXIT
build/praca serve --port 0 --data "$dir/bench.db" --log-level 2 > "$dir/out" &
pid=$!
for _ in $(seq 50); do grep -q listening "$dir/out" && break; sleep 0.1; done
base=$(sed -n 's/^listening on //p' "$dir/out")

token=$(curl -s -X POST "$base/api/auth/register" -d '{"username":"bench","password":"bench-password"}' |
        sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
sid=$(curl -s -X POST "$base/api/servers" -H "Authorization: Bearer $token" -d '{"name":"Bench"}' |
      sed -n 's/.*"server":{"id":"\([^"]*\)".*/\1/p')

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
run() { # name url extra-args...
    local name=$1 url=$2; shift 2
    local before after
    before=$(cpu_ticks "$pid")
    wrk -t2 -c"$conns" -d"${secs}s" --latency "$@" "$url" > "$dir/wrk.txt"
    after=$(cpu_ticks "$pid")
    local rps p50 p99 reqs
    rps=$(awk '/Requests\/sec/ {print $2}' "$dir/wrk.txt")
    reqs=$(awk '/requests in/ {print $1}' "$dir/wrk.txt")
    p50=$(awk '$1 == "50%" {print $2}' "$dir/wrk.txt")
    p99=$(awk '$1 == "99%" {print $2}' "$dir/wrk.txt")
    local tck; tck=$(getconf CLK_TCK)
    local cpu_us
    cpu_us=$(awk -v d=$((after - before)) -v t="$tck" -v n="$reqs" 'BEGIN { if (n > 0) printf "%.1f", d / t * 1e6 / n; else print "-" }')
    printf '%-34s %10s req/s  p50 %-8s p99 %-8s server CPU/request %s µs\n' "$name" "$rps" "$p50" "$p99" "$cpu_us"
}

echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) cores, wrk -t2 -c$conns -d${secs}s"
run "GET /api/health (no auth)" "$base/api/health"
run "GET /api/users/@me (Bearer)" "$base/api/users/@me" -H "Authorization: Bearer $token"
run "GET /api/servers/:sid (Bearer)" "$base/api/servers/$sid" -H "Authorization: Bearer $token"

# The ceiling: nginx answering a static file of the same size as /api/users/@me.
curl -s "$base/api/users/@me" -H "Authorization: Bearer $token" > "$dir/me.json"
cat > "$dir/nginx.conf" <<NGINX
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/nginx.err;
events { worker_connections 4096; }
http {
    access_log off;
    server {
        listen 127.0.0.1:18089;
        location / { root $dir; default_type application/json; }
    }
}
NGINX
nginx -c "$dir/nginx.conf"
sleep 0.3
pid=$(pgrep -P "$(cat "$dir/nginx.pid")" | head -1) # the worker does the work
run "nginx static (1 worker, ceiling)" "http://127.0.0.1:18089/me.json"

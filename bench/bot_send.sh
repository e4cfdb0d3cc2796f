#!/usr/bin/env bash
# Bot message sends per second: many bots POST to one channel through the bot route (auth,
# permission check, validation, mentions, automod, durable insert, recipients resolved).
# Request limits are scaled out of the way with PRACA_RATE_LIMIT_SCALE. Prints sends/s,
# latency and praca's CPU time per send (from /proc/PID/stat), in all and by thread (the I/O
# thread is "praca"; the others are named for what they do).
#   bench/bot_send.sh [seconds] [connections] [bots]
# PRACA_ARGS adds flags to praca serve (e.g. PRACA_ARGS="--sync full"); PRACA_BIN runs another
# build instead of this checkout's.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
conns=${2:-64}
bots=${3:-50}
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
bin=${PRACA_BIN:-build/praca} # another build to compare with this one
[ -n "${PRACA_BIN:-}" ] || make -s build/praca

dir=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$dir"' EXIT
# shellcheck disable=SC2086
PRACA_RATE_LIMIT_SCALE=1000000 "$bin" serve --port 0 --data "$dir/bench.db" --log-level 2 \
    ${PRACA_ARGS:-} > "$dir/out" &
pid=$!
for _ in $(seq 50); do grep -q listening "$dir/out" && break; sleep 0.1; done
base=$(sed -n 's/^listening on //p' "$dir/out")
node bench/setup_bots.js "$base" "$bots" > "$dir/tokens"

ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
# Each thread's name and CPU ticks, summed by name (a stat's comm has no spaces here).
thread_ticks() { for t in /proc/"$pid"/task/*; do awk '{print $2, $14 + $15}' "$t/stat"; done |
    awk '{gsub(/[()]/, "", $1); s[$1] += $2} END {for (n in s) print n, s[n]}' | sort; }
thread_ticks > "$dir/threads.before"
before=$(ticks)
BENCH_TOKENS="$dir/tokens" wrk -t2 -c"$conns" -d"${secs}s" --latency -s bench/bot_send.lua "$base" \
    > "$dir/wrk.txt"
after=$(ticks)
thread_ticks > "$dir/threads.after"
non2xx=$(awk '/Non-2xx/ {print $NF}' "$dir/wrk.txt")
reqs=$(awk '/requests in/ {print $1}' "$dir/wrk.txt")
rps=$(awk '/Requests\/sec/ {print $2}' "$dir/wrk.txt")
p50=$(awk '$1 == "50%" {print $2}' "$dir/wrk.txt")
p99=$(awk '$1 == "99%" {print $2}' "$dir/wrk.txt")
cpu=$(awk -v d=$((after - before)) -v t="$(getconf CLK_TCK)" -v n="$reqs" 'BEGIN { printf "%.1f", d / t * 1e6 / n }')
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) cores, $bots bots, wrk -t2 -c$conns -d${secs}s ${PRACA_ARGS:-}"
printf 'bot sends: %s/s  p50 %s  p99 %s  praca CPU/send %s µs  non-2xx %s\n' "$rps" "$p50" "$p99" "$cpu" "${non2xx:-0}"
join "$dir/threads.before" "$dir/threads.after" |
    awk -v t="$(getconf CLK_TCK)" -v n="$reqs" '$3 > $2 {printf "  %-16s %6.1f µs/send\n", $1, ($3 - $2) / t * 1e6 / n}'

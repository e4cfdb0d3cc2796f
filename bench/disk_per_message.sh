#!/usr/bin/env bash
# Disk per message after sends: a copy of the side by side's seed (SEED_DIR), 10 s of sends at
# 100 connections, then each table's and index's bytes (SQLite's dbstat) before and after.
#   SEED_DIR=/tmp/seed bench/disk_per_message.sh     (needs sqlite3 and ../shared/bench-peer)
set -euo pipefail
seed=${SEED_DIR:?SEED_DIR: a seed kept by ../shared/bench-peer/side-by-side.sh}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/dbsize-XXXXXX)
trap 'rm -rf "$work"' EXIT
cp "$seed/praca.db" "$work/run.db"
[ -f "$seed/praca.db-wal" ] && cp "$seed/praca.db-wal" "$work/run.db-wal"
read -r SID CID < "$seed/ids"
stat_of() { sqlite3 -readonly "$1" "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name" ; }
PRACA_RATE_LIMIT_SCALE=1000000 "$here/build/praca" serve --port 18095 --data "$work/run.db" --log-level 2 > "$work/log" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q listening "$work/log" && break; sleep 0.1; done
sqlite3 "$work/run.db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
stat_of "$work/run.db" > "$work/before"
node "${LOADGEN:-$here/../shared/bench-peer}/loadgen/http.js" --url http://127.0.0.1:18095 --tokens-file "$seed/tokens.txt" --conns 100 --duration 10 --pid $pid --server-id "$SID" --channel-id "$CID" > "$work/http.json"
kill $pid; wait $pid 2>/dev/null || true
sqlite3 "$work/run.db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
stat_of "$work/run.db" > "$work/after"
msgs=$(sqlite3 -readonly "$work/run.db" "SELECT count(*) FROM messages")
python3 - "$work/before" "$work/after" "$msgs" <<'PY'
import sys
def load(p):
    d={}
    for l in open(p):
        n,s=l.strip().rsplit('|',1); d[n]=int(s)
    return d
b,a,msgs=load(sys.argv[1]),load(sys.argv[2]),int(sys.argv[3])
grow={k:a.get(k,0)-b.get(k,0) for k in set(a)|set(b)}
grow={k:v for k,v in grow.items() if v}
own=sum(v for k,v in grow.items() if k=='messages' or k.startswith('messages_by') or k.startswith('messages_pinned') or k.startswith('sqlite_autoindex_messages'))
total=sum(grow.values())
print(f"messages now {msgs}")
for k,v in sorted(grow.items(), key=lambda x:-x[1])[:12]: print(f"  {k}: {v} B")
print(f"message rows + their indexes grew {own} B; the whole file {total} B; ratio {total/own:.2f}")
PY

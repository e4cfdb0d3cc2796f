#!/bin/sh
# A throwaway PostgreSQL cluster in a folder of its own, on 127.0.0.1 only, for the tests.
#   scripts/pg-cluster.sh start DIR    creates it on first use (a free port), starts it, and
#                                      prints its URL: postgres://praca@127.0.0.1:PORT
#   scripts/pg-cluster.sh stop DIR     stops it at once (as a crash would), keeping its data
#   scripts/pg-cluster.sh remove DIR   stops it and deletes the folder
set -eu
cmd=${1:?usage: pg-cluster.sh start|stop|remove DIR}
dir=${2:?usage: pg-cluster.sh start|stop|remove DIR}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bin/initdb" ] || { echo "pg-cluster: PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
# PostgreSQL will not run as root: as root, the cluster belongs to the postgres user.
as=""
[ "$(id -u)" -eq 0 ] && as="runuser -u postgres --"
case $cmd in
start)
    mkdir -p "$dir"
    if [ ! -f "$dir/port" ]; then
        [ -n "$as" ] && chown postgres "$dir"
        python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' >"$dir/port"
        $as "$bin/initdb" -D "$dir/data" -A trust -U praca >"$dir/initdb.log" 2>&1 ||
            { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    port=$(cat "$dir/port")
    # fsync off: the cluster is thrown away; what the tests check is praca's side of durability.
    $as "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=400" \
        start >/dev/null || { cat "$dir/log" >&2; exit 1; }
    echo "postgres://praca@127.0.0.1:$port"
    ;;
stop) $as "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true ;;
remove)
    $as "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
*) echo "usage: pg-cluster.sh start|stop|remove DIR" >&2; exit 2 ;;
esac

#!/bin/sh
# Runs a command beside a throwaway PostgreSQL cluster (scripts/pg-cluster.sh), removed when the
# command ends. The command finds it in PRACA_TEST_POSTGRES (postgres://praca@127.0.0.1:PORT).
# Usage: scripts/with-postgres.sh COMMAND [ARG…]
set -eu
here=$(dirname "$0")
dir=$(mktemp -d /tmp/praca-pg-XXXXXX)
trap '"$here/pg-cluster.sh" remove "$dir"' EXIT INT TERM
PRACA_TEST_POSTGRES=$("$here/pg-cluster.sh" start "$dir")
export PRACA_TEST_POSTGRES
"$@"

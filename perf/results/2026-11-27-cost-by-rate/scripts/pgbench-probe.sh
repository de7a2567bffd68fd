#!/bin/bash
# pgbench-probe.sh: what a PostgreSQL transaction of five round trips costs this machine in CPU, over TCP on 127.0.0.1
# and over the Unix socket, and with synchronous_commit off or a commit_delay. Needs the local stack's PostgreSQL
# running (bin/sagaflow start, or its pg_ctl alone) and nothing else busy; creates and keeps a database "bench".
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../../.." && pwd)"
BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
SOCK="$ROOT/.local/pgsock"
PSQL="$BIN/psql -h 127.0.0.1 -p 55432 -U postgres -qAt"
$PSQL -c "drop database if exists bench" -c "create database bench"
"$BIN/pgbench" -h 127.0.0.1 -p 55432 -U postgres -i -s 5 -q bench > /dev/null 2>&1
SCRIPT=$(mktemp)
cat > "$SCRIPT" <<'SQL'
\set aid random(1, 500000)
\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, :aid, :delta, CURRENT_TIMESTAMP);
END;
SQL
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8}' /proc/stat; }
run() { # name host rate
  local b0 b1 out tps
  b0=$(busy)
  out=$("$BIN/pgbench" -h "$2" -p 55432 -U postgres -M prepared -c 8 -j 2 -R "$3" -T 30 -n -f "$SCRIPT" bench 2>&1)
  b1=$(busy)
  tps=$(grep -oP 'tps = \K[0-9.]+' <<< "$out" | head -1)
  python3 -c "print('%-9s %5s tps offered: %6.0f done, latency %s ms, machine CPU %5.1f %% of a core, %4.0f us a transaction'
    % ('$1', '$3', $tps, '$(grep -oP 'latency average = \K[0-9.]+' <<< "$out")', ($b1-$b0)/30, ($b1-$b0)*10000/($tps*30)))"
}
for i in 1 2; do run tcp 127.0.0.1 1500; run unix "$SOCK" 1500; done
for rate in 300 1000; do
  $PSQL -c "alter database bench reset all"; run sync-on 127.0.0.1 $rate
  $PSQL -c "alter database bench set synchronous_commit = off"; run sync-off 127.0.0.1 $rate
  $PSQL -c "alter database bench reset all" -c "alter database bench set commit_delay = 500" \
    -c "alter database bench set commit_siblings = 1"; run delay-500 127.0.0.1 $rate
done
$PSQL -c "alter database bench reset all"
rm -f "$SCRIPT"

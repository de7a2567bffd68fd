#!/bin/bash
# Beside a running lag-probe.sh OUT: when its first and its last scrape appear (m0-8084.txt, m1-8084.txt), writes
# snap-0.txt and snap-1.txt with the time, the CPU ticks (utime + stime, 1/100 s) of every stack JVM and of all
# postgres processes together, and PostgreSQL's committed transactions so far. Started before the probe:
#
#   cpu-snapshots.sh OUT & lag-probe.sh OUT 300
OUT=$1
snap() {
  local tag=$1
  {
    echo "t $(date +%s.%N)"
    for pid in $(pgrep -f 'java .*-exec.jar'); do
      name=$(tr '\0' ' ' < /proc/$pid/cmdline | grep -o '[a-z-]*-service\|api-gateway' | head -1)
      echo "cpu $name $(awk '{print $14+$15}' /proc/$pid/stat)"
    done
    pg=0; for pid in $(pgrep -x postgres); do pg=$((pg + $(awk '{print $14+$15}' /proc/$pid/stat 2>/dev/null || echo 0))); done
    echo "cpu postgres $pg"
    echo "commits $(/usr/lib/postgresql/15/bin/psql -h 127.0.0.1 -p 55432 -U postgres -d postgres -Atc 'select sum(xact_commit) from pg_stat_database')"
  } > $OUT/snap-$tag.txt
}
while [ ! -f $OUT/m0-8084.txt ]; do sleep 0.5; done; snap 0
while [ ! -f $OUT/m1-8084.txt ]; do sleep 0.5; done; snap 1

#!/bin/bash
# Samples PostgreSQL's active backends every 0.1 s for 120 s, 60 s into the sweep's measured run at 500 iter/s
# (perf/sweep ... --name inventory-waits-500 > /tmp/sweep-waits.log, started before this). Run from the repository.
until grep -q "k6 run-500-r1" /tmp/sweep-waits.log; do sleep 5; done
sleep 60
timeout 120 psql -h "$PWD/.local/pgsock" -p 55432 -U postgres -d postgres -X -A -t -F '|' \
  -f perf/results/2026-11-30-inventory-waits-500/probe/waits.sql > /tmp/probe/waits.out

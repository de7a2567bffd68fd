#!/usr/bin/env bash
# The mix at 500 iter/s against a running, warmed stack (bin/sagaflow start --detach with the sweep's histogram
# arguments, then 150 s at 150, 60 s at 300 and 60 s at 450 iter/s), with the loopback's TCP headers captured through
# the measured phase and every service's /actuator/prometheus scraped at its start and end.
# Usage (from the repository root): perf/results/2026-12-02-gap-on-the-wire/probe.sh OUT_DIR
set -u
out="$1"; mkdir -p "$out"
scrape() { for p in 8081 8082 8083 8084; do curl -s "http://127.0.0.1:$p/actuator/prometheus" > "$out/$1-$p.prom"; done; }
RATE=500 DURATION=90s WARMUP=10s perf/.tools/k6 run -q --summary-export "$out/k6-summary.json" perf/k6/mix.js \
  > "$out/k6.log" 2>&1 &
k6=$!
sleep 10
scrape before
tcpdump -i lo -s 128 -B 8192 -w "$out/lo.pcap" 'tcp and (port 8081 or port 8082 or port 8083 or port 8084)' \
  2> "$out/tcpdump.log" &
dump=$!
sleep 90
kill -INT $dump; wait $dump
scrape after
wait $k6; echo "k6 exit $?" >> "$out/k6.log"

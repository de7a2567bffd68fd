#!/usr/bin/env bash
# Request threads before the loops: starts the local stack of this checkout, warms it up at RATE iter/s for 90 s, then
# (NICE != 0) lowers the scheduling priority of every service's loop threads (outbox relay, consumer lanes, topic
# listeners, Jet and Hazelcast's cached threads) to nice NICE with renice, which needs no privilege, and drives the
# weighted mix at RATE for 120 s (30 s of them warm-up). Tomcat's request threads and Hazelcast's partition and I/O
# threads keep nice 0. WARMUP_RATE and WARMUP_SECONDS change the warm-up (200 and 120 warm up as perf/sweep does).
#
#   [WARMUP_RATE=R] [WARMUP_SECONDS=S] nice-probe.sh OUT NICE [RATE]   (needs JAVA_HOME and perf/.tools/k6, no stack running)
set -euo pipefail
OUT=$1 NICE=$2 RATE=${3:-350}
cd "$(dirname "$0")/../../../.."
mkdir -p "$OUT"
bin/sagaflow start --detach > "$OUT/start.log" 2>&1
trap 'bin/sagaflow stop > /dev/null 2>&1 || true' EXIT
perf/.tools/k6 run -q -e RATE="${WARMUP_RATE:-$RATE}" -e DURATION="${WARMUP_SECONDS:-90}s" -e WARMUP=0s perf/k6/mix.js > "$OUT/warmup.log" 2>&1 || true
if [ "$NICE" != 0 ]; then
  for f in .local/pids/*-service-*.pid; do
    "$JAVA_HOME/bin/jcmd" "$(cat "$f")" Thread.print 2>/dev/null \
      | grep -E '^"(outbox-relay|consumer-|event-listener|hz\.[^"]*\.jet\.|hz\.[^"]*\.cached\.)' \
      | sed -E 's/.* nid=([0-9]+).*/\1/' | while read -r tid; do renice -n "$NICE" -p "$tid" > /dev/null; done
  done
fi
perf/.tools/k6 run -q -e RATE="$RATE" -e DURATION=120s -e WARMUP=30s --summary-export "$OUT/k6-summary.json" \
  perf/k6/mix.js > "$OUT/run.log" 2>&1 || true

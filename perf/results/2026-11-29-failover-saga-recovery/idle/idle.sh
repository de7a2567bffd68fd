#!/usr/bin/env bash
# idle.sh PERIOD_MS OUTFILE: starts the local stack with the order cluster's Jet job scan period set to PERIOD_MS,
# lets it idle for 4 minutes, then appends the order service's CPU (user + system, % of one core) for each of the
# next 4 minutes to OUTFILE, and stops the stack. Needs JAVA_HOME and no stack running.
set -euo pipefail
cd "$(dirname "$0")/../../../.."
export PATH="${JAVA_HOME:?set JAVA_HOME}/bin:$PATH"
# The runs of 2026-11-29 set the raw Hazelcast property, before the order service had a setting of its own:
#   SAGAFLOW_SPRING_ARGS="--sagaflow.hazelcast.service.properties.[hazelcast.jet.job.scan.period]=$1"
# The setting now takes its place (and overrides the raw property).
export SAGAFLOW_SPRING_ARGS="--sagaflow.order.saga.job-scan-period=${1}ms"
bin/sagaflow start --detach > /dev/null 2>&1
pid=$(cat .local/pids/order-service-0.pid)
sleep 240
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)
for m in 1 2 3 4; do
  a=$(ticks); sleep 60; b=$(ticks)
  echo "period $1 minute $m: $(python3 -c "print(round(100 * ($b - $a) / $hz / 60, 3))") % of a core" | tee -a "$2"
done
bin/sagaflow stop > /dev/null 2>&1

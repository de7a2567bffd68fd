#!/bin/bash
# ab.sh RUNS KILL SIGNAL NAME=ARGS...: runs perf/failover --kill KILL --signal SIGNAL once per configuration, RUNS
# rounds, alternating the configurations in each round; run N of NAME goes to SIGNAL-KILL-NAME-N here. ARGS are the
# extra Spring arguments of that configuration (SAGAFLOW_SPRING_ARGS, which bin/sagaflow gives every service).
# FIRST=N numbers the first round N (1), to add rounds to earlier ones; FAILOVER_ARGS are more perf/failover options.
#   ab.sh 3 non-master TERM p271="--sagaflow.hazelcast.service.partition-count=271" \
#         p71="--sagaflow.hazelcast.service.partition-count=71"
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"; ROOT="$(cd "$HERE/../../.." && pwd)"
RUNS=$1; KILL=$2; SIGNAL=$3; shift 3
cd "$ROOT"
for i in $(seq "${FIRST:-1}" $((${FIRST:-1} + RUNS - 1))); do
  for config in "$@"; do
    name=${config%%=*}; args=${config#*=}
    out="$HERE/$(echo "$SIGNAL" | tr A-Z a-z)-$KILL-$name-$i"
    SAGAFLOW_SPRING_ARGS="$args" perf/failover --kill "$KILL" --signal "$SIGNAL" ${FAILOVER_ARGS:-} --out "$out" > "$out.log" 2>&1
    echo "$out exit $?"
  done
done

#!/usr/bin/env bash
# The gateway's readiness probes (ADR 0077) on and off, alternating, on one idle local stack: before each window the
# gateway is killed and started again with or without them, then rests REST seconds; each window is WINDOW seconds.
#   alternate.sh [pairs] [rest] [window] [label]     (from the repository's root, with the stack running)
# The gateway runs from the jar the stack was started with, or from the one last built (./mvnw -pl api-gateway package).
set -euo pipefail
pairs=${1:-2}
rest=${2:-60}
window=${3:-120}
label=${4:-probes}
here=$(dirname "$0")
for ((i = 1; i <= pairs; i++)); do
  for variant in on off; do
    if [[ $variant == off ]]; then
      export SAGAFLOW_SPRING_ARGS=--sagaflow.gateway.readiness.interval=0
    else
      unset SAGAFLOW_SPRING_ARGS
    fi
    bin/sagaflow kill api-gateway >/dev/null
    bin/sagaflow restart api-gateway >/dev/null
    sleep "$rest"
    perf/.venv/bin/python "$here/idle-cpu.py" "$window" "$label-$variant-$i"
  done
done

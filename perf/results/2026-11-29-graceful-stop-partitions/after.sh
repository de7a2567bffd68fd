#!/bin/bash
# after.sh: perf/failover at its defaults on the commit that makes whole migrations and 71 partitions the service
# clusters' defaults (no extra arguments): a graceful stop and a kill, of the non-master and of the master.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"; cd "$HERE/../../.."
for run in "TERM non-master" "TERM master" "KILL non-master" "KILL master"; do
  set -- $run
  out="$HERE/after-$(echo "$1" | tr A-Z a-z)-$2"
  perf/failover --kill "$2" --signal "$1" --out "$out" > "$out.log" 2>&1
  echo "$out exit $?"
done

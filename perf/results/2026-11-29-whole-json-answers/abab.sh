#!/bin/bash
# abab.sh A.jar B.jar: the account service's exec jar A, then B, three times over, on the running local stack
# (bin/sagaflow start --detach): each block kills the account service, starts it again from that jar, warms it with
# three unmeasured probes, takes the host's speed (perf/calibrate.py) and two measured probes (probe.sh). The working
# tree's jar is put back at the end (kept meanwhile in a temporary directory).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
export OUT="${OUT:-$HERE/k6}"
mkdir -p "$OUT"
A="$(realpath "$1")" B="$(realpath "$2")"
cd "$ROOT"
JAR=account-service/target/account-service-0.1.0-SNAPSHOT-exec.jar
KEPT="$(mktemp -d)"
cp "$JAR" "$KEPT/working-tree.jar"
for block in A1 B1 A2 B2 A3 B3; do
  if [ "${block:0:1}" = A ]; then cp "$A" "$JAR"; else cp "$B" "$JAR"; fi
  bin/sagaflow kill account-service-0 > /dev/null 2>&1
  bin/sagaflow restart account-service-0 > /dev/null
  for warm in 1 2 3; do "$HERE/probe.sh" "warm-$block-$warm" > /dev/null; done
  python3 perf/calibrate.py 2> /dev/null | grep core_mb | sed "s/^/$block /"
  for run in 1 2; do "$HERE/probe.sh" "$block-$run"; done
done
mv "$KEPT/working-tree.jar" "$JAR"
rmdir "$KEPT"

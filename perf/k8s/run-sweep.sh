#!/usr/bin/env bash
# Runs one tier's load sweep on the cluster of the current kubectl context (docs/deploy-eks.md, step 8).
#
# For each rate in loadTest.sweepRates of perf/tiers/values-<tier>.yaml, in order, `helm upgrade` starts the chart's
# k6 Job (the weighted mix at that many iterations/s, from inside the cluster), waits for it to finish, and keeps its
# summary with the autoscalers' and the pods' state at the end of the run. A one-minute warm-up at the first rate goes
# first and is not counted. Results: perf/results/k8s/<tier>-<UTC time>/summary.md, the rest under raw/.
#
#   perf/k8s/run-sweep.sh small|medium|large [release] [namespace]
#
# With SUITE_SCRIPT=perf/k6/<script>.js the Jobs run that script of the perf suite (with perf/k6/lib/sagaflow.js)
# instead of the chart's built-in mix.
set -euo pipefail
cd "$(dirname "$0")/../.."

tier="${1:?usage: perf/k8s/run-sweep.sh small|medium|large [release] [namespace]}"
release="${2:-sagaflow}"
namespace="${3:-sagaflow}"
values="perf/tiers/values-$tier.yaml"
[ -f "$values" ] || { echo "no tier $tier ($values)" >&2; exit 1; }
for tool in helm kubectl python3; do
  command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 1; }
done

read -r duration rates_line < <(python3 - "$values" k8s/sagaflow/values.yaml <<'PY'
import sys, yaml
tier, chart = (yaml.safe_load(open(p)) for p in sys.argv[1:3])
load = dict(chart["loadTest"], **tier.get("loadTest", {}))
print(load["duration"], " ".join(str(r) for r in load["sweepRates"]))
PY
)
read -r -a rates <<<"$rates_line"
out="perf/results/k8s/$tier-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out/raw"
script=()
if [ -n "${SUITE_SCRIPT:-}" ]; then
  script=(--set-file "loadTest.suite.script=$SUITE_SCRIPT" --set-file loadTest.suite.library=perf/k6/lib/sagaflow.js)
fi
echo "tier $tier: rates ${rates[*]} iterations/s, $duration each, ${SUITE_SCRIPT:-the built-in mix}; results in $out"

# Starts the Job for one rate and waits for it; its log goes to raw/<name>.log, its JSON summary to raw/<name>.json.
run() {
  local name="$1" rate="$2" length="$3" job
  helm upgrade "$release" k8s/sagaflow --namespace "$namespace" --reuse-values -f "$values" \
    --set loadTest.enabled=true --set "loadTest.rate=$rate" --set "loadTest.duration=$length" \
    --set "loadTest.runId=$name" "${script[@]}" >/dev/null
  job="$(kubectl -n "$namespace" get jobs -l "app.kubernetes.io/instance=$release,sagaflow.io/run-id=$name" \
    -o jsonpath='{.items[0].metadata.name}')"
  echo "  $name: job $job running ($rate iterations/s for $length)"
  local state=""
  while [ -z "$state" ]; do
    sleep 10
    state="$(kubectl -n "$namespace" get job "$job" \
      -o jsonpath='{range .status.conditions[?(@.status=="True")]}{.type}{end}' | grep -oE 'Complete|Failed' || true)"
  done
  kubectl -n "$namespace" logs "job/$job" > "$out/raw/$name.log"
  sed -n '/^--- k6 summary json begin ---$/,/^--- k6 summary json end ---$/p' "$out/raw/$name.log" \
    | sed '1d;$d' > "$out/raw/$name.json"
  kubectl -n "$namespace" get hpa -o wide > "$out/raw/$name-hpa.txt" 2>&1 || true
  kubectl -n "$namespace" top pods > "$out/raw/$name-pods.txt" 2>&1 || true
  kubectl top nodes > "$out/raw/$name-nodes.txt" 2>&1 || true
  echo "  $name: $state (thresholds: errors under 1 %, dropped iterations under 1 %)"
  sed -n '/^sagaflow weighted mix/,/^--- k6 summary json begin ---$/p' "$out/raw/$name.log" | sed '$d' || true
}

run warmup "${rates[0]}" 1m
for rate in "${rates[@]}"; do
  run "rate-$rate" "$rate" "$duration"
done
helm upgrade "$release" k8s/sagaflow --namespace "$namespace" --reuse-values -f "$values" \
  --set loadTest.enabled=false >/dev/null

python3 - "$out" "$tier" "$duration" "${rates[@]}" > "$out/summary.md" <<'PY'
import json, re, sys
out, tier, duration, rates = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600}
seconds = sum(float(v) * units[u] for v, u in re.findall(r"(\d+(?:\.\d+)?)(ms|s|m|h)", duration))

def value(data, names, stat):
    """The first of `names` the summary has: the built-in mix's metric, or the perf suite's measured phase."""
    for name in names:
        m = data.get("metrics", {}).get(name)
        if m is not None:
            values = m["values"]
            return values.get(stat, values.get("value") if stat == "rate" else None)
    return None

def cell(v, scale=1.0):
    return "-" if v is None else f"{v * scale:.2f}"

print(f"# Sweep: {tier} tier, {duration} per rate\n")
print("| target/s | iter/s | HTTP req/s | errors % | dropped | create order p95 | reserve stock p95 | "
      "create customer p95 | saga e2e p50 | saga e2e p95 | sagas in time % |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for rate in rates:
    try:
        data = json.load(open(f"{out}/raw/rate-{rate}.json"))
    except (OSError, ValueError):
        print(f"| {rate} | no summary | | | | | | | | | |")
        continue
    op = lambda name: value(data, [f"http_req_duration{{op:{name}}}", f"{name}{{phase:measure}}"], "p(95)")
    saga = lambda stat: value(data, ["saga_e2e", "saga_e2e{phase:measure}"], stat)
    in_time = value(data, ["saga_finished_in_time"], "rate")
    if in_time is None:
        polled = value(data, ["saga_polled{phase:measure}"], "count")
        timeouts = value(data, ["saga_timeouts{phase:measure}"], "count") or 0
        in_time = None if not polled else 1 - timeouts / polled
    print(f"| {rate} | {cell((value(data, ['iterations{phase:measure}', 'iterations'], 'count') or 0) / seconds)} | "
          f"{cell((value(data, ['http_reqs{phase:measure}', 'http_reqs{scenario:mix}'], 'count') or 0) / seconds)} | "
          f"{cell(value(data, ['http_req_failed{phase:measure}', 'http_req_failed{scenario:mix}'], 'rate') or 0, 100)} | "
          f"{int(value(data, ['dropped_iterations{scenario:measure}', 'dropped_iterations'], 'count') or 0)} | "
          f"{cell(op('create_order'))} | {cell(op('reserve_stock'))} | {cell(op('create_customer'))} | "
          f"{cell(saga('med'))} | {cell(saga('p(95)'))} | {cell(in_time, 100)} |")
print("\nLatencies in ms. Autoscalers, pods and nodes at the end of each run: raw/rate-<target>-{hpa,pods,nodes}.txt.")
PY
echo "summary: $out/summary.md"
cat "$out/summary.md"

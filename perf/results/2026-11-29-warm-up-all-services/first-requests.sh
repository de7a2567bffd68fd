#!/usr/bin/env bash
# A replica's first requests after a restart, with the warm-up (ADR 0078) and without it, alternating.
# Needs a running local stack (bin/sagaflow start --detach).
# Usage: first-requests.sh account|inventory|order [restarts]
set -euo pipefail
service=$1
restarts=${2:-2}
case $service in
  account) port=8081 ;;
  inventory) port=8082 ;;
  order) port=8083 ;;
  *) echo "usage: $0 account|inventory|order [restarts]" >&2; exit 2 ;;
esac
if [[ $service != account ]]; then
  product=$(curl -sf -H 'Content-Type: application/json' \
    -d "{\"sku\":\"warm-$RANDOM$RANDOM\",\"name\":\"Warm-up probe\",\"price\":1.50,\"quantityOnHand\":1000000}" \
    "http://127.0.0.1:8082/api/products" | python3 -c 'import json, sys; print(json.load(sys.stdin)["productId"])')
fi
if [[ $service == order ]]; then
  customer=$(curl -sf -H 'Content-Type: application/json' \
    -d "{\"email\":\"warm-$RANDOM$RANDOM@perf.sagaflow.test\",\"name\":\"Warm-up probe\"}" \
    "http://127.0.0.1:8081/api/customers" | python3 -c 'import json, sys; print(json.load(sys.stdin)["customerId"])')
  sleep 2 # the order service learns the new customer and product through events
fi
request() {
  if [[ $service == account ]]; then
    curl -s -o /dev/null -w '%{http_code} %{time_total}' -H 'Content-Type: application/json' \
      -d "{\"email\":\"warm-$RANDOM$RANDOM@perf.sagaflow.test\",\"name\":\"Warm-up probe\"}" \
      "http://127.0.0.1:$port/api/customers"
  elif [[ $service == order ]]; then
    curl -s -o /dev/null -w '%{http_code} %{time_total}' -H 'Content-Type: application/json' \
      -H "Idempotency-Key: $(cat /proc/sys/kernel/random/uuid)" \
      -d "{\"customerId\":\"$customer\",\"lineItems\":[{\"productId\":\"$product\",\"quantity\":1}],\"shippingAddress\":\"-\"}" \
      "http://127.0.0.1:$port/api/orders"
  else
    curl -s -o /dev/null -w '%{http_code} %{time_total}' -H 'Content-Type: application/json' \
      -d "{\"quantity\":1,\"orderId\":\"$(cat /proc/sys/kernel/random/uuid)\"}" \
      "http://127.0.0.1:$port/api/products/$product/stock/reserve"
  fi
}
for ((i = 0; i < restarts; i++)); do
  for variant in without with; do
    if [[ $variant == without ]]; then
      export SAGAFLOW_SPRING_ARGS=--sagaflow.web.warm-up.rounds=0
    else
      unset SAGAFLOW_SPRING_ARGS
    fi
    bin/sagaflow kill "$service-service-0" >/dev/null
    bin/sagaflow restart "$service-service-0" >/dev/null
    sleep 3
    echo "$service $variant warm-up: $(request), $(request), $(request)"
  done
done

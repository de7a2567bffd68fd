// A spike: after a warm-up with the weighted mix, SPIKE_ORDERS virtual users place one order each at the same
// instant and poll it until its saga ends. Latencies are reported, not judged; the spike passes on no failed
// request and no saga time-out.
//
//   k6 run -e SPIKE_ORDERS=500 -e WARMUP=30s -e WARMUP_RATE=50 perf/k6/spike.js
import * as sf from './lib/sagaflow.js';

const c = sf.config({ rate: 50, warmup: '30s', pollShare: 1, spikeOrders: 200 });

export const options = sf.spikeOptions(c);

export function setup() {
  return sf.seed(c);
}

// The warm-up runs the weighted mix (with the usual 10 % of orders polled).
const warmupConfig = Object.assign({}, c, { pollShare: 0.1 });

export default function (data) {
  sf.mixIteration(warmupConfig, data);
}

export function spikeIteration(data) {
  const [orderId, started, etag] = sf.placeOrder(c, data);
  if (orderId && Math.random() < c.pollShare) {
    sf.pollToEnd(c, orderId, started, etag);
  }
}

export const markMeasureStart = sf.markMeasureStart;

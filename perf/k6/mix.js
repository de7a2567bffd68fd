// The weighted mix of the reference workload at a constant arrival rate: 60 % create order (10 % of them polled
// until their saga ends), 25 % reserve stock, 15 % create customer. A warm-up precedes the measured phase.
//
//   k6 run -e RATE=100 -e DURATION=3m -e WARMUP=30s perf/k6/mix.js
//
// Thresholds are the SLOs (docs/adr/0014): a breach makes k6 exit 99.
import * as sf from './lib/sagaflow.js';

const c = sf.config({ mix: '60,25,15', pollShare: 0.1 });

export const options = sf.arrivalOptions(c);

export function setup() {
  return sf.seed(c);
}

export default function (data) {
  sf.mixIteration(c, data);
}

export const markMeasureStart = sf.markMeasureStart;
export const markMeasureEnd = sf.markMeasureEnd;

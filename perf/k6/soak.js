// A sustained soak: the weighted mix at a constant rate for a long time, to show memory growth, leaks and latency
// drift. The sweep samples every process's CPU and RSS through it (perf/sweep --scenario soak).
//
//   k6 run -e RATE=250 -e DURATION=30m perf/k6/soak.js
import * as sf from './lib/sagaflow.js';

const c = sf.config({ rate: 250, duration: '30m', warmup: '1m', mix: '60,25,15', pollShare: 0.1 });

export const options = sf.arrivalOptions(c);

export function setup() {
  return sf.seed(c);
}

export default function (data) {
  sf.mixIteration(c, data);
}

export const markMeasureStart = sf.markMeasureStart;
export const markMeasureEnd = sf.markMeasureEnd;

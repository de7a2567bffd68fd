// A sustained soak: the weighted mix at a constant rate for a long time, to show memory growth, leaks and latency
// drift. The sweep samples every process's CPU and RSS through it (perf/sweep --scenario soak).
//
//   k6 run -e RATE=250 -e DURATION=30m perf/k6/soak.js
import * as sf from './lib/sagaflow.js';

// A long run meets the host's longest stalls (4.3 s in the second 30-minute soak here): its VUs cover 5 s of them at
// the full rate, so a stall shows as latency rather than as iterations never sent (ADR 0059).
const c = sf.config({ rate: 250, duration: '30m', warmup: '1m', mix: '60,25,15', pollShare: 0.1, vuStallS: 5 });

export const options = sf.arrivalOptions(c);

export function setup() {
  return sf.seed(c);
}

export default function (data) {
  sf.mixIteration(c, data);
}

export const markMeasureStart = sf.markMeasureStart;
export const markMeasureEnd = sf.markMeasureEnd;

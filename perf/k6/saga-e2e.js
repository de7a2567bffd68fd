// Saga end to end: every iteration places an order and polls it until CONFIRMED or CANCELLED, at a constant
// arrival rate. Saga E2E runs from sending the order to seeing its end; time-outs count in saga_timeouts.
//
//   k6 run -e RATE=50 -e DURATION=2m perf/k6/saga-e2e.js
import * as sf from './lib/sagaflow.js';

const c = sf.config({ rate: 50, duration: '2m', mix: '100,0,0', pollShare: 1 });

export const options = sf.arrivalOptions(c);

export function setup() {
  return sf.seed(c);
}

export default function (data) {
  sf.mixIteration(c, data);
}

export const markMeasureStart = sf.markMeasureStart;
export const markMeasureEnd = sf.markMeasureEnd;

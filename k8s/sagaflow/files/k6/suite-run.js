// Runs the perf suite's script (perf/k6, given with --set-file loadTest.suite.script=… and loadTest.suite.library=…)
// as the chart's load test: its scenarios, setup and iterations unchanged, plus the summary written to the Job's log
// (and to the results volume) the way the built-in mix writes it, for perf/k8s/run-sweep.sh.
export * from './suite.js';
export { default } from './suite.js';

export function handleSummary(data) {
  const json = JSON.stringify(data);
  const out = { stdout: `--- k6 summary json begin ---\n${json}\n--- k6 summary json end ---\n` };
  if (__ENV.RESULTS_DIR) {
    out[`${__ENV.RESULTS_DIR}/${__ENV.RUN_ID}-summary.json`] = json;
  }
  return out;
}

import http from 'k6/http';
export const options = {
  scenarios: { get: { executor: 'constant-arrival-rate', rate: Number(__ENV.RATE || 800), timeUnit: '1s',
    duration: __ENV.DURATION || '60s', preAllocatedVUs: 50, maxVUs: 200 } },
  discardResponseBodies: true,
};
export default function () {
  http.get(`http://127.0.0.1:8081/api/customers/${__ENV.ID}`);
}

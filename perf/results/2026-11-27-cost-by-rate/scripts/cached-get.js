// cached-get.js: one order read again and again at a constant rate: ORDER=<id> RATE=<per second> DUR=<duration>.
import http from 'k6/http';
export const options = { scenarios: { g: { executor: 'constant-arrival-rate', rate: Number(__ENV.RATE||500), timeUnit: '1s', duration: __ENV.DUR||'40s', preAllocatedVUs: 20, maxVUs: 100 } } };
export default function () { http.get(`http://127.0.0.1:8083/api/orders/${__ENV.ORDER}`); }

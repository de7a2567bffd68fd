// The perf suite's weighted mix, run inside the cluster by the chart's k6 Job (loadTest.enabled=true).
//
// Each iteration is one operation: 60 % place an order (a share of them followed until the saga ends), 25 % reserve
// stock directly, 15 % register a customer; iterations start at a constant arrival rate, so the rate, not a number of
// virtual users, is what the run holds. VUs are sized from the rate by the chart; dropped iterations (the generator
// could not keep the rate) fail the run rather than quietly lower it.
//
// Settings come from the environment the Job sets: BASE_URL, RATE, DURATION, PRE_ALLOCATED_VUS, MAX_VUS,
// MIX_CREATE_ORDER, MIX_RESERVE_STOCK, MIX_CREATE_CUSTOMER, FOLLOW_SAGA_SHARE, SAGA_WAIT_SECONDS, CUSTOMERS, PRODUCTS,
// RUN_ID and RESULTS_DIR (empty: the summary goes to the log only).
import http from 'k6/http';
import { check, sleep } from 'k6';
import exec from 'k6/execution';
import { Counter, Rate, Trend } from 'k6/metrics';

const env = (name, fallback) => (__ENV[name] === undefined || __ENV[name] === '' ? fallback : __ENV[name]);

const BASE = env('BASE_URL', 'http://localhost:8080').replace(/\/$/, '');
const RATE = parseInt(env('RATE', '10'), 10);
const DURATION = env('DURATION', '1m');
const RUN_ID = env('RUN_ID', `run-${Date.now()}`);
const RESULTS_DIR = env('RESULTS_DIR', '');
const WEIGHTS = {
  createOrder: parseFloat(env('MIX_CREATE_ORDER', '60')),
  reserveStock: parseFloat(env('MIX_RESERVE_STOCK', '25')),
  createCustomer: parseFloat(env('MIX_CREATE_CUSTOMER', '15')),
};
const FOLLOW_SAGA_SHARE = parseFloat(env('FOLLOW_SAGA_SHARE', '0.1'));
const SAGA_WAIT_MS = parseInt(env('SAGA_WAIT_SECONDS', '35'), 10) * 1000;
const CUSTOMERS = parseInt(env('CUSTOMERS', '100'), 10);
const PRODUCTS = parseInt(env('PRODUCTS', '50'), 10);

const JSON_HEADERS = { headers: { 'Content-Type': 'application/json' } };

const sagaEndToEnd = new Trend('saga_e2e', true);
const sagaFinished = new Rate('saga_finished_in_time');
const sagaConfirmed = new Counter('saga_confirmed');
const sagaCancelled = new Counter('saga_cancelled');

function seconds(duration) {
  const units = { ms: 0.001, s: 1, m: 60, h: 3600 };
  const part = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  let total = 0;
  let match;
  while ((match = part.exec(duration)) !== null) {
    total += parseFloat(match[1]) * units[match[2]];
  }
  return total;
}

export const options = {
  scenarios: {
    mix: {
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: DURATION,
      preAllocatedVUs: parseInt(env('PRE_ALLOCATED_VUS', '20'), 10),
      maxVUs: parseInt(env('MAX_VUS', '100'), 10),
    },
  },
  setupTimeout: '5m',
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
  thresholds: {
    // A run with errors or with iterations the generator could not start is not a measurement of the system.
    'http_req_failed{scenario:mix}': ['rate<0.01'],
    dropped_iterations: [`count<=${Math.ceil(RATE * seconds(DURATION) * 0.01)}`],
    // Listed so that the summary reports the run without the setup's requests, and each operation apart.
    'http_reqs{scenario:mix}': ['count>=0'],
    'http_req_duration{op:create_order}': ['p(95)>=0'],
    'http_req_duration{op:reserve_stock}': ['p(95)>=0'],
    'http_req_duration{op:create_customer}': ['p(95)>=0'],
    saga_e2e: ['p(95)>=0'],
  },
};

function uuid() {
  return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) => {
    const r = (Math.random() * 16) | 0;
    return (c === 'x' ? r : (r & 0x3) | 0x8).toString(16);
  });
}

function pick(items) {
  return items[Math.floor(Math.random() * items.length)];
}

function registerCustomer(tag, index) {
  const res = http.post(
    `${BASE}/api/customers`,
    JSON.stringify({ email: `k6-${RUN_ID}-${tag}-${index}@example.com`, name: `Load ${index}`, address: '1 Test Street' }),
    Object.assign({ tags: { op: 'create_customer' } }, JSON_HEADERS),
  );
  check(res, { 'customer registered': (r) => r.status === 201 });
  return res.status === 201 ? res.json('customerId') : null;
}

function createProduct(index) {
  const res = http.post(
    `${BASE}/api/products`,
    JSON.stringify({
      sku: `k6-${RUN_ID}-${index}`,
      name: `Load product ${index}`,
      price: (5 + (index % 20)).toFixed(2),
      // Enough that neither the orders nor the direct reservations of any run use it up.
      quantityOnHand: 1000000000,
      category: 'load',
    }),
    Object.assign({ tags: { op: 'setup' } }, JSON_HEADERS),
  );
  if (res.status !== 201) {
    exec.test.abort(`creating a product failed: ${res.status} ${res.body}`);
  }
  return res.json('productId');
}

// While the setup waits for the order service to learn of its customers and products, 422 is expected.
const SETUP_STATUSES = http.expectedStatuses(201, 422);

function placeOrder(customerId, productIds, tags, responseCallback) {
  const params = Object.assign({ tags }, JSON_HEADERS);
  if (responseCallback) {
    params.responseCallback = responseCallback;
  }
  return http.post(
    `${BASE}/api/orders`,
    JSON.stringify({
      customerId,
      lineItems: productIds.map((productId) => ({ productId, quantity: 1 })),
      shippingAddress: '1 Test Street',
    }),
    params,
  );
}

// The order service learns customers and products from their events; wait until it knows every one of them.
function awaitOrderServiceCopies(customers, products) {
  const deadline = Date.now() + 120000;
  const pending = [];
  for (let i = 0; i < Math.max(customers.length, products.length); i++) {
    pending.push([customers[i % customers.length], products[i % products.length]]);
  }
  while (pending.length > 0) {
    const [customerId, productId] = pending[0];
    const res = placeOrder(customerId, [productId], { op: 'setup' }, SETUP_STATUSES);
    if (res.status === 201) {
      pending.shift();
    } else if (res.status === 422 && Date.now() < deadline) {
      sleep(0.5);
    } else {
      exec.test.abort(`the order service does not know the setup's customers and products: ${res.status} ${res.body}`);
    }
  }
}

export function setup() {
  const customers = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    const id = registerCustomer('setup', i);
    if (id === null) {
      exec.test.abort('registering the setup customers failed');
    }
    customers.push(id);
  }
  const products = [];
  for (let i = 0; i < PRODUCTS; i++) {
    products.push(createProduct(i));
  }
  awaitOrderServiceCopies(customers, products);
  return { customers, products };
}

function followSaga(orderId, startedAt) {
  while (Date.now() - startedAt < SAGA_WAIT_MS) {
    sleep(0.1);
    const res = http.get(`${BASE}/api/orders/${orderId}`, { tags: { op: 'poll_order', name: 'GET /api/orders/{id}' } });
    const status = res.status === 200 ? res.json('status') : null;
    if (status === 'CONFIRMED' || status === 'CANCELLED') {
      sagaEndToEnd.add(Date.now() - startedAt);
      sagaFinished.add(true);
      (status === 'CONFIRMED' ? sagaConfirmed : sagaCancelled).add(1);
      return;
    }
  }
  sagaFinished.add(false);
}

export default function (data) {
  const roll = Math.random() * (WEIGHTS.createOrder + WEIGHTS.reserveStock + WEIGHTS.createCustomer);
  if (roll < WEIGHTS.createOrder) {
    const lines = [pick(data.products)];
    if (Math.random() < 0.5) {
      lines.push(pick(data.products));
    }
    const startedAt = Date.now();
    const res = placeOrder(pick(data.customers), [...new Set(lines)], { op: 'create_order' });
    check(res, { 'order placed': (r) => r.status === 201 });
    if (res.status === 201 && Math.random() < FOLLOW_SAGA_SHARE) {
      followSaga(res.json('orderId'), startedAt);
    }
  } else if (roll < WEIGHTS.createOrder + WEIGHTS.reserveStock) {
    const res = http.post(
      `${BASE}/api/products/${pick(data.products)}/stock/reserve`,
      JSON.stringify({ quantity: 1, orderId: uuid() }),
      Object.assign({ tags: { op: 'reserve_stock', name: 'POST /api/products/{id}/stock/reserve' } }, JSON_HEADERS),
    );
    check(res, { 'stock reserved': (r) => r.status >= 200 && r.status < 300 });
  } else {
    registerCustomer(`vu${exec.vu.idInTest}`, exec.vu.iterationInScenario);
  }
}

function metric(data, name, stat) {
  const m = data.metrics[name];
  return m && m.values[stat] !== undefined ? m.values[stat] : null;
}

function format(value) {
  return value === null ? '-' : value.toFixed(2);
}

function line(label, ...values) {
  return `${label.padEnd(40)} ${values.map(format).join(' / ')}`;
}

export function handleSummary(data) {
  const rows = [
    `sagaflow weighted mix, run ${RUN_ID}: target ${RATE} iterations/s for ${DURATION} against ${BASE}`,
    line('iterations/s achieved', (metric(data, 'iterations', 'count') || 0) / seconds(DURATION)),
    line('dropped iterations', metric(data, 'dropped_iterations', 'count') || 0),
    line('HTTP requests/s', (metric(data, 'http_reqs{scenario:mix}', 'count') || 0) / seconds(DURATION)),
    line('HTTP error rate (%)', (metric(data, 'http_req_failed{scenario:mix}', 'rate') || 0) * 100),
    line('VUs (max)', metric(data, 'vus_max', 'max')),
  ];
  for (const op of ['create_order', 'reserve_stock', 'create_customer']) {
    const name = `http_req_duration{op:${op}}`;
    rows.push(line(`${op} p50 / p95 / p99 (ms)`, metric(data, name, 'med'), metric(data, name, 'p(95)'),
      metric(data, name, 'p(99)')));
  }
  rows.push(line('saga end-to-end p50 / p95 / p99 (ms)', metric(data, 'saga_e2e', 'med'),
    metric(data, 'saga_e2e', 'p(95)'), metric(data, 'saga_e2e', 'p(99)')));
  rows.push(line('sagas finished in time (%)', (metric(data, 'saga_finished_in_time', 'rate') || 0) * 100));
  const json = JSON.stringify(data);
  const out = {
    // The sweep script (perf/k8s/run-sweep.sh) cuts the JSON out of the log between these two lines.
    stdout: `${rows.join('\n')}\n--- k6 summary json begin ---\n${json}\n--- k6 summary json end ---\n`,
  };
  if (RESULTS_DIR) {
    out[`${RESULTS_DIR}/${RUN_ID}-summary.json`] = json;
  }
  return out;
}

// Shared by the Sagaflow k6 scripts: configuration, the VU budget, the SLO thresholds, seeding and the operations.
// k6 built-ins only: no script may import anything from the internet.
//
// Every setting is an environment variable (k6 run -e NAME=value ...); perf/README.md lists them.

import http from 'k6/http';
import { sleep } from 'k6';
import { Counter, Trend } from 'k6/metrics';

// --- Configuration -------------------------------------------------------------------------------------------

function env(name, fallback) {
  const value = __ENV[name];
  return value === undefined || value === '' ? fallback : value;
}

function num(name, fallback) {
  const value = Number(env(name, fallback));
  if (!Number.isFinite(value)) {
    throw new Error(`${name} must be a number, was '${__ENV[name]}'`);
  }
  return value;
}

function urls(name, fallback) {
  return String(env(name, fallback))
    .split(',')
    .map((u) => u.trim().replace(/\/$/, ''))
    .filter((u) => u.length > 0);
}

/** Seconds in a k6 duration string ('90s', '3m', '1h30m', '500ms') or a plain number of seconds. */
export function seconds(duration) {
  if (/^\d+(\.\d+)?$/.test(String(duration))) {
    return Number(duration);
  }
  let total = 0;
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  let match;
  let seen = '';
  while ((match = re.exec(duration)) !== null) {
    const factor = { ms: 0.001, s: 1, m: 60, h: 3600 }[match[2]];
    total += Number(match[1]) * factor;
    seen += match[0];
  }
  if (seen !== String(duration)) {
    throw new Error(`not a duration: '${duration}'`);
  }
  return total;
}

/**
 * Reads the settings; `defaults` are the script's own (a profile), the environment overrides them.
 * The mix is in per cent of iterations: create order, reserve stock, create customer.
 */
export function config(defaults = {}) {
  const d = Object.assign(
    {
      rate: 100,
      duration: '3m',
      warmup: '30s',
      mix: '60,25,15',
      vuStallS: 2.5,
      pollShare: 0.1,
    },
    defaults,
  );
  const target = env('TARGET', 'direct');
  if (target !== 'direct' && target !== 'gateway') {
    throw new Error(`TARGET must be direct or gateway, was '${target}'`);
  }
  const gateway = urls('GATEWAY_URL', 'http://127.0.0.1:8080');
  const mix = String(env('MIX', d.mix)).split(',').map(Number);
  if (mix.length !== 3 || mix.some((w) => !Number.isFinite(w) || w < 0) || mix[0] + mix[1] + mix[2] <= 0) {
    throw new Error(`MIX must be three weights 'order,reserve,customer', was '${env('MIX', d.mix)}'`);
  }
  const total = mix[0] + mix[1] + mix[2];
  const c = {
    target,
    accountUrls: target === 'gateway' ? gateway : urls('ACCOUNT_URLS', 'http://127.0.0.1:8081'),
    inventoryUrls: target === 'gateway' ? gateway : urls('INVENTORY_URLS', 'http://127.0.0.1:8082'),
    orderUrls: target === 'gateway' ? gateway : urls('ORDER_URLS', 'http://127.0.0.1:8083'),
    rate: num('RATE', d.rate),
    duration: env('DURATION', d.duration),
    warmup: env('WARMUP', d.warmup),
    warmupRate: num('WARMUP_RATE', -1),
    orderShare: mix[0] / total,
    reserveShare: mix[1] / total,
    customerShare: mix[2] / total,
    pollShare: num('POLL_SHARE', d.pollShare),
    // 'wait': each poll is a conditional GET that waits on the server for the order to change (If-None-Match,
    // Prefer: wait=N; ADR 0025); 'interval': a plain GET every POLL_INTERVAL_MS, as the reference clients poll.
    pollMode: env('POLL_MODE', 'wait'),
    pollWaitS: num('POLL_WAIT_S', 5),
    pollIntervalMs: num('POLL_INTERVAL_MS', 25),
    sagaTimeoutMs: num('SAGA_TIMEOUT_MS', 10000),
    httpTimeout: env('HTTP_TIMEOUT', '10s'),
    expectedHttpMs: num('EXPECTED_HTTP_MS', 50),
    expectedSagaMs: num('EXPECTED_SAGA_MS', 250),
    vuHeadroom: num('VU_HEADROOM', 2),
    vuStallS: num('VU_STALL_S', d.vuStallS),
    preAllocatedVUs: num('PRE_ALLOCATED_VUS', 0),
    maxVUs: num('MAX_VUS', 0),
    seedCustomers: num('SEED_CUSTOMERS', 200),
    seedProducts: num('SEED_PRODUCTS', 100),
    stockPerProduct: num('STOCK_PER_PRODUCT', 100000000),
    seedTimeoutS: num('SEED_TIMEOUT_S', 90),
    sloHttpP95Ms: num('SLO_HTTP_P95_MS', 50),
    sloSagaP95Ms: num('SLO_SAGA_P95_MS', 250),
    spikeOrders: num('SPIKE_ORDERS', d.spikeOrders || 200),
    // 1: every creating POST (and reservation) carries a new Idempotency-Key (ADR 0070); 0: none, as before.
    idempotencyKeys: num('IDEMPOTENCY_KEYS', 1),
  };
  if (c.warmupRate < 0) {
    c.warmupRate = c.rate;
  }
  if (c.pollMode !== 'wait' && c.pollMode !== 'interval') {
    throw new Error(`POLL_MODE must be wait or interval, was '${c.pollMode}'`);
  }
  if (c.idempotencyKeys !== 0 && c.idempotencyKeys !== 1) {
    throw new Error(`IDEMPOTENCY_KEYS must be 0 or 1, was ${c.idempotencyKeys}`);
  }
  if (c.pollShare < 0 || c.pollShare > 1) {
    throw new Error(`POLL_SHARE must be within 0..1, was ${c.pollShare}`);
  }
  return c;
}

// --- VU budget -----------------------------------------------------------------------------------------------

/**
 * VUs for a constant arrival rate, by Little's law (VUs in use = arrival rate x time per iteration).
 *
 * preAllocatedVUs covers the expected time per iteration (an HTTP call at the expected latency; the polled share
 * also waits for its saga at the expected saga time) times a headroom, plus a stall of everything for vuStallS
 * seconds at the full rate. They are what counts: when every pre-allocated VU is busy, k6 drops the iteration that
 * finds none and initialises one more VU in the background, one at a time. A stall of the host (this one's disk
 * stalls everything for 0.3-4.3 s, perf/results/2026-11-28-connection-lifetime-probe) would then read as dropped
 * iterations: requests never sent, whose latency nobody measures. Pre-allocated, they are sent on time and their
 * wait shows in the latency percentiles instead (ADR 0059). maxVUs covers every polled saga running into its client
 * time-out and every other iteration taking 1 s (20 x the HTTP SLO) at once: when a run still drops iterations, the
 * system under test was far past its SLOs and the generator was not the ceiling. The sweep reports the VUs used, so
 * a run that hit the budget shows it.
 */
export function vuBudget(c, rate) {
  const polled = c.orderShare * c.pollShare;
  const iterationS = c.expectedHttpMs / 1000 + polled * (c.expectedSagaMs / 1000 + c.pollIntervalMs / 1000);
  const pre = c.preAllocatedVUs > 0
    ? c.preAllocatedVUs
    : Math.ceil(rate * (iterationS * c.vuHeadroom + c.vuStallS)) + 10;
  const worstS = polled * (c.sagaTimeoutMs / 1000 + 1) + (1 - polled) * 1;
  const max = c.maxVUs > 0 ? c.maxVUs : Math.max(pre, Math.ceil(rate * worstS) + 10);
  return { preAllocatedVUs: pre, maxVUs: Math.max(pre, max) };
}

// --- Options: scenarios and thresholds (the SLOs) -----------------------------------------------------------

const TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'count'];
// 0: no response at all (a time-out or a refused or reset connection).
const UNEXPECTED_STATUSES = ['0', '400', '404', '409', '422', '429', '500', '502', '503', '504'];

/** Metrics of the measured phase reported in the summary; the ones with an SLO fail the run when breached. */
function thresholds(c, judgeLatency = true) {
  const measure = '{phase:measure}';
  const t = {};
  // SLOs.
  // A long poll lasts as long as the saga it waits for (that is saga E2E): HTTP latency is of the other requests.
  t[`http_req_duration{phase:measure,wait:no}`] = judgeLatency ? [`p(95)<=${c.sloHttpP95Ms}`] : ['max>=0'];
  t[`http_req_duration${measure}`] = ['max>=0'];
  t[`saga_e2e${measure}`] = judgeLatency ? [`p(95)<=${c.sloSagaP95Ms}`] : ['max>=0'];
  t[`http_req_failed${measure}`] = ['rate==0'];
  t['dropped_iterations{scenario:measure}'] = ['count==0'];
  t[`saga_timeouts${measure}`] = ['count==0'];
  t[`unexpected_responses${measure}`] = ['count==0'];
  // Reported only (a threshold makes k6 keep the sub-metric in its summary).
  for (const m of ['create_order', 'reserve_stock', 'create_customer', 'poll_order', 'iteration_duration']) {
    t[`${m}${measure}`] = ['max>=0'];
  }
  for (const m of ['http_reqs', 'iterations', 'saga_confirmed', 'saga_cancelled', 'saga_polled', 'saga_poll_misses',
    'stock_insufficient']) {
    t[`${m}${measure}`] = ['count>=0'];
  }
  // Unexpected responses split by status and by operation, so a failed run says what went wrong (the report counts
  // statuses not listed here as others). Only unexpected responses are matched against these, so they cost nothing
  // while all is well.
  for (const status of UNEXPECTED_STATUSES) {
    t[`unexpected_responses{phase:measure,status:${status}}`] = ['count>=0'];
  }
  for (const op of ['create_order', 'reserve_stock', 'create_customer', 'poll_order']) {
    t[`unexpected_responses{phase:measure,op:${op}}`] = ['count>=0'];
  }
  return t;
}

function arrivalScenario(c, rate, duration, phase, startTime) {
  const budget = vuBudget(c, rate);
  return {
    executor: 'constant-arrival-rate',
    rate,
    timeUnit: '1s',
    duration,
    startTime,
    preAllocatedVUs: budget.preAllocatedVUs,
    maxVUs: budget.maxVUs,
    // Long enough for a polled saga started in the last second to reach its client time-out.
    gracefulStop: `${Math.ceil(c.sagaTimeoutMs / 1000) + 5}s`,
    tags: { phase },
  };
}

function markerScenario(exec, startTime) {
  return { executor: 'shared-iterations', vus: 1, iterations: 1, startTime, exec, tags: { phase: 'marker' } };
}

// The system tags k6 puts on every sample, fewer than its defaults: without the request's full URL (a poll's URL names
// its order, so nearly every poll was a tag set of its own), its protocol, TLS version, gRPC service and error text, k6
// spent about 9 % less CPU an iteration of the mix (ADR 0086), CPU it takes from the stack on a shared machine. `name`
// keeps the endpoint; K6_SYSTEM_TAGS in the environment overrides this list (k6's own precedence).
const SYSTEM_TAGS = ['status', 'method', 'name', 'group', 'check', 'error_code', 'scenario', 'expected_response'];

function common(c) {
  return {
    discardResponseBodies: true,
    systemTags: SYSTEM_TAGS,
    summaryTrendStats: TREND_STATS,
    setupTimeout: `${c.seedTimeoutS + 60}s`,
  };
}

/**
 * A constant arrival rate: an optional warm-up at WARMUP_RATE (default: RATE) for WARMUP, then the measured
 * phase at RATE for DURATION. Two marker scenarios log the start and end of the measured phase, so the sweep can
 * scrape the services' histograms at those instants.
 */
export function arrivalOptions(c) {
  const scenarios = {};
  const warmupS = seconds(c.warmup);
  if (warmupS > 0) {
    scenarios.warmup = arrivalScenario(c, c.warmupRate, c.warmup, 'warmup', '0s');
    scenarios.warmup.gracefulStop = '0s';
  }
  scenarios.measure = arrivalScenario(c, c.rate, c.duration, 'measure', `${warmupS}s`);
  scenarios.mark_start = markerScenario('markMeasureStart', `${warmupS}s`);
  scenarios.mark_end = markerScenario('markMeasureEnd', `${warmupS + seconds(c.duration)}s`);
  return Object.assign(common(c), { scenarios, thresholds: thresholds(c) });
}

/**
 * A spike: an optional warm-up at WARMUP_RATE, then SPIKE_ORDERS virtual users each place one order at the same
 * instant (and poll it to its end when POLL_SHARE says so). Its latencies are reported, not judged: N requests
 * arriving together queue by design. It passes on no failed request, no dropped iteration and no saga time-out.
 */
export function spikeOptions(c) {
  const scenarios = {};
  const warmupS = seconds(c.warmup);
  if (warmupS > 0) {
    scenarios.warmup = arrivalScenario(c, c.warmupRate, c.warmup, 'warmup', '0s');
    scenarios.warmup.gracefulStop = '0s';
  }
  scenarios.measure = {
    executor: 'per-vu-iterations',
    vus: c.spikeOrders,
    iterations: 1,
    startTime: `${warmupS}s`,
    maxDuration: `${Math.ceil(c.sagaTimeoutMs / 1000) + 30}s`,
    exec: 'spikeIteration',
    tags: { phase: 'measure' },
  };
  scenarios.mark_start = markerScenario('markMeasureStart', `${warmupS}s`);
  return Object.assign(common(c), { scenarios, thresholds: thresholds(c, false) });
}

export function markMeasureStart() {
  console.log(`SAGAFLOW_MARK measure-start ${Date.now()}`);
}

export function markMeasureEnd() {
  console.log(`SAGAFLOW_MARK measure-end ${Date.now()}`);
}

// --- Metrics -------------------------------------------------------------------------------------------------

export const metrics = {
  createOrder: new Trend('create_order', true),
  reserveStock: new Trend('reserve_stock', true),
  createCustomer: new Trend('create_customer', true),
  pollOrder: new Trend('poll_order', true),
  sagaE2e: new Trend('saga_e2e', true),
  sagaPolled: new Counter('saga_polled'),
  sagaConfirmed: new Counter('saga_confirmed'),
  sagaCancelled: new Counter('saga_cancelled'),
  sagaTimeouts: new Counter('saga_timeouts'),
  sagaPollMisses: new Counter('saga_poll_misses'),
  stockInsufficient: new Counter('stock_insufficient'),
  unexpected: new Counter('unexpected_responses'),
};

// --- HTTP ----------------------------------------------------------------------------------------------------

const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json' };

function pick(list) {
  return list[Math.floor(Math.random() * list.length)];
}

function params(c, name, extra = {}, wait = 'no') {
  return Object.assign({ headers: JSON_HEADERS, timeout: c.httpTimeout, tags: { name, wait } }, extra);
}

// A POST with a new Idempotency-Key (ADR 0070): the service carries it out once however often it arrives, so k6's
// HTTP client (Go's) may send it again on a new connection when a kept-alive one closes under it, as it does for a
// GET, instead of failing it. A service may close an idle connection just as a VU reuses it (ADR 0069).
function keyedParams(c, name, extra = {}) {
  if (!c.idempotencyKeys) {
    return params(c, name, extra);
  }
  const headers = Object.assign({ 'Idempotency-Key': crypto.randomUUID() }, JSON_HEADERS);
  return params(c, name, Object.assign({ headers }, extra));
}

function unexpected(op, res) {
  metrics.unexpected.add(1, { op, status: String(res.status) });
  if (__ENV.VERBOSE) {
    console.warn(`${op}: unexpected ${res.status} ${res.error || ''} ${res.body || ''}`.slice(0, 300));
  }
}

function bodyOf(res) {
  try {
    return res.json();
  } catch (e) {
    return null;
  }
}

// --- Seeding (setup) -----------------------------------------------------------------------------------------

function randomPrice() {
  return Math.round((1 + Math.random() * 19) * 100) / 100;
}

function batched(requests, size) {
  const responses = [];
  for (let i = 0; i < requests.length; i += size) {
    responses.push(...http.batch(requests.slice(i, i + size)));
  }
  return responses;
}

/**
 * Seeds SEED_CUSTOMERS customers and SEED_PRODUCTS products with STOCK_PER_PRODUCT units each through the API,
 * then waits until the order service knows all of them (its copies arrive by events): one small probe order per
 * customer, covering every product, retried until each is accepted. Returns the ids for the iterations.
 */
export function seed(c) {
  const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const seedParams = { headers: JSON_HEADERS, timeout: '30s', responseType: 'text', tags: { name: 'seed' } };

  const productRequests = [];
  for (let i = 0; i < c.seedProducts; i++) {
    productRequests.push(['POST', `${c.inventoryUrls[0]}/api/products`, JSON.stringify({
      sku: `perf-${run}-${i}`,
      name: `Perf product ${i}`,
      price: randomPrice(),
      quantityOnHand: c.stockPerProduct,
    }), seedParams]);
  }
  const products = batched(productRequests, 20).map((res, i) => {
    if (res.status !== 201) {
      throw new Error(`seeding product ${i}: ${res.status} ${res.body}`);
    }
    return res.json('productId');
  });

  const customerRequests = [];
  for (let i = 0; i < c.seedCustomers; i++) {
    customerRequests.push(['POST', `${c.accountUrls[0]}/api/customers`, JSON.stringify({
      email: `perf-${run}-${i}@perf.sagaflow.test`,
      name: `Perf customer ${i}`,
    }), seedParams]);
  }
  const customers = batched(customerRequests, 20).map((res, i) => {
    if (res.status !== 201) {
      throw new Error(`seeding customer ${i}: ${res.status} ${res.body}`);
    }
    return res.json('customerId');
  });

  // One probe order per customer; every product appears in one of them.
  let pending = customers.map((customerId, i) => {
    const lineItems = [];
    for (let p = i; p < products.length || p === i; p += customers.length) {
      lineItems.push({ productId: products[p % products.length], quantity: 1 });
    }
    return { customerId, lineItems: lineItems.slice(0, 100), shippingAddress: 'Probe Street 1' };
  });
  const deadline = Date.now() + c.seedTimeoutS * 1000;
  while (pending.length > 0) {
    const responses = batched(
      pending.map((order) => ['POST', `${c.orderUrls[0]}/api/orders`, JSON.stringify(order), seedParams]),
      20,
    );
    const retry = [];
    responses.forEach((res, i) => {
      if (res.status === 422) {
        retry.push(pending[i]);
      } else if (res.status !== 201) {
        throw new Error(`probe order: ${res.status} ${res.body}`);
      }
    });
    pending = retry;
    if (pending.length > 0) {
      if (Date.now() > deadline) {
        throw new Error(`the order service still does not know ${pending.length} seeded customers or products`);
      }
      sleep(0.5);
    }
  }
  console.log(`seeded ${customers.length} customers and ${products.length} products (run ${run})`);
  return { run, customers, products };
}

// --- Operations ----------------------------------------------------------------------------------------------

export function createCustomer(c, data) {
  const res = http.post(
    `${pick(c.accountUrls)}/api/customers`,
    JSON.stringify({
      email: `perf-${data.run}-${__VU}-${__ITER}-${Math.floor(Math.random() * 1e9)}@perf.sagaflow.test`,
      name: `Perf customer ${__VU}-${__ITER}`,
    }),
    keyedParams(c, 'POST /api/customers'),
  );
  metrics.createCustomer.add(res.timings.duration);
  if (res.status !== 201) {
    unexpected('create_customer', res);
  }
}

export function reserveStock(c, data) {
  const res = http.post(
    `${pick(c.inventoryUrls)}/api/products/${pick(data.products)}/stock/reserve`,
    JSON.stringify({ quantity: 1 + Math.floor(Math.random() * 3), orderId: crypto.randomUUID() }),
    // A reservation is idempotent by its order id (made again, it changes nothing and answers alike): the service
    // needs no key, the key only tells k6's client that it may send the request again.
    keyedParams(c, 'POST /api/products/{id}/stock/reserve', {
      responseType: 'text',
      // 409 INSUFFICIENT_STOCK is a correct answer, not a failed request; it is counted on its own.
      responseCallback: http.expectedStatuses(200, 409),
    }),
  );
  metrics.reserveStock.add(res.timings.duration);
  if (res.status === 409) {
    const problem = bodyOf(res);
    if (problem && problem.code === 'INSUFFICIENT_STOCK') {
      metrics.stockInsufficient.add(1);
    } else {
      unexpected('reserve_stock', res);
    }
  } else if (res.status !== 200) {
    unexpected('reserve_stock', res);
  }
}

/** Places an order; returns [orderId or null, the instant the request was sent, the order's ETag]. */
export function placeOrder(c, data) {
  const lines = 1 + Math.floor(Math.random() * 2);
  const lineItems = [];
  for (let i = 0; i < lines; i++) {
    lineItems.push({ productId: pick(data.products), quantity: 1 + Math.floor(Math.random() * 3) });
  }
  const started = Date.now();
  const res = http.post(
    `${pick(c.orderUrls)}/api/orders`,
    JSON.stringify({ customerId: pick(data.customers), lineItems, shippingAddress: 'Perf Street 1, 1000 Test' }),
    keyedParams(c, 'POST /api/orders', { responseType: 'text' }),
  );
  metrics.createOrder.add(res.timings.duration);
  if (res.status !== 201) {
    unexpected('create_order', res);
    return [null, started];
  }
  const order = bodyOf(res);
  if (!order || !order.orderId) {
    unexpected('create_order', res);
    return [null, started];
  }
  return [order.orderId, started, res.headers.Etag];
}

/** One poll: a GET that waits for a change of the order from `etag` (POLL_MODE=wait), or a plain GET. */
function pollOnce(c, orderId, etag, deadline) {
  const url = `${pick(c.orderUrls)}/api/orders/${orderId}`;
  if (c.pollMode === 'wait' && etag) {
    const waitS = Math.max(1, Math.min(c.pollWaitS, Math.ceil((deadline - Date.now()) / 1000)));
    const headers = Object.assign({}, JSON_HEADERS, { 'If-None-Match': etag, Prefer: `wait=${waitS}` });
    return http.get(url, params(c, 'GET /api/orders/{id}', {
      headers,
      responseType: 'text',
      responseCallback: http.expectedStatuses(200, 304),
    }, 'yes'));
  }
  sleep(c.pollIntervalMs / 1000);
  return http.get(url, params(c, 'GET /api/orders/{id}', { responseType: 'text' }));
}

/**
 * Polls the order until CONFIRMED or CANCELLED. Saga E2E runs from sending the order to seeing its end; a saga that
 * has not ended after SAGA_TIMEOUT_MS counts in saga_timeouts and not in the latency.
 */
export function pollToEnd(c, orderId, started, placedEtag) {
  metrics.sagaPolled.add(1);
  const deadline = started + c.sagaTimeoutMs;
  let etag = placedEtag;
  while (Date.now() < deadline) {
    const res = pollOnce(c, orderId, etag, deadline);
    metrics.pollOrder.add(res.timings.duration);
    if (res.status === 304) {
      continue;
    }
    if (res.status === 404) {
      metrics.sagaPollMisses.add(1);
      if (c.pollMode === 'wait') {
        sleep(c.pollIntervalMs / 1000);
      }
      continue;
    }
    if (res.status !== 200) {
      unexpected('poll_order', res);
      if (c.pollMode === 'wait') {
        sleep(c.pollIntervalMs / 1000);
      }
      continue;
    }
    etag = res.headers.Etag || etag;
    const order = bodyOf(res);
    const status = order && order.status;
    if (status === 'CONFIRMED' || status === 'CANCELLED') {
      metrics.sagaE2e.add(Date.now() - started);
      (status === 'CONFIRMED' ? metrics.sagaConfirmed : metrics.sagaCancelled).add(1);
      return status;
    }
  }
  metrics.sagaTimeouts.add(1);
  return 'TIMED_OUT';
}

/** One iteration of the weighted mix. */
export function mixIteration(c, data) {
  const r = Math.random();
  if (r < c.orderShare) {
    const [orderId, started, etag] = placeOrder(c, data);
    if (orderId && Math.random() < c.pollShare) {
      pollToEnd(c, orderId, started, etag);
    }
  } else if (r < c.orderShare + c.reserveShare) {
    reserveStock(c, data);
  } else {
    createCustomer(c, data);
  }
}

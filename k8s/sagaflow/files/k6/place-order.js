// `helm test`: through the gateway, register a customer and create a product, place an order for it, and wait until
// the order's saga has finished (CONFIRMED or CANCELLED). Fails (k6 exits non-zero) on any other outcome.
//
// BASE_URL is the gateway; TIMEOUT_SECONDS bounds the whole test.
import http from 'k6/http';
import { check, fail, sleep } from 'k6';

const BASE = (__ENV.BASE_URL || 'http://localhost:8080').replace(/\/$/, '');
const DEADLINE = Date.now() + parseInt(__ENV.TIMEOUT_SECONDS || '120', 10) * 1000;
const JSON_HEADERS = { headers: { 'Content-Type': 'application/json' } };

export const options = {
  vus: 1,
  iterations: 1,
  thresholds: { checks: ['rate==1'] },
};

function created(res, what) {
  if (!check(res, { [`${what}: 201 Created`]: (r) => r.status === 201 })) {
    fail(`${what}: ${res.status} ${res.body}`);
  }
  return res.json();
}

export default function () {
  const tag = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const customer = created(
    http.post(`${BASE}/api/customers`,
      JSON.stringify({ email: `helm-test-${tag}@example.com`, name: 'Helm Test' }), JSON_HEADERS),
    'register a customer');
  const product = created(
    http.post(`${BASE}/api/products`,
      JSON.stringify({ sku: `helm-test-${tag}`, name: 'Helm test product', price: '9.99', quantityOnHand: 10 }),
      JSON_HEADERS),
    'create a product');

  // The order service learns of the customer and the product from their events: 422 until then.
  const placing = Object.assign({ responseCallback: http.expectedStatuses(201, 422) }, JSON_HEADERS);
  let res;
  for (;;) {
    res = http.post(`${BASE}/api/orders`, JSON.stringify({
      customerId: customer.customerId,
      lineItems: [{ productId: product.productId, quantity: 1 }],
      shippingAddress: '1 Test Street',
    }), placing);
    if (res.status !== 422 || Date.now() > DEADLINE) {
      break;
    }
    sleep(1);
  }
  const order = created(res, 'place an order');
  console.log(`order ${order.orderId} placed, ${order.status}`);

  let status = order.status;
  while (status === 'PENDING' && Date.now() < DEADLINE) {
    sleep(0.5);
    const poll = http.get(`${BASE}/api/orders/${order.orderId}`);
    if (poll.status === 200) {
      status = poll.json('status');
    }
  }
  console.log(`order ${order.orderId}: ${status}`);
  check(status, { 'the saga finished: CONFIRMED or CANCELLED': (s) => s === 'CONFIRMED' || s === 'CANCELLED' });
}

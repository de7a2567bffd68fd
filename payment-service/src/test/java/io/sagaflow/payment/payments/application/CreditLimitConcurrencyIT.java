package io.sagaflow.payment.payments.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sagaflow.framework.eventstore.EventSerializer;
import io.sagaflow.framework.messaging.EventMessage;
import io.sagaflow.framework.messaging.ReliableTopicEventBus;
import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.order.contracts.PaymentRequested;
import io.sagaflow.payment.OrderServiceOutbox;
import io.sagaflow.payment.TestHttp;
import io.sagaflow.payment.payments.domain.Money;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;

/** The credit check is atomic per customer: concurrent payments of one customer never take it past the limit. */
@SagaflowIntegrationTest
class CreditLimitConcurrencyIT {

    private static final BigDecimal CREDIT_LIMIT = Money.of("50000.00");

    @Value("${local.server.port}")
    int port;

    @Autowired
    ReliableTopicEventBus bus;

    @Autowired
    EventSerializer serializer;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void concurrentHttpPaymentsOfOneCustomerCaptureExactlyUpToTheLimit() throws Exception {
        UUID customer = UUID.randomUUID();
        TestHttp http = new TestHttp(port);
        int requests = 24;
        List<Future<TestHttp.Response>> responses = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(requests)) {
            CountDownLatch start = new CountDownLatch(1);
            for (int i = 0; i < requests; i++) {
                responses.add(pool.submit(() -> {
                    start.await();
                    return http.post(
                            "/api/payments",
                            "{\"orderId\":\"%s\",\"customerId\":\"%s\",\"amount\":5000.00}"
                                    .formatted(UUID.randomUUID(), customer));
                }));
            }
            start.countDown();
        }

        int captured = 0;
        for (Future<TestHttp.Response> response : responses) {
            TestHttp.Response payment = response.get();
            assertThat(payment.status()).as(payment.body()).isEqualTo(201);
            if (payment.json().get("status").asString().equals("CAPTURED")) {
                captured++;
            } else {
                assertThat(payment.json().get("declineCode").asString()).isEqualTo("CREDIT_LIMIT_EXCEEDED");
            }
        }
        assertThat(captured).isEqualTo(10);
        assertThat(outstanding(customer)).isEqualByComparingTo(CREDIT_LIMIT);
    }

    @Test
    void concurrentSagaAndHttpPaymentsOfOneCustomerShareTheLimit() throws Exception {
        UUID customer = UUID.randomUUID();
        TestHttp http = new TestHttp(port);
        OrderServiceOutbox orderService = new OrderServiceOutbox(bus, serializer);
        int each = 8;
        List<EventMessage> sagaRequests = new ArrayList<>();
        for (int i = 0; i < each; i++) {
            UUID order = UUID.randomUUID();
            sagaRequests.add(orderService.message(order, 3, new PaymentRequested(order, customer, Money.of("7000"))));
        }
        try (ExecutorService pool = Executors.newFixedThreadPool(each + 1)) {
            CountDownLatch start = new CountDownLatch(1);
            pool.submit(() -> {
                start.await();
                orderService.publish(sagaRequests.toArray(EventMessage[]::new));
                return null;
            });
            for (int i = 0; i < each; i++) {
                pool.submit(() -> {
                    start.await();
                    return http.post(
                            "/api/payments",
                            "{\"orderId\":\"%s\",\"customerId\":\"%s\",\"amount\":7000.00}"
                                    .formatted(UUID.randomUUID(), customer));
                });
            }
            start.countDown();
        }

        await().atMost(Duration.ofSeconds(30))
                .until(() -> statuses(customer).values().stream()
                                .mapToInt(Integer::intValue)
                                .sum()
                        == 2 * each);
        // 7 × 7 000.00 = 49 000.00 fits the 50 000.00 limit; an eighth would not.
        assertThat(statuses(customer)).containsEntry("CAPTURED", 7).containsEntry("DECLINED", 2 * each - 7);
        assertThat(jdbc.queryForList(
                        "select distinct decline_code from payment_view where customer_id = ? and status = 'DECLINED'",
                        String.class,
                        customer))
                .containsExactly("CREDIT_LIMIT_EXCEEDED");
        assertThat(outstanding(customer)).isEqualByComparingTo("49000.00");
    }

    private Map<String, Integer> statuses(UUID customer) {
        return jdbc
                .queryForList(
                        "select status, count(*)::int as n from payment_view where customer_id = ? group by status",
                        customer)
                .stream()
                .collect(Collectors.toMap(row -> (String) row.get("status"), row -> (Integer) row.get("n")));
    }

    private BigDecimal outstanding(UUID customer) {
        return jdbc.queryForObject(
                "select captured - refunded from customer_credit where customer_id = ?", BigDecimal.class, customer);
    }
}

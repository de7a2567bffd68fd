package io.sagaflow.payment.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.payment.TestHttp;
import io.sagaflow.payment.TestHttp.Response;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import tools.jackson.databind.JsonNode;

/** {@code GET /api/admin/audit/payments}: money per order, paged by order id, and the totals. */
@SagaflowIntegrationTest
class PaymentAuditApiIT {

    @Value("${local.server.port}")
    int port;

    private TestHttp http;

    /** One order of a page, its amounts in cents. */
    private record Money(String orderId, BigDecimal captured, BigDecimal refunded) {

        Money {
            captured = captured.setScale(2);
            refunded = refunded.setScale(2);
        }
    }

    @BeforeEach
    void setUp() {
        http = new TestHttp(port);
    }

    @Test
    void pagesHoldEveryOrderExactlyOnce_inPostgresUuidOrder() {
        // Five orders under one random high half, so no other test's order falls between them; the low halves put
        // two orders above 0x7fff... where UUID.compareTo (signed) and PostgreSQL (unsigned) disagree.
        long high = ThreadLocalRandom.current().nextLong();
        UUID start = new UUID(high, 0);
        List<UUID> orders = List.of(
                new UUID(high, 0xf000_0000_0000_0000L),
                new UUID(high, 2),
                new UUID(high, 0x8000_0000_0000_0001L),
                new UUID(high, 1),
                new UUID(high, 0x7000_0000_0000_0000L));
        List<Money> expected = new ArrayList<>();
        for (int i = 0; i < orders.size(); i++) {
            UUID order = orders.get(i);
            UUID customer = UUID.randomUUID();
            String first = pay(order, customer, (i + 1) + ".00");
            pay(order, customer, "0.50");
            BigDecimal refunded = BigDecimal.ZERO;
            if (i % 2 == 0) {
                assertThat(http.post("/api/payments/" + first + "/refund", "{\"reason\":\"x\"}")
                                .status())
                        .isEqualTo(200);
                refunded = new BigDecimal(i + 1);
            }
            expected.add(new Money(order.toString(), new BigDecimal(i + 1).add(new BigDecimal("0.50")), refunded));
        }
        expected.sort(Comparator.comparing(Money::orderId));

        List<Money> seen = new ArrayList<>();
        String after = start.toString();
        int pages = 0;
        while (true) {
            Response page = http.get("/api/admin/audit/payments?limit=2&after=" + after);
            assertThat(page.status()).as(page.body()).isEqualTo(200);
            List<Money> money = money(page.json());
            assertThat(money).hasSizeLessThanOrEqualTo(2);
            assertThat(page.json().get("totalCaptured").isNumber()).isTrue();
            List<Money> ours = money.stream()
                    .filter(m -> m.orderId().startsWith(start.toString().substring(0, 19)))
                    .toList();
            seen.addAll(ours);
            pages++;
            // A page of fewer orders than the limit is the last; one reaching past our orders ends the walk too.
            if (money.size() < 2 || ours.size() < money.size()) {
                break;
            }
            after = money.getLast().orderId();
        }

        assertThat(pages).isEqualTo(3);
        assertThat(seen).containsExactlyElementsOf(expected);
    }

    @Test
    void theTotalsCoverEveryOrderNotOnlyThePage() {
        UUID order = UUID.randomUUID();
        pay(order, UUID.randomUUID(), "3.00");

        JsonNode all = http.get("/api/admin/audit/payments?limit=10000").json();
        JsonNode one = http.get("/api/admin/audit/payments?limit=1").json();

        assertThat(one.get("orders").size()).isEqualTo(1);
        assertThat(one.get("totalCaptured").decimalValue())
                .isEqualByComparingTo(all.get("totalCaptured").decimalValue())
                .isGreaterThanOrEqualTo(new BigDecimal("3.00"));
        assertThat(one.get("totalRefunded").decimalValue())
                .isEqualByComparingTo(all.get("totalRefunded").decimalValue());
        assertThat(http.get("/api/admin/audit/payments").json().get("orders").get(0))
                .isEqualTo(one.get("orders").get(0));
    }

    @Test
    void withoutTheTotalsAPageHasTheSameOrdersAndNullTotals() {
        pay(UUID.randomUUID(), UUID.randomUUID(), "4.00");

        JsonNode with = http.get("/api/admin/audit/payments?limit=3").json();
        JsonNode without =
                http.get("/api/admin/audit/payments?limit=3&totals=false").json();

        assertThat(without.get("orders")).isEqualTo(with.get("orders"));
        assertThat(without.get("totalCaptured").isNull()).isTrue();
        assertThat(without.get("totalRefunded").isNull()).isTrue();
        assertThat(http.get("/api/admin/audit/payments?limit=3&totals=true")
                        .json()
                        .get("totalCaptured")
                        .isNumber())
                .isTrue();
    }

    @Test
    void aBadAfterOrLimitIs400Problem() {
        for (String query : List.of("after=not-a-uuid", "after=1234", "limit=many", "totals=maybe")) {
            assertProblem(http.get("/api/admin/audit/payments?" + query), "INVALID_PARAMETER");
        }
        for (String limit : List.of("0", "-1", "10001")) {
            assertProblem(http.get("/api/admin/audit/payments?limit=" + limit), "VALIDATION_FAILED");
        }
    }

    private String pay(UUID order, UUID customer, String amount) {
        Response response = http.post(
                "/api/payments",
                "{\"orderId\":\"%s\",\"customerId\":\"%s\",\"amount\":%s}".formatted(order, customer, amount));
        assertThat(response.status()).as(response.body()).isEqualTo(201);
        assertThat(response.json().get("status").asString()).isEqualTo("CAPTURED");
        return response.json().get("paymentId").asString();
    }

    private static List<Money> money(JsonNode page) {
        List<Money> money = new ArrayList<>();
        for (JsonNode order : page.get("orders")) {
            money.add(new Money(
                    order.get("orderId").asString(),
                    order.get("captured").decimalValue(),
                    order.get("refunded").decimalValue()));
        }
        return money;
    }

    private static void assertProblem(Response response, String code) {
        assertThat(response.status()).as(response.body()).isEqualTo(400);
        assertThat(response.header("Content-Type")).isEqualTo("application/problem+json");
        assertThat(response.json().get("code").asString()).isEqualTo(code);
    }
}

package io.sagaflow.payment.payments.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.payment.TestHttp;
import io.sagaflow.payment.TestHttp.Response;
import java.math.BigDecimal;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import tools.jackson.databind.JsonNode;

@SagaflowIntegrationTest
class PaymentApiIT {

    @Value("${local.server.port}")
    int port;

    private TestHttp http;

    @BeforeEach
    void setUp() {
        http = new TestHttp(port);
    }

    @Test
    void aCapturedPaymentIsCreatedWithDefaultsAndReadableByIdAndOrder() {
        UUID order = UUID.randomUUID();
        UUID customer = UUID.randomUUID();

        Response created = create(order, customer, "120.5");

        assertThat(created.status()).isEqualTo(201);
        JsonNode payment = created.json();
        String id = payment.get("paymentId").asString();
        assertThat(created.header("Location")).endsWith("/api/payments/" + id);
        assertThat(payment.get("orderId").asString()).isEqualTo(order.toString());
        assertThat(payment.get("customerId").asString()).isEqualTo(customer.toString());
        assertThat(payment.get("amount").isNumber()).isTrue();
        assertThat(created.body()).contains("\"amount\":120.50").contains("\"refundedAmount\":0.00");
        assertThat(payment.get("currency").asString()).isEqualTo("USD");
        assertThat(payment.get("method").asString()).isEqualTo("CARD");
        assertThat(payment.get("status").asString()).isEqualTo("CAPTURED");
        assertThat(payment.get("declineCode").isNull()).isTrue();
        assertThat(payment.get("reason").isNull()).isTrue();
        assertThat(payment.get("createdAt").asString()).isNotBlank();
        assertThat(payment.get("updatedAt").asString()).isNotBlank();

        Response read = http.get("/api/payments/" + id);
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json()).isEqualTo(payment);

        Response byOrder = http.get("/api/payments/order/" + order);
        assertThat(byOrder.status()).isEqualTo(200);
        assertThat(byOrder.json().size()).isEqualTo(1);
        assertThat(byOrder.json().get(0)).isEqualTo(payment);
    }

    @Test
    void theCurrencyAndMethodGivenAreKeptAndTheAmountIsRoundedHalfEvenToCents() {
        Response created = http.post("/api/payments", """
                {"orderId":"%s","customerId":"%s","amount":10.005,"currency":"EUR","method":"BANK_TRANSFER"}""".formatted(UUID.randomUUID(), UUID.randomUUID()));
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.json().get("currency").asString()).isEqualTo("EUR");
        assertThat(created.json().get("method").asString()).isEqualTo("BANK_TRANSFER");
        assertThat(created.body()).contains("\"amount\":10.00,");
    }

    @Test
    void anAmountAboveTheLimitIsADeclinedPaymentStillCreated() {
        UUID order = UUID.randomUUID();
        Response created = create(order, UUID.randomUUID(), "10000.01");

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.json().get("status").asString()).isEqualTo("DECLINED");
        assertThat(created.json().get("declineCode").asString()).isEqualTo("AMOUNT_ABOVE_LIMIT");
        assertThat(created.json().get("reason").asString()).contains("10000.00");
        Response read = http.get(created.header("Location"));
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json().get("status").asString()).isEqualTo("DECLINED");
    }

    @Test
    void theCreditLimitDeclinesUntilARefundFreesCredit() {
        UUID customer = UUID.randomUUID();
        String first = null;
        for (int i = 0; i < 5; i++) {
            Response captured = create(UUID.randomUUID(), customer, "10000.00");
            assertThat(captured.json().get("status").asString()).isEqualTo("CAPTURED");
            first = first == null ? captured.json().get("paymentId").asString() : first;
        }

        Response overLimit = create(UUID.randomUUID(), customer, "0.01");
        assertThat(overLimit.status()).isEqualTo(201);
        assertThat(overLimit.json().get("status").asString()).isEqualTo("DECLINED");
        assertThat(overLimit.json().get("declineCode").asString()).isEqualTo("CREDIT_LIMIT_EXCEEDED");

        assertThat(http.post("/api/payments/" + first + "/refund", "{\"reason\":\"returned\"}")
                        .status())
                .isEqualTo(200);
        assertThat(create(UUID.randomUUID(), customer, "10000.00")
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("CAPTURED");
    }

    @Test
    void aCapturedPaymentIsRefundedOnceThenTheSecondRefundIsAConflict() {
        String id = create(UUID.randomUUID(), UUID.randomUUID(), "42.00")
                .json()
                .get("paymentId")
                .asString();

        Response refunded = http.post("/api/payments/" + id + "/refund", "{\"reason\":\"customer returned it\"}");
        assertThat(refunded.status()).isEqualTo(200);
        assertThat(refunded.json().get("status").asString()).isEqualTo("REFUNDED");
        assertThat(refunded.json().get("reason").asString()).isEqualTo("customer returned it");
        assertThat(refunded.body()).contains("\"refundedAmount\":42.00");
        assertThat(http.get("/api/payments/" + id).json().get("status").asString())
                .isEqualTo("REFUNDED");

        Response again = http.post("/api/payments/" + id + "/refund", "{\"reason\":\"again\"}");
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.header("Content-Type")).isEqualTo("application/problem+json");
        assertThat(again.json().get("code").asString()).isEqualTo("PAYMENT_ALREADY_REFUNDED");
    }

    @Test
    void aRefundWithoutBodyUsesTheDefaultReason() {
        String id = create(UUID.randomUUID(), UUID.randomUUID(), "5.00")
                .json()
                .get("paymentId")
                .asString();
        Response refunded = http.postEmpty("/api/payments/" + id + "/refund");
        assertThat(refunded.status()).isEqualTo(200);
        assertThat(refunded.json().get("reason").asString()).isEqualTo("Refunded on request");
    }

    @Test
    void refundingADeclinedPaymentIsAConflict() {
        String id = create(UUID.randomUUID(), UUID.randomUUID(), "20000.00")
                .json()
                .get("paymentId")
                .asString();
        Response refund = http.post("/api/payments/" + id + "/refund", "{\"reason\":\"x\"}");
        assertThat(refund.status()).isEqualTo(409);
        assertThat(refund.json().get("code").asString()).isEqualTo("PAYMENT_NOT_REFUNDABLE");
    }

    @Test
    void unknownPaymentsAre404AndBadIdsAre400() {
        UUID unknown = UUID.randomUUID();
        Response get = http.get("/api/payments/" + unknown);
        assertThat(get.status()).isEqualTo(404);
        assertThat(get.json().get("code").asString()).isEqualTo("PAYMENT_NOT_FOUND");

        Response refund = http.post("/api/payments/" + unknown + "/refund", "{\"reason\":\"x\"}");
        assertThat(refund.status()).isEqualTo(404);
        assertThat(refund.json().get("code").asString()).isEqualTo("PAYMENT_NOT_FOUND");

        assertProblem(http.get("/api/payments/not-a-uuid"), 400, "INVALID_PARAMETER");
        assertProblem(http.get("/api/payments/order/not-a-uuid"), 400, "INVALID_PARAMETER");
        assertProblem(http.post("/api/payments/not-a-uuid/refund", "{}"), 400, "INVALID_PARAMETER");
        Response none = http.get("/api/payments/order/" + unknown);
        assertThat(none.status()).isEqualTo(200);
        assertThat(none.json().isArray()).isTrue();
        assertThat(none.json().size()).isZero();
    }

    @Test
    void invalidPaymentRequestsAre400Problems() {
        String order = UUID.randomUUID().toString();
        String customer = UUID.randomUUID().toString();
        assertProblem(http.post("/api/payments", "{not json"), 400, "MALFORMED_REQUEST");
        assertProblem(http.post("/api/payments", ""), 400, "MALFORMED_REQUEST");
        assertProblem(
                http.post(
                        "/api/payments",
                        "{\"orderId\":\"nope\",\"customerId\":\"%s\",\"amount\":1}".formatted(customer)),
                400,
                "MALFORMED_REQUEST");
        assertProblem(
                http.post(
                        "/api/payments",
                        "{\"orderId\":\"%s\",\"customerId\":\"%s\",\"amount\":\"ten\"}".formatted(order, customer)),
                400,
                "MALFORMED_REQUEST");

        Response missing = http.post("/api/payments", "{}");
        assertProblem(missing, 400, "VALIDATION_FAILED");
        assertThat(missing.body())
                .contains("\"field\":\"orderId\"")
                .contains("\"field\":\"customerId\"")
                .contains("\"field\":\"amount\"");

        for (String amount : new String[] {"0", "-5.00", "0.00", "0.004"}) {
            Response response = http.post(
                    "/api/payments",
                    "{\"orderId\":\"%s\",\"customerId\":\"%s\",\"amount\":%s}".formatted(order, customer, amount));
            assertProblem(response, 400, "VALIDATION_FAILED");
            assertThat(response.body()).as(amount).contains("\"field\":\"amount\"");
        }
        assertProblem(
                http.post(
                        "/api/payments",
                        "{\"orderId\":\"%s\",\"customerId\":\"%s\",\"amount\":1,\"currency\":\"dollars\"}"
                                .formatted(order, customer)),
                400,
                "VALIDATION_FAILED");
        assertProblem(
                http.post(
                        "/api/payments",
                        "{\"orderId\":\"%s\",\"customerId\":\"%s\",\"amount\":1,\"method\":\"\"}"
                                .formatted(order, customer)),
                400,
                "VALIDATION_FAILED");
        assertThat(http.get("/api/payments/order/" + order).json().size()).isZero();
    }

    @Test
    void aTooLongRefundReasonIsA400() {
        String id = create(UUID.randomUUID(), UUID.randomUUID(), "1.00")
                .json()
                .get("paymentId")
                .asString();
        assertProblem(
                http.post("/api/payments/" + id + "/refund", "{\"reason\":\"%s\"}".formatted("x".repeat(501))),
                400,
                "VALIDATION_FAILED");
        assertProblem(http.post("/api/payments/" + id + "/refund", "{oops"), 400, "MALFORMED_REQUEST");
        assertThat(http.get("/api/payments/" + id).json().get("status").asString())
                .isEqualTo("CAPTURED");
    }

    @Test
    void theAuditShowsCapturedAndRefundedMoneyPerOrder() {
        UUID order = UUID.randomUUID();
        UUID customer = UUID.randomUUID();
        String refunded =
                create(order, customer, "30.00").json().get("paymentId").asString();
        create(order, customer, "12.25");
        create(order, customer, "99999.00");
        http.post("/api/payments/" + refunded + "/refund", "{\"reason\":\"x\"}");

        Response audit =
                http.get("/api/admin/audit/payments?limit=1&after=" + new UUID(order.getMostSignificantBits(), 0));

        assertThat(audit.status()).isEqualTo(200);
        assertThat(audit.json().get("orders").size()).isEqualTo(1);
        JsonNode entry = audit.json().get("orders").get(0);
        assertThat(entry.get("orderId").asString()).isEqualTo(order.toString());
        assertThat(entry.get("captured").isNumber()).isTrue();
        assertThat(entry.get("captured").decimalValue()).isEqualByComparingTo("42.25");
        assertThat(entry.get("refunded").decimalValue()).isEqualByComparingTo("30.00");
        assertThat(audit.json().get("totalCaptured").isNumber()).isTrue();
        assertThat(audit.json().get("totalCaptured").decimalValue()).isGreaterThanOrEqualTo(new BigDecimal("42.25"));
        assertThat(audit.json().get("totalRefunded").decimalValue()).isGreaterThanOrEqualTo(new BigDecimal("30.00"));
    }

    @Test
    void aPaymentMadeAgainWithItsIdempotencyKeyChargesOnce_andAnotherRequestWithTheKeyIs422() {
        UUID order = UUID.randomUUID();
        String key = UUID.randomUUID().toString();
        String body = "{\"orderId\":\"%s\",\"customerId\":\"%s\",\"amount\":42.5}".formatted(order, UUID.randomUUID());

        Response first = http.post("/api/payments", key, body);
        Response again = http.post("/api/payments", key, body);

        assertThat(first.status()).as(first.body()).isEqualTo(201);
        assertThat(first.header("Idempotent-Replayed")).isNull();
        assertThat(again.status()).as(again.body()).isEqualTo(201);
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(again.header("Location")).isEqualTo(first.header("Location"));
        assertThat(again.json()).isEqualTo(first.json());
        assertThat(http.get("/api/payments/order/" + order).json().size()).isEqualTo(1);
        assertProblem(http.post("/api/payments", key, body.replace("42.5", "42.6")), 422, "IDEMPOTENCY_KEY_REUSED");
        assertProblem(http.post("/api/payments", "\"open", body), 400, "INVALID_IDEMPOTENCY_KEY");
    }

    private Response create(UUID order, UUID customer, String amount) {
        Response response = http.post(
                "/api/payments",
                "{\"orderId\":\"%s\",\"customerId\":\"%s\",\"amount\":%s}".formatted(order, customer, amount));
        assertThat(response.status()).as(response.body()).isEqualTo(201);
        return response;
    }

    private static void assertProblem(Response response, int status, String code) {
        assertThat(response.status()).as(response.body()).isEqualTo(status);
        assertThat(response.header("Content-Type")).isEqualTo("application/problem+json");
        assertThat(response.json().get("code").asString()).isEqualTo(code);
    }
}

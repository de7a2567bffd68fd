package io.sagaflow.framework.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sagaflow.framework.eventstore.IdempotencyKey;
import io.sagaflow.framework.eventstore.IdempotencyKeyUsedException;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

class IdempotentRequestsTest {

    record Line(String product, int quantity, BigDecimal price) {}

    record Body(String customer, List<Line> lines) {}

    private static final Body BODY = new Body("c-1", List.of(new Line("p-1", 2, new BigDecimal("10.00"))));

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final IdempotentRequests idempotency = new IdempotentRequests(meters);

    @AfterEach
    void clearRequest() {
        RequestContextHolder.resetRequestAttributes();
    }

    @Test
    void aBareKeyAndTheSameKeyAsAStructuredFieldStringAreOneKey() {
        assertThat(IdempotentRequests.parse("8e03978e-40d5-43e8-bc93-6894a57f9324"))
                .isEqualTo("8e03978e-40d5-43e8-bc93-6894a57f9324");
        assertThat(IdempotentRequests.parse("\"8e03978e-40d5-43e8-bc93-6894a57f9324\""))
                .isEqualTo("8e03978e-40d5-43e8-bc93-6894a57f9324");
        assertThat(IdempotentRequests.parse(" \"a key with \\\"quotes\\\" and \\\\\" "))
                .isEqualTo("a key with \"quotes\" and \\");
        assertThat(IdempotentRequests.parse("x".repeat(255))).hasSize(255);
    }

    @Test
    void malformedKeysAre400sWithTheirReason() {
        for (String header : List.of(
                "",
                "\"\"",
                "x".repeat(256),
                "two words",
                "caf\u00e9",
                "\"unterminated",
                "\"quoted\" trailing",
                "\"bad \\n escape\"",
                "\"tab\there\"")) {
            assertThatThrownBy(() -> IdempotentRequests.parse(header))
                    .as(header)
                    .isInstanceOfSatisfying(ApiException.class, e -> {
                        assertThat(e.status()).isEqualTo(HttpStatus.BAD_REQUEST);
                        assertThat(e.code()).isEqualTo("INVALID_IDEMPOTENCY_KEY");
                    });
        }
    }

    @Test
    void theKeyOfARequestIsFingerprintedByItsBody() {
        IdempotencyKey key = keyOf(BODY, "k-1");
        assertThat(key.scope()).isEqualTo("orders");
        assertThat(key.value()).isEqualTo("k-1");
        assertThat(key.fingerprint()).hasSize(64);
        assertThat(keyOf(new Body("c-1", List.of(new Line("p-1", 2, new BigDecimal("10.00")))), "k-1"))
                .extracting(IdempotencyKey::fingerprint)
                .isEqualTo(key.fingerprint());
        assertThat(keyOf(new Body("c-1", List.of(new Line("p-1", 3, new BigDecimal("10.00")))), "k-1"))
                .extracting(IdempotencyKey::fingerprint)
                .isNotEqualTo(key.fingerprint());
    }

    @Test
    void noHeaderIsNoKey_andTwoHeadersAreRefused() {
        assertThat(keyOf(BODY)).isNull();
        assertThatThrownBy(() -> keyOf(BODY, "k-1", "k-2"))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.code()).isEqualTo("INVALID_IDEMPOTENCY_KEY"));
    }

    @Test
    void aKeyUsedForAnotherRequestIsA422_theSameRequestGetsItsStream_andEachIsCounted() {
        IdempotencyKey mine = new IdempotencyKey("orders", "k-1", "f-1");
        assertThat(idempotency.replayedStream(new IdempotencyKeyUsedException(mine, "order-1", "f-1")))
                .isEqualTo("order-1");
        assertThat(idempotency.replayedStream(new IdempotencyKeyUsedException(mine, "order-1", "f-1")))
                .isEqualTo("order-1");
        assertThatThrownBy(() -> idempotency.replayedStream(new IdempotencyKeyUsedException(mine, "order-1", "f-2")))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(HttpStatus.UNPROCESSABLE_CONTENT);
                    assertThat(e.code()).isEqualTo("IDEMPOTENCY_KEY_REUSED");
                });
        assertThat(repeats("orders", "replayed")).isEqualTo(2);
        assertThat(repeats("orders", "refused")).isEqualTo(1);
    }

    @Test
    void aCallerNamedByTheGatewayHasKeysOfItsOwn_countedUnderTheScope() {
        IdempotencyKey ann = keyOf(BODY, List.of("ann-name"), "k-1");
        IdempotencyKey bob = keyOf(BODY, List.of("bob_name"), "k-1");
        assertThat(ann.scope()).isEqualTo("orders ann-name");
        assertThat(bob.scope()).isEqualTo("orders bob_name");
        assertThat(ann.value()).isEqualTo(bob.value()).isEqualTo("k-1");
        assertThat(ann.fingerprint()).isEqualTo(keyOf(BODY, "k-1").fingerprint());

        idempotency.replayedStream(new IdempotencyKeyUsedException(ann, "order-1", ann.fingerprint()));
        assertThat(repeats("orders", "replayed")).isEqualTo(1);
    }

    @Test
    void aMalformedOrRepeatedCallerNameIsA400() {
        for (List<String> clients :
                List.of(List.of(""), List.of("ann name"), List.of("a".repeat(65)), List.of("ann", "bob"))) {
            assertThatThrownBy(() -> keyOf(BODY, clients, "k-1"))
                    .as(clients.toString())
                    .isInstanceOfSatisfying(ApiException.class, e -> {
                        assertThat(e.status()).isEqualTo(HttpStatus.BAD_REQUEST);
                        assertThat(e.code()).isEqualTo("INVALID_CLIENT");
                    });
        }
        // Without a key the caller's name is not looked at.
        assertThat(keyOf(BODY, List.of("ann name"))).isNull();
    }

    private double repeats(String scope, String outcome) {
        return meters.get("sagaflow.idempotency.repeats")
                .tag("scope", scope)
                .tag("outcome", outcome)
                .counter()
                .count();
    }

    private IdempotencyKey keyOf(Object body, String... headers) {
        return keyOf(body, List.of(), headers);
    }

    private IdempotencyKey keyOf(Object body, List<String> clients, String... headers) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/orders");
        clients.forEach(client -> request.addHeader(IdempotentRequests.CLIENT, client));
        for (String header : headers) {
            request.addHeader(IdempotentRequests.HEADER, header);
        }
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request));
        return idempotency.key("orders", body);
    }
}

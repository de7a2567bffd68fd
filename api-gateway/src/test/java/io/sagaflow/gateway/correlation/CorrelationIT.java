package io.sagaflow.gateway.correlation;

import static io.sagaflow.gateway.support.FakeServices.ACCOUNT;
import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.gateway.support.FakeService;
import io.sagaflow.gateway.support.GatewayTestBase;
import io.sagaflow.gateway.support.Http;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CorrelationIT extends GatewayTestBase {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER_SPAN = "00f067aa0ba902b7";

    @Test
    void theCallersCorrelationIdReachesTheServiceAndComesBack() {
        HttpResponse<String> response = Http.get(port, "/api/customers/c-1", "X-Correlation-Id", "order-run:42");

        assertThat(lastReceived().header("X-Correlation-Id")).isEqualTo("order-run:42");
        assertThat(response.headers().allValues("X-Correlation-Id"))
                .as("one value, although the service echoes it")
                .containsExactly("order-run:42");
    }

    @Test
    void withoutACorrelationIdTheGatewayCreatesOne() {
        HttpResponse<String> response = Http.get(port, "/api/customers/c-1");

        String created = response.headers().firstValue("X-Correlation-Id").orElseThrow();
        assertThat(UUID.fromString(created)).isNotNull();
        assertThat(lastReceived().header("X-Correlation-Id")).isEqualTo(created);
    }

    @Test
    void anUnacceptableCorrelationIdIsReplaced() {
        HttpResponse<String> response = Http.get(port, "/api/customers/c-1", "X-Correlation-Id", "x".repeat(129));

        String replaced = response.headers().firstValue("X-Correlation-Id").orElseThrow();
        assertThat(replaced).hasSize(36);
        assertThat(lastReceived().header("X-Correlation-Id")).isEqualTo(replaced);
    }

    @Test
    void theCallersTraceContinues_withTheGatewayAsParent() {
        HttpResponse<String> response = Http.get(
                port,
                "/api/customers/c-1",
                "traceparent",
                "00-" + TRACE_ID + "-" + CALLER_SPAN + "-01",
                "tracestate",
                "vendor=abc");

        FakeService.Received received = lastReceived();
        TraceContext sent = TraceContext.parse(received.header("traceparent")).orElseThrow();
        assertThat(sent.traceId()).isEqualTo(TRACE_ID);
        assertThat(sent.parentId()).isNotEqualTo(CALLER_SPAN);
        assertThat(sent.flags()).isEqualTo("01");
        assertThat(received.header("tracestate")).isEqualTo("vendor=abc");
        assertThat(response.headers().allValues("traceparent")).containsExactly(sent.header());
    }

    @Test
    void withoutATraceTheGatewayStartsOne_andDropsAStrayTracestate() {
        HttpResponse<String> response =
                Http.get(port, "/api/customers/c-1", "traceparent", "not-a-trace", "tracestate", "vendor=abc");

        FakeService.Received received = lastReceived();
        TraceContext started =
                TraceContext.parse(received.header("traceparent")).orElseThrow();
        assertThat(started.flags()).isEqualTo("01");
        assertThat(received.header("tracestate")).isNull();
        assertThat(response.headers().firstValue("traceparent")).hasValue(started.header());
    }

    private static FakeService.Received lastReceived() {
        return ACCOUNT.received().getLast();
    }
}

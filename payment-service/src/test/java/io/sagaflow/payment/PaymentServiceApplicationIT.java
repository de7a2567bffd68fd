package io.sagaflow.payment;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.framework.test.ServiceHealthContract;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;

@SagaflowIntegrationTest
class PaymentServiceApplicationIT extends ServiceHealthContract {

    @Value("${local.server.port}")
    int port;

    @Test
    void publishesItsApiAsOpenApi() {
        TestHttp.Response docs = new TestHttp(port).get("/v3/api-docs");
        assertThat(docs.status()).isEqualTo(200);
        assertThat(docs.body())
                .contains("/api/payments")
                .contains("/api/payments/{paymentId}/refund")
                .contains("/api/payments/order/{orderId}")
                .contains("/api/admin/audit/payments");
    }
}

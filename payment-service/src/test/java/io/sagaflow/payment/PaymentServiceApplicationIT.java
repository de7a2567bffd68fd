package io.sagaflow.payment;

import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.framework.test.ServiceHealthContract;

@SagaflowIntegrationTest
class PaymentServiceApplicationIT extends ServiceHealthContract {}

package io.sagaflow.order;

import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.framework.test.ServiceHealthContract;

@SagaflowIntegrationTest
class OrderServiceApplicationIT extends ServiceHealthContract {}

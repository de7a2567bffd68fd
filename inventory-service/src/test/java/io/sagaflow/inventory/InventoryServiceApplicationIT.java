package io.sagaflow.inventory;

import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.framework.test.ServiceHealthContract;

@SagaflowIntegrationTest
class InventoryServiceApplicationIT extends ServiceHealthContract {}

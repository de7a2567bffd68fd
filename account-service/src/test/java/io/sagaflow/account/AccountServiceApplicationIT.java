package io.sagaflow.account;

import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.framework.test.ServiceHealthContract;

@SagaflowIntegrationTest
class AccountServiceApplicationIT extends ServiceHealthContract {}

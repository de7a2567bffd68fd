package io.sagaflow.account;

import io.sagaflow.framework.test.architecture.SagaflowArchitecture;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

    @Test
    void followsTheSharedArchitectureRules() {
        SagaflowArchitecture.verify("io.sagaflow.account");
    }
}

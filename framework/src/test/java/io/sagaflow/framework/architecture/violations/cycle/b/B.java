package io.sagaflow.framework.architecture.violations.cycle.b;

import io.sagaflow.framework.architecture.violations.cycle.a.A;

/** The other half of a package cycle, on purpose. */
public class B {
    A a;
}

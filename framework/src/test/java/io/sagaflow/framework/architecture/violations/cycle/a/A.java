package io.sagaflow.framework.architecture.violations.cycle.a;

import io.sagaflow.framework.architecture.violations.cycle.b.B;

/** Half of a package cycle, on purpose. */
public class A {
    B b;
}

/** A real PostgreSQL for tests: Testcontainers where Docker runs, an embedded server where it does not. */
package io.sagaflow.framework.test.postgres;

/**
 * How the services reach PostgreSQL: a socket factory that connects pgjdbc to a PostgreSQL on the same machine
 * through its Unix-domain socket (ADR 0067).
 */
package io.sagaflow.framework.postgres;

package io.sagaflow.framework.transaction;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Set;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/**
 * Failures that pass by themselves: the database cannot be reached, refuses connections for now, was shut down, ran
 * out of a resource, or rolled a transaction back for a conflict with another. The same message succeeds once it is
 * back, so a consumer retries it for as long as it takes instead of giving up on it, and a request is answered 503 with
 * {@code Retry-After}, not 500 (ADR 0099). Anything else (a constraint the message breaks, a bug) may fail on every
 * attempt.
 */
public final class TransientFailures {

    /**
     * SQLSTATE classes of transient failures: connection exception, transaction rollback (serialization failure,
     * deadlock), insufficient resources, operator intervention (shutdown, cannot connect now, statement cancelled) and
     * system error (I/O).
     */
    private static final Set<String> TRANSIENT_CLASSES = Set.of("08", "40", "53", "57", "58");

    private TransientFailures() {}

    /**
     * Whether {@code failure}, or one of its causes, is transient. A rollback that failed counts for the failure that
     * caused it: a connection the server ended fails its statement and then its rollback, and Spring's
     * {@code TransactionTemplate} throws the rollback's failure, with the statement's as its application exception.
     */
    public static boolean isTransient(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof TransactionSystemException rollback
                    && rollback.getApplicationException() != null
                    && rollback.getApplicationException() != failure
                    && isTransient(rollback.getApplicationException())) {
                return true;
            }
            if (cause instanceof TransientDataAccessException
                    || cause instanceof DataAccessResourceFailureException
                    || cause instanceof RecoverableDataAccessException
                    || cause instanceof CannotCreateTransactionException
                    || cause instanceof SQLTransientException
                    || cause instanceof SQLRecoverableException
                    || cause instanceof SQLNonTransientConnectionException) {
                return true;
            }
            if (cause instanceof SQLException sql
                    && sql.getSQLState() != null
                    && sql.getSQLState().length() >= 2
                    && TRANSIENT_CLASSES.contains(sql.getSQLState().substring(0, 2))) {
                return true;
            }
        }
        return false;
    }
}

package io.sagaflow.framework.transaction;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLTransientException;
import java.util.Set;
import java.util.function.Predicate;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/**
 * Failures that pass by themselves (ADR 0099). {@linkplain #isUnavailable Unavailable}: the database cannot be
 * reached, refuses connections for now, ended the connection, was shut down or ran out of a resource; whatever is
 * sent to it fails the same way until it is back. {@linkplain #isTransient Transient}: those, and a transaction rolled
 * back for a conflict with another (a deadlock, a serialization failure, a lock or statement time-out), which the same
 * work retried gets past. A consumer retries a transient failure for as long as it takes instead of giving up on the
 * message, and a request that meets one is answered 503 with {@code Retry-After}, not 500. Anything else (a constraint
 * the work breaks, a bug) may fail on every attempt.
 */
public final class TransientFailures {

    /** SQLSTATE classes of a database that is away: connection exception, insufficient resources, system error. */
    private static final Set<String> UNAVAILABLE_CLASSES = Set.of("08", "53", "58");

    /** Operator intervention that ends connections: administrator shutdown, crash shutdown, cannot connect now. */
    private static final Set<String> UNAVAILABLE_STATES = Set.of("57P01", "57P02", "57P03");

    /** SQLSTATE classes of work that a retry gets past: transaction rollback, operator intervention (cancelled). */
    private static final Set<String> CONFLICT_CLASSES = Set.of("40", "57");

    private TransientFailures() {}

    /**
     * Whether {@code failure}, or one of its causes, is transient: the database unavailable, or a conflict a retry
     * gets past.
     */
    public static boolean isTransient(Throwable failure) {
        return anyCause(failure, TransientFailures::transientItself);
    }

    /** Whether {@code failure}, or one of its causes, says the database is unavailable for now. */
    public static boolean isUnavailable(Throwable failure) {
        return anyCause(failure, TransientFailures::unavailableItself);
    }

    /**
     * Whether {@code failure} or one of its causes passes {@code test}. A rollback that failed counts for the failure
     * that caused it: a connection the server ends fails its statement and then its rollback, and Spring's
     * {@code TransactionTemplate} throws the rollback's failure, with the statement's as its application exception.
     */
    private static boolean anyCause(Throwable failure, Predicate<Throwable> test) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof TransactionSystemException rollback
                    && rollback.getApplicationException() != null
                    && rollback.getApplicationException() != failure
                    && anyCause(rollback.getApplicationException(), test)) {
                return true;
            }
            if (test.test(cause)) {
                return true;
            }
        }
        return false;
    }

    private static boolean unavailableItself(Throwable cause) {
        // Spring translates SQLSTATE classes 08, 53, 54, 57 and 58 it has no better name for into
        // DataAccessResourceFailureException, CannotGetJdbcConnectionException included.
        return cause instanceof DataAccessResourceFailureException
                || cause instanceof CannotCreateTransactionException
                || cause instanceof RecoverableDataAccessException
                || cause instanceof SQLTransientConnectionException
                || cause instanceof SQLNonTransientConnectionException
                || cause instanceof SQLRecoverableException
                || cause instanceof SQLException sql
                        && sql.getSQLState() != null
                        && (UNAVAILABLE_STATES.contains(sql.getSQLState())
                                || UNAVAILABLE_CLASSES.contains(stateClass(sql)));
    }

    private static boolean transientItself(Throwable cause) {
        return unavailableItself(cause)
                || cause instanceof TransientDataAccessException
                || cause instanceof SQLTransientException
                || cause instanceof SQLException sql
                        && sql.getSQLState() != null
                        && CONFLICT_CLASSES.contains(stateClass(sql));
    }

    private static String stateClass(SQLException sql) {
        String state = sql.getSQLState();
        return state.length() >= 2 ? state.substring(0, 2) : state;
    }
}

package io.sagaflow.framework.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

class TransientFailuresTest {

    @Test
    void aPoolThatCannotHandOutAConnection_isTransient() {
        assertThat(TransientFailures.isTransient(new CannotCreateTransactionException(
                        "Could not open JDBC Connection for transaction",
                        new SQLTransientConnectionException("Connection is not available"))))
                .isTrue();
        assertThat(TransientFailures.isTransient(
                        new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection")))
                .isTrue();
    }

    @Test
    void aConnectionTheServerEnded_orADeadlock_isTransient_byItsSqlState() {
        assertThat(TransientFailures.isTransient(new UncategorizedSQLException(
                        "insert", "insert", new SQLException("terminating connection", "57P01"))))
                .isTrue();
        assertThat(TransientFailures.isTransient(
                        new IllegalStateException("wrapped", new SQLException("I/O error", "08006"))))
                .isTrue();
        assertThat(TransientFailures.isTransient(new SQLException("deadlock detected", "40P01")))
                .isTrue();
    }

    @Test
    void aRollbackThatFailed_isTransient_whenTheFailureThatCausedItIs() {
        TransactionSystemException rollback =
                new TransactionSystemException("JDBC rollback failed", new SQLException("Connection is closed"));
        assertThat(TransientFailures.isTransient(rollback)).isFalse();
        rollback.initApplicationException(new DataAccessResourceFailureException(
                "insert", new SQLException("terminating connection due to administrator command", "57P01")));
        assertThat(TransientFailures.isTransient(rollback)).isTrue();
    }

    @Test
    void aDatabaseThatIsAway_isUnavailable_aDeadlockOrAStatementTimeOutIsOnlyTransient() {
        assertThat(TransientFailures.isUnavailable(new CannotCreateTransactionException(
                        "Could not open JDBC Connection for transaction",
                        new SQLTransientConnectionException("Connection is not available"))))
                .isTrue();
        assertThat(TransientFailures.isUnavailable(new SQLException("terminating connection", "57P01")))
                .isTrue();
        assertThat(TransientFailures.isUnavailable(new SQLException("I/O error", "08006")))
                .isTrue();
        SQLException deadlock = new SQLException("deadlock detected", "40P01");
        SQLException cancelled = new SQLException("canceling statement due to statement timeout", "57014");
        assertThat(TransientFailures.isUnavailable(deadlock)).isFalse();
        assertThat(TransientFailures.isUnavailable(cancelled)).isFalse();
        assertThat(TransientFailures.isTransient(deadlock)).isTrue();
        assertThat(TransientFailures.isTransient(cancelled)).isTrue();
    }

    @Test
    void aBrokenConstraint_aBug_orAnUnknownState_isNot() {
        assertThat(TransientFailures.isTransient(new DuplicateKeyException("duplicate key")))
                .isFalse();
        assertThat(TransientFailures.isTransient(
                        new DataIntegrityViolationException("not null", new SQLException("null value", "23502"))))
                .isFalse();
        assertThat(TransientFailures.isTransient(new IllegalArgumentException("bad payload")))
                .isFalse();
        assertThat(TransientFailures.isTransient(new SQLException("no state"))).isFalse();
    }
}

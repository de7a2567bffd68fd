package io.sagaflow.framework.eventstore;

import java.time.Duration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Deletes the rows of a bookkeeping table older than its retention, {@code batchSize} rows a statement, so that no
 * statement holds many row locks or writes much WAL at once: the processed-event records, the idempotency keys.
 */
public final class ExpiredRows {

    private ExpiredRows() {}

    /**
     * Deletes the rows of {@code table} whose {@code timeColumn} is more than {@code retention} before now.
     *
     * @param table a table name of the framework's schema, not input
     * @param timeColumn a {@code timestamptz} column of it, not input
     * @return how many were deleted
     */
    public static int delete(JdbcTemplate jdbc, String table, String timeColumn, Duration retention, int batchSize) {
        String sql = "delete from " + table + " where ctid in (select ctid from " + table + " where " + timeColumn
                + " < now() - make_interval(secs => ?) limit ?)";
        int total = 0;
        int deleted;
        do {
            deleted = jdbc.update(sql, (double) retention.toSeconds(), batchSize);
            total += deleted;
        } while (deleted == batchSize);
        return total;
    }
}

package io.sagaflow.framework.projection;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.SqlTypeValue;
import org.springframework.jdbc.core.StatementCreatorUtils;

/**
 * The statements that bring the views up to an append, queued and sent to PostgreSQL together: one round trip for
 * all of them (pgjdbc sends the statements of one text, then one Sync) instead of one each (ADR 0065). They run in
 * the order they were queued, in the caller's transaction.
 *
 * <p>A view that must read, or needs what a statement returns, takes {@link #jdbc()}, which first sends what is
 * queued: a read sees every write queued before it. A write whose row count matters says what to do with the count
 * ({@link #update(IntConsumer, String, Object...)}); that runs once the count is known, when the queue is sent, and
 * throws to roll the transaction back, as a check right after the statement would have.
 *
 * <p>Not thread-safe: one per append.
 */
public final class ViewWrites {

    private final JdbcTemplate jdbc;
    private final List<Write> queued = new ArrayList<>(4);

    public ViewWrites(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Queues {@code sql}. An argument that is a {@link SqlArray} is bound as a PostgreSQL array; any other as
     * {@link JdbcTemplate#update(String, Object...)} binds it.
     *
     * @throws IllegalArgumentException if the arrays among {@code args} differ in length (see {@link SqlArray})
     */
    public void update(String sql, Object... args) {
        update(null, sql, args);
    }

    /**
     * Queues {@code sql} as {@link #update(String, Object...)} does, and gives {@code rowCount} the number of rows it
     * changed once it has run.
     */
    public void update(IntConsumer rowCount, String sql, Object... args) {
        SqlArray.requireOneLength(args);
        queued.add(new Write(sql, args.clone(), rowCount));
    }

    /** The template, for reads and statements whose results are needed at once, after sending what is queued. */
    public JdbcTemplate jdbc() {
        flush();
        return jdbc;
    }

    /** Sends the queued statements in one round trip, then gives each row count to its consumer. */
    public void flush() {
        if (queued.isEmpty()) {
            return;
        }
        List<Write> sending = List.copyOf(queued);
        queued.clear();
        String sql = sending.size() == 1
                ? sending.getFirst().sql()
                : sending.stream().map(Write::sql).collect(Collectors.joining("; "));
        int[] counts = jdbc.execute((ConnectionCallback<int[]>) connection -> run(connection, sql, sending));
        for (int i = 0; i < counts.length; i++) {
            IntConsumer rowCount = sending.get(i).rowCount();
            if (rowCount != null) {
                rowCount.accept(counts[i]);
            }
        }
    }

    private static int[] run(Connection connection, String sql, List<Write> writes) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            int index = 1;
            for (Write write : writes) {
                for (Object arg : write.args()) {
                    if (arg instanceof SqlArray array) {
                        statement.setArray(index++, connection.createArrayOf(array.type(), array.values()));
                    } else {
                        StatementCreatorUtils.setParameterValue(statement, index++, SqlTypeValue.TYPE_UNKNOWN, arg);
                    }
                }
            }
            boolean rows = statement.execute();
            int[] counts = new int[writes.size()];
            for (int i = 0; i < counts.length; i++) {
                if (i > 0) {
                    rows = statement.getMoreResults();
                }
                if (rows) {
                    throw new IllegalStateException("a view write returned rows; read them through jdbc(): "
                            + writes.get(i).sql());
                }
                counts[i] = statement.getUpdateCount();
            }
            return counts;
        }
    }

    /** A queued statement, its arguments, and who wants its row count ({@code null}: nobody). */
    private record Write(String sql, Object[] args, IntConsumer rowCount) {}
}

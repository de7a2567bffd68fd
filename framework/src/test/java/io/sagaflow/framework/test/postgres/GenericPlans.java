package io.sagaflow.framework.test.postgres;

import java.util.List;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The plan PostgreSQL gives one of our statements as the services run it: prepared once, then executed under the
 * generic plan every connection of ours uses (ADR 0029), which is planned without the arguments' values. A plan
 * test fills a table, analyzes it, and checks that a lookup reads its own rows, not the table's.
 */
public final class GenericPlans {

    private GenericPlans() {}

    /**
     * The {@code explain} of {@code sql}, with JDBC's {@code ?} placeholders, prepared and executed with
     * {@code arguments} (SQL literals, one per placeholder) on one connection of {@code jdbc}: inside a transaction
     * it is the transaction's, so rows it inserted and has not committed are seen.
     *
     * @throws IllegalStateException if the connection does not force generic plans, as the services' do
     */
    public static String explain(JdbcTemplate jdbc, String sql, String... arguments) {
        return jdbc.execute((ConnectionCallback<String>) connection -> {
            try (var statement = connection.createStatement()) {
                try (var mode = statement.executeQuery("show plan_cache_mode")) {
                    mode.next();
                    if (!"force_generic_plan".equals(mode.getString(1))) {
                        throw new IllegalStateException("plan_cache_mode is " + mode.getString(1)
                                + ", not the services' force_generic_plan (ADR 0029)");
                    }
                }
                statement.execute("prepare plan_probe as " + numbered(sql));
                try (var plan = statement.executeQuery(
                        "explain execute plan_probe(" + String.join(", ", List.of(arguments)) + ")")) {
                    StringBuilder lines = new StringBuilder();
                    while (plan.next()) {
                        lines.append(plan.getString(1)).append('\n');
                    }
                    return lines.toString();
                } finally {
                    statement.execute("deallocate plan_probe");
                }
            }
        });
    }

    /** JDBC's {@code ?} placeholders as a prepared statement's {@code $1, $2, …}. */
    public static String numbered(String sql) {
        StringBuilder numbered = new StringBuilder();
        int next = 1;
        for (char c : sql.toCharArray()) {
            numbered.append(c == '?' ? "$" + next++ : String.valueOf(c));
        }
        return numbered.toString();
    }
}

package io.sagaflow.framework.projection;

import java.util.Arrays;
import java.util.Objects;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One parameter of a statement that writes many rows at once: {@code values} bound as a PostgreSQL array of
 * {@code type} (a name {@link java.sql.Connection#createArrayOf} knows: {@code uuid}, {@code int4}, {@code text}, …),
 * read back as rows with {@code unnest(?::uuid[], ?::int[], …) as r (id, quantity, …)}.
 *
 * <p>A projection that writes one row per event in a JDBC batch still has PostgreSQL parse, bind and execute one
 * statement per row; one statement on arrays is executed once for the whole append (ADR 0022, 0042), and planned once
 * per connection (ADR 0029). Instants go as ISO-8601 text with their offset ({@code ?::text[]}, cast to
 * {@code timestamptz} in the statement), which no session time zone can shift.
 *
 * @param type the SQL type of the array's elements
 * @param values the elements, one per row
 */
public record SqlArray(String type, Object[] values) {

    public SqlArray {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(values, "values");
    }

    /**
     * Runs {@code sql} at once (a projection queues it on {@link ViewWrites} instead) with one array per parameter, in
     * order, and returns the rows it changed. The arrays must be of one length: {@code unnest} would pad the shorter
     * ones with nulls and write rows nobody meant.
     *
     * @throws IllegalArgumentException if the arrays differ in length
     */
    public static int update(JdbcTemplate jdbc, String sql, SqlArray... arrays) {
        int[] changed = new int[1];
        ViewWrites writes = new ViewWrites(jdbc);
        writes.update(count -> changed[0] = count, sql, (Object[]) arrays);
        writes.flush();
        return changed[0];
    }

    /**
     * @throws IllegalArgumentException if the arrays among {@code args}, the arguments of one statement, differ in
     *     length
     */
    static void requireOneLength(Object... args) {
        int length = -1;
        for (Object arg : args) {
            if (arg instanceof SqlArray array) {
                if (length >= 0 && array.values.length != length) {
                    throw new IllegalArgumentException("arrays of one statement differ in length: "
                            + Arrays.stream(args)
                                    .filter(SqlArray.class::isInstance)
                                    .map(a -> ((SqlArray) a).type + "[" + ((SqlArray) a).values.length + "]")
                                    .toList());
                }
                length = array.values.length;
            }
        }
    }
}

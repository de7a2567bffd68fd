package io.sagaflow.framework.projection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.sagaflow.framework.test.postgres.TestPostgres;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Queued view writes reach PostgreSQL as one statement text, run in order, give each its own row count, and a read
 * through {@link ViewWrites#jdbc()} sees what was queued before it.
 */
class ViewWritesIT {

    private HikariDataSource dataSource;
    private final AtomicInteger prepared = new AtomicInteger();
    private JdbcTemplate jdbc;

    @BeforeEach
    void setUp() {
        dataSource = TestPostgres.newDatabase().dataSource();
        new JdbcTemplate(dataSource)
                .execute("create table item (id uuid primary key, quantity int not null, at timestamptz not null)");
        jdbc = new JdbcTemplate(new CountingDataSource());
    }

    @AfterEach
    void tearDown() {
        dataSource.close();
    }

    @Test
    void queuedWritesRunInOrderAsOneStatementAndEachGetsItsRowCount() {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        Instant at = Instant.parse("2026-11-28T14:00:00.123456Z");
        List<Integer> counts = new ArrayList<>();
        ViewWrites writes = new ViewWrites(jdbc);

        writes.update(
                counts::add,
                "insert into item (id, quantity, at) select i.id, i.quantity, i.at::timestamptz"
                        + " from unnest(?::uuid[], ?::int[], ?::text[]) as i (id, quantity, at)",
                new SqlArray("uuid", new UUID[] {a, b}),
                new SqlArray("int4", new Integer[] {1, 2}),
                new SqlArray("text", new String[] {at.toString(), at.toString()}));
        writes.update(counts::add, "update item set quantity = quantity * 10 where id = ?", a);
        writes.update("update item set quantity = quantity + ?, at = ? where id = ?", 5, Timestamp.from(at), b);
        writes.update(counts::add, "delete from item where id = ?", UUID.randomUUID());
        assertThat(prepared).as("nothing sent before the flush").hasValue(0);

        writes.flush();

        assertThat(prepared).as("one statement text for all four").hasValue(1);
        assertThat(counts).containsExactly(2, 1, 0);
        assertThat(quantity(a)).isEqualTo(10);
        assertThat(quantity(b)).isEqualTo(7);
        writes.flush();
        assertThat(prepared).as("an empty queue sends nothing").hasValue(1);
    }

    @Test
    void aReadThroughTheTemplateSeesTheWritesQueuedBeforeIt() {
        UUID a = UUID.randomUUID();
        ViewWrites writes = new ViewWrites(jdbc);
        writes.update("insert into item (id, quantity, at) values (?, ?, now())", a, 3);

        Integer read = writes.jdbc().queryForObject("select quantity from item where id = ?", Integer.class, a);

        assertThat(read).isEqualTo(3);
    }

    @Test
    void aRowCountThatBreaksARuleRollsTheTransactionBack() {
        UUID a = UUID.randomUUID();
        TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));

        assertThatThrownBy(() -> transactions.executeWithoutResult(status -> {
                    ViewWrites writes = new ViewWrites(new JdbcTemplate(dataSource));
                    writes.update("insert into item (id, quantity, at) values (?, 1, now())", a);
                    writes.update(
                            changed -> {
                                if (changed != 1) {
                                    throw new IllegalStateException("no row for " + changed);
                                }
                            },
                            "update item set quantity = 2 where id = ?",
                            UUID.randomUUID());
                    writes.flush();
                }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("no row for 0");
        assertThat(new JdbcTemplate(dataSource).queryForList("select id from item"))
                .isEmpty();
    }

    @Test
    void aFailingStatementFailsTheFlushWithPostgresqlsError() {
        UUID a = UUID.randomUUID();
        ViewWrites writes = new ViewWrites(jdbc);
        writes.update("insert into item (id, quantity, at) values (?, 1, now())", a);
        writes.update("insert into item (id, quantity, at) values (?, 1, now())", a);

        assertThatThrownBy(writes::flush)
                .isInstanceOf(DataAccessException.class)
                .hasMessageContaining("item_pkey");
    }

    @Test
    void arraysOfDifferentLengthsAndStatementsThatReturnRowsAreRefused() {
        ViewWrites writes = new ViewWrites(jdbc);

        assertThatThrownBy(() -> writes.update(
                        "select 1 from unnest(?::uuid[], ?::int[])",
                        new SqlArray("uuid", new UUID[] {UUID.randomUUID()}),
                        new SqlArray("int4", new Integer[] {1, 2})))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("int4[2]");

        writes.update("select quantity from item");
        assertThatThrownBy(writes::flush)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("jdbc()");
    }

    private int quantity(UUID id) {
        return new JdbcTemplate(dataSource).queryForObject("select quantity from item where id = ?", Integer.class, id);
    }

    /** The test database, counting the statements prepared on its connections. */
    private final class CountingDataSource extends DelegatingDataSource {

        CountingDataSource() {
            super(dataSource);
        }

        @Override
        public Connection getConnection() throws SQLException {
            Connection connection = super.getConnection();
            return (Connection) Proxy.newProxyInstance(
                    Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        if (method.getName().equals("prepareStatement")) {
                            prepared.incrementAndGet();
                        }
                        try {
                            return method.invoke(connection, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }
    }
}

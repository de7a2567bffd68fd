package io.sagaflow.framework;

import io.sagaflow.framework.eventstore.AppendInterceptor;
import io.sagaflow.framework.eventstore.EventSerializer;
import io.sagaflow.framework.eventstore.EventTypeRegistry;
import io.sagaflow.framework.eventstore.JdbcEventStore;
import io.sagaflow.framework.eventstore.Outbox;
import io.sagaflow.framework.test.postgres.TestPostgres;
import java.time.Clock;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/** The framework's stores on a fresh, migrated test database, wired by hand for tests without Spring. */
public record Stores(
        DataSource dataSource, JdbcTemplate jdbc, TransactionTemplate transactions, EventSerializer serializer)
        implements AutoCloseable {

    public static Stores onFreshDatabase(EventTypeRegistry registry) {
        DataSource dataSource = TestPostgres.newDatabase().migratedDataSource();
        return new Stores(
                dataSource,
                new JdbcTemplate(dataSource),
                new TransactionTemplate(new DataSourceTransactionManager(dataSource)),
                new EventSerializer(registry, new JsonMapper()));
    }

    /** An event store that writes no outbox rows. */
    public JdbcEventStore eventStore(AppendInterceptor... interceptors) {
        return eventStore((Outbox) null, interceptors);
    }

    /** An event store that writes the rows of its published events into {@code outbox}. */
    public JdbcEventStore eventStore(Outbox outbox, AppendInterceptor... interceptors) {
        return new JdbcEventStore(jdbc, transactions, serializer, List.of(interceptors), outbox, Clock.systemUTC());
    }

    @Override
    public void close() {
        if (dataSource instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception ignored) {
                // test teardown
            }
        }
    }
}

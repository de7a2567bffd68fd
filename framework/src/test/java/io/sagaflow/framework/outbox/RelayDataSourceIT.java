package io.sagaflow.framework.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sagaflow.framework.test.postgres.GenericPlans;
import io.sagaflow.framework.test.postgres.TestDatabase;
import io.sagaflow.framework.test.postgres.TestPostgres;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The relay's statements keep an index plan on the relay's own connection when they were planned on an outbox that
 * vacuum had emptied, where a service connection plans sequential scans (ADR 0063). On a real PostgreSQL, with the
 * services' connection options.
 */
class RelayDataSourceIT {

    private static final String SELECT_ARGUMENTS =
            "'{}'::tid[], '{}'::bigint[], '{0,1,2,3}'::int[], '{}'::bigint[], 256";
    private static final String DELETE_ARGUMENTS = "'{}'::tid[], '{}'::bigint[]";

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private HikariDataSource service;
    private RelayDataSource relay;

    @BeforeEach
    void setUp() throws SQLException {
        TestDatabase database = TestPostgres.newDatabase();
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(database.jdbcUrl());
        config.setUsername(database.username());
        config.setPassword(database.password());
        config.setMaximumPoolSize(2);
        config.setPoolName("service");
        // As SagaflowDefaults sets it for every service (ADR 0029).
        config.addDataSourceProperty("options", "-c plan_cache_mode=force_generic_plan");
        service = new HikariDataSource(config);
        Flyway.configure()
                .dataSource(service)
                .locations("classpath:db/framework")
                .load()
                .migrate();
        try (Connection connection = service.getConnection();
                Statement statement = connection.createStatement()) {
            // No autovacuum to plan the statements again in the middle of the test.
            statement.execute("alter table outbox set (autovacuum_enabled = false)");
            statement.execute("vacuum outbox");
        }
        relay = RelayDataSource.of(service, meters);
    }

    @AfterEach
    void tearDown() {
        relay.close();
        service.close();
    }

    @Test
    void aServiceConnectionScansAnOutboxThatWasEmptyWhenItPlannedSequentially() throws SQLException {
        try (Connection connection = service.getConnection()) {
            assertThat(plannedEmptyThenFilled(
                            connection, OutboxRelay.DELETE_PUBLISHED_AND_SELECT_PENDING, SELECT_ARGUMENTS))
                    .contains("Seq Scan on outbox");
        }
    }

    @Test
    void theRelaysConnectionReadsAndDeletesThroughAnIndex() throws SQLException {
        try (Connection connection = relay.dataSource().getConnection()) {
            String select = plannedEmptyThenFilled(
                    connection, OutboxRelay.DELETE_PUBLISHED_AND_SELECT_PENDING, SELECT_ARGUMENTS);
            // Which index depends on the server's version and the table's statistics; any of them skips the
            // entries of deleted rows once it has seen them.
            assertThat(select)
                    .contains("Index Scan using")
                    .doesNotContain("Seq Scan")
                    .doesNotContain("Bitmap");
        }
        try (Connection connection = relay.dataSource().getConnection()) {
            assertThat(plannedEmptyThenFilled(connection, OutboxRelay.DELETE_PUBLISHED, DELETE_ARGUMENTS))
                    .containsPattern("(Tid|Index) Scan")
                    .doesNotContain("Seq Scan")
                    .doesNotContain("Bitmap");
        }
    }

    @Test
    void theRelaysPoolIsOneConnectionWithTheServicesOptionsItsOwnMetricsAndClosesAlone() throws SQLException {
        DataSource dataSource = relay.dataSource();
        assertThat(dataSource).isInstanceOf(HikariDataSource.class).isNotSameAs(service);
        HikariDataSource pool = (HikariDataSource) dataSource;
        assertThat(pool.getMaximumPoolSize()).isEqualTo(1);
        assertThat(pool.getPoolName()).isEqualTo("service-outbox-relay");
        try (Connection connection = pool.getConnection();
                Statement statement = connection.createStatement()) {
            assertThat(setting(statement, "plan_cache_mode")).isEqualTo("force_generic_plan");
            assertThat(setting(statement, "enable_seqscan")).isEqualTo("off");
            assertThat(setting(statement, "enable_bitmapscan")).isEqualTo("off");
        }
        try (Connection connection = service.getConnection();
                Statement statement = connection.createStatement()) {
            assertThat(setting(statement, "enable_seqscan")).isEqualTo("on");
        }
        // Its own metrics, beside the service pool's.
        assertThat(meters.get("hikaricp.connections.max")
                        .tag("pool", "service-outbox-relay")
                        .gauge()
                        .value())
                .isEqualTo(1.0);
        relay.close();
        assertThat(pool.isClosed()).isTrue();
        assertThat(service.isClosed()).isFalse();
    }

    /**
     * The plan of {@code sql} that {@code connection} makes on the empty outbox and keeps, as it is executed once 2 000
     * rows were written and all but 50 of them deleted.
     */
    private String plannedEmptyThenFilled(Connection connection, String sql, String arguments) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("prepare relay_probe as " + GenericPlans.numbered(sql));
            try {
                // A generic plan is made on the first execution, and kept.
                statement.execute("explain execute relay_probe(" + arguments + ")");
                try (Connection writer = service.getConnection();
                        Statement writing = writer.createStatement()) {
                    writing.execute("insert into outbox (bucket, event_id, stream_id, stream_version, type,"
                            + " schema_version, occurred_at, correlation_id, payload)"
                            + " select g % 4, gen_random_uuid(), 'counter-' || g, 1, 'Incremented', 1, now(), 'c',"
                            + " repeat('x', 400) from generate_series(1, 2000) g");
                    writing.execute("delete from outbox where id <= (select max(id) - 50 from outbox)");
                }
                StringBuilder plan = new StringBuilder();
                try (var lines = statement.executeQuery("explain execute relay_probe(" + arguments + ")")) {
                    while (lines.next()) {
                        plan.append(lines.getString(1)).append('\n');
                    }
                }
                return plan.toString();
            } finally {
                statement.execute("deallocate relay_probe");
            }
        }
    }

    private static String setting(Statement statement, String name) throws SQLException {
        try (var value = statement.executeQuery("show " + name)) {
            value.next();
            return value.getString(1);
        }
    }
}

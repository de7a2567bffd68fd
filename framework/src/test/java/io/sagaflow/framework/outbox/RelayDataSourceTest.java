package io.sagaflow.framework.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.AbstractDataSource;

/** How the relay's pool is made from the service's; no database needed. */
class RelayDataSourceTest {

    @Test
    void addsThePlannerSettingsToTheServicesOwnOptions() {
        HikariConfig service = new HikariConfig();
        service.setJdbcUrl("jdbc:postgresql://db.example:5432/order");
        service.setUsername("sagaflow");
        service.setPassword("secret");
        service.setPoolName("order-pool");
        service.setMaxLifetime(600_000);
        service.addDataSourceProperty("options", "-c plan_cache_mode=force_generic_plan");
        service.addDataSourceProperty("tcpKeepAlive", "true");

        HikariConfig relay = RelayDataSource.configLike(service);

        assertThat(relay.getPoolName()).isEqualTo("order-pool-outbox-relay");
        assertThat(relay.getJdbcUrl()).isEqualTo(service.getJdbcUrl());
        assertThat(relay.getUsername()).isEqualTo("sagaflow");
        assertThat(relay.getPassword()).isEqualTo("secret");
        assertThat(relay.getMaxLifetime()).isEqualTo(600_000);
        assertThat(relay.getMaximumPoolSize()).isEqualTo(1);
        assertThat(relay.getDataSourceProperties())
                .containsEntry(
                        "options",
                        "-c plan_cache_mode=force_generic_plan -c enable_seqscan=off -c enable_bitmapscan=off")
                .containsEntry("tcpKeepAlive", "true");
        // The service's own settings are not touched.
        assertThat(service.getDataSourceProperties()).containsEntry("options", "-c plan_cache_mode=force_generic_plan");
    }

    @Test
    void aServiceWithoutOptionsGetsOnlyThePlannerSettings() {
        HikariConfig service = new HikariConfig();
        service.setJdbcUrl("jdbc:postgresql://db.example:5432/order");

        assertThat(RelayDataSource.configLike(service).getDataSourceProperties())
                .containsEntry("options", RelayDataSource.PLANNER_OPTIONS);
    }

    @Test
    void aDataSourceThatIsNotAHikariPoolIsSharedAndLeftOpen() {
        var service = new AbstractDataSource() {
            boolean closed;

            @Override
            public Connection getConnection() throws SQLException {
                throw new SQLException("not connected in this test");
            }

            @Override
            public Connection getConnection(String username, String password) throws SQLException {
                throw new SQLException("not connected in this test");
            }

            @SuppressWarnings("unused")
            public void close() {
                closed = true;
            }
        };

        try (RelayDataSource relay = RelayDataSource.of(service, null)) {
            assertThat(relay.dataSource()).isSameAs(service);
        }
        assertThat(service.closed).isFalse();
    }

    @Test
    void aHikariPoolWithoutAUrlIsSharedToo() {
        try (HikariDataSource service = new HikariDataSource();
                RelayDataSource relay = RelayDataSource.of(service, null)) {
            assertThat(relay.dataSource()).isSameAs(service);
        }
    }
}

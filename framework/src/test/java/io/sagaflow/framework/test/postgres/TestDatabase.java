package io.sagaflow.framework.test.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.flywaydb.core.Flyway;

/**
 * A fresh, empty database on the test PostgreSQL server.
 *
 * @param jdbcUrl its JDBC URL
 * @param username user with full rights on it
 * @param password that user's password
 */
public record TestDatabase(String jdbcUrl, String username, String password) {

    /** A small pool on this database; close it when done. */
    public HikariDataSource dataSource() {
        return dataSource(Duration.ofSeconds(30));
    }

    /**
     * A small pool on this database that waits at most {@code connectionTimeout} for a connection (at least 250 ms,
     * Hikari's floor), as a test of a database that went away wants; close it when done.
     */
    public HikariDataSource dataSource(Duration connectionTimeout) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setUsername(username);
        config.setPassword(password);
        config.setMaximumPoolSize(12);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(connectionTimeout.toMillis());
        return new HikariDataSource(config);
    }

    /**
     * Lets this database take connections again, or has it refuse new ones and end those it has, as a database that
     * went away does (a restart, a failover); through the server's own database, which stays open.
     */
    public void admitConnections(boolean admitted) {
        String name = jdbcUrl.substring(jdbcUrl.lastIndexOf('/') + 1);
        String serverUrl = jdbcUrl.substring(0, jdbcUrl.lastIndexOf('/') + 1) + "postgres";
        try (Connection admin = DriverManager.getConnection(serverUrl, username, password);
                Statement statement = admin.createStatement()) {
            statement.execute("alter database \"" + name + "\" allow_connections " + admitted);
            if (!admitted) {
                statement.execute("select pg_terminate_backend(pid) from pg_stat_activity where datname = '" + name
                        + "' and pid <> pg_backend_pid()");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot change whether " + name + " takes connections", e);
        }
    }

    /** A small pool on this database with the framework's schema migrated. */
    public HikariDataSource migratedDataSource() {
        HikariDataSource dataSource = dataSource();
        Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/framework")
                .load()
                .migrate();
        return dataSource;
    }
}

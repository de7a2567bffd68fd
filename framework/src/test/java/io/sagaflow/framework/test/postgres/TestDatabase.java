package io.sagaflow.framework.test.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
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
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setUsername(username);
        config.setPassword(password);
        config.setMaximumPoolSize(12);
        config.setMinimumIdle(0);
        return new HikariDataSource(config);
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

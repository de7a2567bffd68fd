package io.sagaflow.framework.outbox;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.SQLException;
import java.util.Properties;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay's own connection to the service's database, on which PostgreSQL reads the outbox through its indexes
 * only: no sequential scan, no bitmap scan (ADR 0063).
 *
 * <p>Each connection plans the relay's statements once (ADR 0029), with the outbox as it is at that moment. An outbox
 * that vacuum had just emptied and truncated has no pages, so the plan made then scans it sequentially; the table then
 * fills with the rows the relay deletes, up to a minute of them between vacuums, and every poll and every delete read
 * all of them. A bitmap scan of the pending rows' index is no better: it cannot mark the entries of deleted rows as
 * dead, so it visits every one of them in the heap again on each poll. A plain index scan marks them on its first
 * visit and skips them after. These planner settings hold only on this pool, whose sole user is the relay, so no other
 * statement of the service is planned under them.
 *
 * <p>One connection: the relay is one thread. It is made from the service's own Hikari pool (its URL, credentials and
 * start-up options) when there is one, and reports Hikari's metrics under its own pool name; any other data source is
 * used as it is, with the plans it gives.
 */
public final class RelayDataSource implements AutoCloseable {

    /** What the relay's connection adds to the start-up {@code options} of the service's connections. */
    static final String PLANNER_OPTIONS = "-c enable_seqscan=off -c enable_bitmapscan=off";

    private static final Logger log = LoggerFactory.getLogger(RelayDataSource.class);

    private final DataSource dataSource;
    private final HikariDataSource owned;

    private RelayDataSource(DataSource dataSource, HikariDataSource owned) {
        this.dataSource = dataSource;
        this.owned = owned;
    }

    /**
     * A pool of one connection like {@code service}'s, reporting to {@code meters} (when not null), or {@code service}
     * itself when it is not a Hikari pool.
     */
    public static RelayDataSource of(DataSource service, MeterRegistry meters) {
        HikariDataSource pool = hikari(service);
        if (pool == null || pool.getJdbcUrl() == null) {
            log.warn(
                    "The outbox relay shares the service's data source ({}): its statements are planned as for any"
                            + " other, and may scan the outbox sequentially",
                    service.getClass().getName());
            return new RelayDataSource(service, null);
        }
        HikariConfig config = configLike(pool);
        if (meters != null) {
            // Spring Boot binds the metrics of the service's pool only: it knows nothing of this one.
            config.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(meters));
        }
        HikariDataSource relay = new HikariDataSource(config);
        return new RelayDataSource(relay, relay);
    }

    static HikariConfig configLike(HikariConfig pool) {
        HikariConfig config = new HikariConfig();
        config.setPoolName((pool.getPoolName() == null ? "sagaflow" : pool.getPoolName()) + "-outbox-relay");
        config.setJdbcUrl(pool.getJdbcUrl());
        if (pool.getDriverClassName() != null) {
            config.setDriverClassName(pool.getDriverClassName());
        }
        config.setUsername(pool.getUsername());
        config.setPassword(pool.getPassword());
        if (pool.getCredentialsProvider() != null) {
            config.setCredentialsProvider(pool.getCredentialsProvider());
        }
        Properties properties = new Properties();
        properties.putAll(pool.getDataSourceProperties());
        String options = properties.getProperty("options", "");
        properties.setProperty("options", (options + " " + PLANNER_OPTIONS).strip());
        config.setDataSourceProperties(properties);
        config.setSchema(pool.getSchema());
        config.setCatalog(pool.getCatalog());
        config.setConnectionTimeout(pool.getConnectionTimeout());
        config.setValidationTimeout(pool.getValidationTimeout());
        config.setMaxLifetime(pool.getMaxLifetime());
        config.setKeepaliveTime(pool.getKeepaliveTime());
        config.setMaximumPoolSize(1);
        config.setMinimumIdle(1);
        // Connect when the relay first asks, and never fail the service's start over it: the relay retries.
        config.setInitializationFailTimeout(-1);
        return config;
    }

    private static HikariDataSource hikari(DataSource dataSource) {
        if (dataSource instanceof HikariDataSource pool) {
            return pool;
        }
        try {
            return dataSource.isWrapperFor(HikariDataSource.class) ? dataSource.unwrap(HikariDataSource.class) : null;
        } catch (SQLException e) {
            return null;
        }
    }

    /** Where the relay's statements run. */
    public DataSource dataSource() {
        return dataSource;
    }

    /** Closes the relay's own pool; a shared data source stays open. */
    @Override
    public void close() {
        if (owned != null) {
            owned.close();
        }
    }
}

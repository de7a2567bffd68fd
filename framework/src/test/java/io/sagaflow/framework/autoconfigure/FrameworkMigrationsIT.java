package io.sagaflow.framework.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.sagaflow.framework.eventstore.StatisticsTargets;
import io.sagaflow.framework.test.postgres.TestPostgres;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A service database migrated by an earlier framework release (framework 1.0.1–1.0.3, then the service's V2) takes
 * the framework's newer migrations on the next start, although they are numbered below V2; and after a migration
 * every column gets the framework's statistics target unless it has one of its own.
 */
class FrameworkMigrationsIT {

    private static final String SERVICE_MIGRATIONS = "classpath:db/test-service";

    private HikariDataSource dataSource;

    @BeforeEach
    void aDatabaseAsAnEarlierReleaseLeftIt() {
        dataSource = TestPostgres.newDatabase().dataSource();
        Flyway.configure()
                .dataSource(dataSource)
                .locations(SagaflowEventStoreAutoConfiguration.FRAMEWORK_MIGRATIONS)
                .target("1.0.3")
                .load()
                .migrate();
        Flyway.configure()
                .dataSource(dataSource)
                .locations(SERVICE_MIGRATIONS)
                .ignoreMigrationPatterns("*:missing")
                .load()
                .migrate();
    }

    @AfterEach
    void close() {
        dataSource.close();
    }

    @Test
    void theServicesFlywayAppliesANewFrameworkMigrationBelowItsOwnVersions() {
        FluentConfiguration service = Flyway.configure().dataSource(dataSource).locations(SERVICE_MIGRATIONS);
        SagaflowEventStoreAutoConfiguration.includeFrameworkMigrations(service);

        service.load().migrate();

        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        assertThat(jdbc.queryForList(
                        "select version from flyway_schema_history where success order by installed_rank",
                        String.class))
                .containsExactly("1.0.1", "1.0.2", "1.0.3", "2", "1.0.4", "1.0.5", "1.0.6", "1.0.7", "1.0.8");
        assertThat(jdbc.queryForList(
                        "select column_name from information_schema.columns where table_name = 'consumer_checkpoint'",
                        String.class))
                .contains("topic", "last_publish_time")
                .doesNotContain("shard");
        assertThat(jdbc.queryForObject("select to_regclass('idempotency_key') is not null", Boolean.class))
                .isTrue();
    }

    @Test
    void everyColumnLeftAtTheDefaultIsAnalysedFromTheSmallerSample() {
        FluentConfiguration service = Flyway.configure().dataSource(dataSource).locations(SERVICE_MIGRATIONS);
        SagaflowEventStoreAutoConfiguration.includeFrameworkMigrations(service);
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        jdbc.execute("create table added_later (id uuid primary key, body jsonb, amount numeric)");
        jdbc.execute("alter table added_later alter column amount set statistics 200");
        service.load().migrate();

        StatisticsTargets.apply(dataSource);
        StatisticsTargets.apply(dataSource);

        assertThat(jdbc.queryForList("""
                        select c.relname || '.' || a.attname
                        from pg_attribute a join pg_class c on c.oid = a.attrelid
                        where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r'
                          and c.relname <> 'flyway_schema_history' and a.attnum > 0 and not a.attisdropped
                          and a.attstattarget is distinct from %d
                        """.formatted(StatisticsTargets.TARGET), String.class))
                .as("the only column not at the target is the one given a target of its own")
                .containsExactly("added_later.amount");
        assertThat(jdbc.queryForObject(
                        "select attstattarget from pg_attribute where attrelid = 'added_later'::regclass"
                                + " and attname = 'amount'",
                        Integer.class))
                .isEqualTo(200);
        assertThat(jdbc.queryForList("""
                        select a.attname from pg_attribute a join pg_class c on c.oid = a.attrelid
                        where c.relname in ('es_event', 'added_later') and a.attnum > 0 and a.attstattarget = %d
                        """.formatted(StatisticsTargets.TARGET), String.class))
                .contains("payload", "stream_id", "body");
    }

    @Test
    void replicasSettingTheTargetsTogetherBothStart() throws Exception {
        FluentConfiguration service = Flyway.configure().dataSource(dataSource).locations(SERVICE_MIGRATIONS);
        SagaflowEventStoreAutoConfiguration.includeFrameworkMigrations(service);
        service.load().migrate();

        try (var replicas = Executors.newFixedThreadPool(2)) {
            var first = replicas.submit(() -> StatisticsTargets.apply(dataSource));
            var second = replicas.submit(() -> StatisticsTargets.apply(dataSource));
            first.get(30, TimeUnit.SECONDS);
            second.get(30, TimeUnit.SECONDS);
        }

        assertThat(new JdbcTemplate(dataSource)
                        .queryForObject(
                                "select attstattarget from pg_attribute where attrelid = 'es_event'::regclass"
                                        + " and attname = 'payload'",
                                Integer.class))
                .isEqualTo(StatisticsTargets.TARGET);
    }

    @Test
    void withoutOutOfOrderFlywayWouldRefuseToStart() {
        FluentConfiguration strict = Flyway.configure()
                .dataSource(dataSource)
                .locations(SERVICE_MIGRATIONS, SagaflowEventStoreAutoConfiguration.FRAMEWORK_MIGRATIONS);

        assertThatThrownBy(() -> strict.load().migrate()).hasMessageContaining("not applied to database: 1.0.4");
    }
}

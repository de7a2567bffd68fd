package io.sagaflow.framework.test.postgres;

import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The PostgreSQL of a Spring integration test: a Testcontainers container through {@code @ServiceConnection} where
 * Docker runs, otherwise a fresh database on the JVM's embedded server, handed to Spring Boot as
 * {@link JdbcConnectionDetails}. Import it (or use {@code @SagaflowIntegrationTest}); nothing else to configure.
 */
@TestConfiguration(proxyBeanMethods = false)
public class PostgresTestConfiguration {

    @Bean
    @ServiceConnection
    @Conditional(DockerAvailable.class)
    PostgreSQLContainer postgresContainer() {
        return new PostgreSQLContainer(TestPostgres.IMAGE);
    }

    @Bean
    @Conditional(DockerUnavailable.class)
    JdbcConnectionDetails embeddedPostgresConnectionDetails() {
        TestDatabase database = TestPostgres.newDatabase();
        return new JdbcConnectionDetails() {
            @Override
            public String getUsername() {
                return database.username();
            }

            @Override
            public String getPassword() {
                return database.password();
            }

            @Override
            public String getJdbcUrl() {
                return database.jdbcUrl();
            }
        };
    }

    static final class DockerAvailable implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return TestPostgres.usesTestcontainers();
        }
    }

    static final class DockerUnavailable implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return !TestPostgres.usesTestcontainers();
        }
    }
}

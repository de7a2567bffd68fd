package io.sagaflow.framework.test;

import io.sagaflow.framework.test.hazelcast.HazelcastTestPropertiesInitializer;
import io.sagaflow.framework.test.postgres.PostgresTestConfiguration;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ContextConfiguration;

/**
 * A Spring Boot integration test of a service on a real PostgreSQL (see {@link PostgresTestConfiguration}) and real
 * Hazelcast members with a small, isolated test configuration (see {@link HazelcastTestPropertiesInitializer}),
 * served on a random port.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Import(PostgresTestConfiguration.class)
@ContextConfiguration(initializers = HazelcastTestPropertiesInitializer.class)
public @interface SagaflowIntegrationTest {}

package io.sagaflow.framework.test.postgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * One PostgreSQL server per test JVM, and a fresh database on it per caller. The server is a Testcontainers container
 * when a Docker engine answers, and a real embedded PostgreSQL (zonky) when none does, as on the project's CI
 * machines. {@code -Dsagaflow.test.postgres=embedded|testcontainers} forces one. See ADR 0006.
 */
public final class TestPostgres {

    /** The image used where Docker runs; same major version as the embedded binaries. */
    public static final String IMAGE = "postgres:17-alpine";

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static Server server;

    private TestPostgres() {}

    /** Whether the server is (or will be) a container. */
    public static boolean usesTestcontainers() {
        String forced = System.getProperty("sagaflow.test.postgres", "").toLowerCase(Locale.ROOT);
        return switch (forced) {
            case "embedded" -> false;
            case "testcontainers" -> true;
            default -> dockerAvailable();
        };
    }

    /** Creates a new empty database on the shared server. */
    public static synchronized TestDatabase newDatabase() {
        if (server == null) {
            server = usesTestcontainers() ? containerServer() : embeddedServer();
        }
        String name = "test_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
        try (Connection admin = DriverManager.getConnection(server.adminUrl(), server.username(), server.password());
                Statement statement = admin.createStatement()) {
            statement.execute("create database " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test database " + name, e);
        }
        return new TestDatabase(server.urlOf(name), server.username(), server.password());
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    private static Server containerServer() {
        PostgreSQLContainer container = new PostgreSQLContainer(IMAGE).withCommand("postgres", "-c", "fsync=off");
        container.start();
        Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
        String url = container.getJdbcUrl();
        String base = url.substring(0, url.lastIndexOf('/') + 1);
        return new Server(base, container.getUsername(), container.getPassword(), url);
    }

    private static Server embeddedServer() {
        try {
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setServerConfig("fsync", "off")
                    .setServerConfig("synchronous_commit", "off")
                    .setServerConfig("max_connections", "300")
                    .start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    postgres.close();
                } catch (IOException ignored) {
                    // the JVM is going away; the embedded server's own reaper cleans up
                }
            }));
            String base = "jdbc:postgresql://localhost:" + postgres.getPort() + "/";
            return new Server(base, "postgres", "postgres", base + "postgres");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start embedded PostgreSQL", e);
        }
    }

    private record Server(String baseUrl, String username, String password, String adminUrl) {
        String urlOf(String database) {
            return baseUrl + database;
        }
    }
}

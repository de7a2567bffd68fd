package io.sagaflow.framework.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.sagaflow.framework.test.postgres.TestDatabase;
import io.sagaflow.framework.test.postgres.TestPostgres;
import java.net.SocketTimeoutException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * pgjdbc over PostgreSQL's Unix-domain socket: the test server's own socket, so only where that server runs on this
 * machine (the embedded one; a container's socket is inside the container).
 */
class UnixDomainSocketFactoryIT {

    private static TestDatabase database;
    private static Path socketFile;

    @BeforeAll
    static void findTheSocket() throws SQLException {
        assumeFalse(TestPostgres.usesTestcontainers(), "the container's Unix socket is not on this machine");
        database = TestPostgres.newDatabase();
        try (Connection tcp =
                        DriverManager.getConnection(database.jdbcUrl(), database.username(), database.password());
                Statement statement = tcp.createStatement();
                ResultSet rs = statement.executeQuery(
                        "select current_setting('unix_socket_directories')," + " current_setting('port')")) {
            rs.next();
            String directory = rs.getString(1).split(",")[0].strip();
            socketFile = Path.of(directory, ".s.PGSQL." + rs.getString(2));
        }
        assertThat(socketFile).as("the test server listens on a Unix socket").exists();
    }

    private static String url(Path socket) {
        String separator = database.jdbcUrl().contains("?") ? "&" : "?";
        return database.jdbcUrl() + separator + "socketFactory=" + UnixDomainSocketFactory.class.getName()
                + "&socketFactoryArg=" + URLEncoder.encode(socket.toString(), StandardCharsets.UTF_8);
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(url(socketFile), database.username(), database.password());
    }

    @Test
    void aConnectionGoesThroughTheSocketFileNotTcp() throws SQLException {
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("select inet_server_addr(), 6 * 7")) {
            rs.next();
            assertThat(rs.getString(1))
                    .as("no server address: a Unix-domain connection")
                    .isNull();
            assertThat(rs.getInt(2)).isEqualTo(42);
        }
    }

    @Test
    void bodiesLargerThanTheSocketsBuffersTravelWhole() throws SQLException {
        String large = "x".repeat(3_000_000);
        try (Connection connection = connect();
                PreparedStatement statement = connection.prepareStatement("select length(?), repeat('y', 2500000)")) {
            statement.setString(1, large);
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(large.length());
                assertThat(rs.getString(2)).hasSize(2_500_000).matches("y+");
            }
        }
    }

    @Test
    void aReadUnderANetworkTimeOutEndsWhenNothingComes() throws Exception {
        try (Connection connection = connect()) {
            assertThat(connection.isValid(2))
                    .as("a timed read that gets its answer")
                    .isTrue();
            ExecutorService executor = Executors.newSingleThreadExecutor();
            try {
                connection.setNetworkTimeout(executor, 300);
                long started = System.nanoTime();
                assertThatThrownBy(() -> {
                            try (Statement statement = connection.createStatement()) {
                                statement.execute("select pg_sleep(5)");
                            }
                        })
                        .isInstanceOf(SQLException.class)
                        .hasRootCauseInstanceOf(SocketTimeoutException.class);
                assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(4_000);
                assertThat(connection.isClosed())
                        .as("pgjdbc gives up a connection that timed out")
                        .isTrue();
            } finally {
                executor.shutdownNow();
            }
        }
    }

    @Test
    void aPoolServesManyVirtualThreadsAtOnce() throws Exception {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url(socketFile));
        config.setUsername(database.username());
        config.setPassword(database.password());
        config.setMaximumPoolSize(8);
        try (HikariDataSource pool = new HikariDataSource(config);
                ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Long>> sums = new ArrayList<>();
            for (int t = 0; t < 64; t++) {
                int thread = t;
                sums.add(threads.submit(() -> {
                    long sum = 0;
                    for (int i = 0; i < 25; i++) {
                        try (Connection connection = pool.getConnection();
                                PreparedStatement statement = connection.prepareStatement("select ?::bigint + 1")) {
                            statement.setLong(1, thread * 1000L + i);
                            try (ResultSet rs = statement.executeQuery()) {
                                rs.next();
                                sum += rs.getLong(1);
                            }
                        }
                    }
                    return sum;
                }));
            }
            for (int t = 0; t < sums.size(); t++) {
                assertThat(sums.get(t).get()).isEqualTo(25 * (t * 1000L + 1) + 300);
            }
        }
    }

    @Test
    void aSocketFileNobodyListensOnFailsTheConnection() throws Exception {
        Path nowhere = Files.createTempDirectory("no-postgres").resolve(".s.PGSQL.1");
        assertThatThrownBy(() -> DriverManager.getConnection(url(nowhere), database.username(), database.password()))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("onnection");
    }
}

package io.sagaflow.framework.projection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.sagaflow.framework.test.postgres.TestPostgres;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** Statements on arrays write a whole batch's rows in one execution, and refuse arrays of different lengths. */
class SqlArrayIT {

    private static final String UPSERT = "insert into balance (id, amount, note, at) select b.id, b.amount, b.note,"
            + " b.at::timestamptz from unnest(?::uuid[], ?::numeric[], ?::text[], ?::text[]) as b (id, amount, note, at)"
            + " on conflict (id) do update set amount = balance.amount + excluded.amount, at = excluded.at";

    private HikariDataSource dataSource;
    private JdbcTemplate jdbc;

    @BeforeEach
    void setUp() {
        dataSource = TestPostgres.newDatabase().dataSource();
        jdbc = new JdbcTemplate(dataSource);
        jdbc.execute("create table balance (id uuid primary key, amount numeric not null, note text,"
                + " at timestamptz not null)");
    }

    @AfterEach
    void tearDown() {
        dataSource.close();
    }

    @Test
    void oneStatementWritesEveryRowWithNullsDecimalsAndInstantsIntact() {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        Instant at = Instant.parse("2026-11-26T09:30:00.123456Z");

        int inserted = SqlArray.update(
                jdbc,
                UPSERT,
                new SqlArray("uuid", new UUID[] {a, b}),
                new SqlArray("numeric", new String[] {"0.10", new BigDecimal("1E+3").toPlainString()}),
                new SqlArray("text", new String[] {"it's \"quoted\", {braced}", null}),
                new SqlArray("text", new String[] {at.toString(), at.toString()}));
        int added = SqlArray.update(
                jdbc,
                UPSERT,
                new SqlArray("uuid", new UUID[] {a}),
                new SqlArray("numeric", new String[] {"0.20"}),
                new SqlArray("text", new String[] {null}),
                new SqlArray("text", new String[] {at.plusSeconds(1).toString()}));

        assertThat(inserted).isEqualTo(2);
        assertThat(added).isOne();
        Map<String, Object> first = jdbc.queryForMap("select amount, note, at from balance where id = ?", a);
        assertThat((BigDecimal) first.get("amount")).isEqualByComparingTo("0.30");
        assertThat(first.get("note")).isEqualTo("it's \"quoted\", {braced}");
        assertThat(((java.sql.Timestamp) first.get("at")).toInstant()).isEqualTo(at.plusSeconds(1));
        Map<String, Object> second = jdbc.queryForMap("select amount, note from balance where id = ?", b);
        assertThat((BigDecimal) second.get("amount")).isEqualByComparingTo("1000");
        assertThat(second.get("note")).isNull();
    }

    @Test
    void arraysOfDifferentLengthsAreRefusedBeforeAnythingIsWritten() {
        assertThatThrownBy(() -> SqlArray.update(
                        jdbc,
                        UPSERT,
                        new SqlArray("uuid", new UUID[] {UUID.randomUUID(), UUID.randomUUID()}),
                        new SqlArray("numeric", new String[] {"1"}),
                        new SqlArray("text", new String[] {"x", "y"}),
                        new SqlArray("text", new String[] {"2026-11-26T00:00:00Z", "2026-11-26T00:00:00Z"})))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("uuid[2]")
                .hasMessageContaining("numeric[1]");
        assertThat(jdbc.queryForList("select id from balance")).isEqualTo(List.of());
    }
}

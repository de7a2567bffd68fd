package io.sagaflow.framework.eventstore;

import java.time.Duration;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The table of used {@link IdempotencyKey}s ({@code db/framework/V1.0.5__idempotency_keys.sql}, ADR 0070). The event
 * store claims the keys of an append inside the append's transaction, so a key is recorded exactly when its events
 * are.
 */
public final class IdempotencyKeys {

    /**
     * Claims the keys in one statement. A key another transaction holds uncommitted makes this wait for that one to
     * end ({@code on conflict} on the primary key), so of two requests with one key the second always sees the first
     * one's outcome.
     */
    private static final String CLAIM = """
            insert into idempotency_key (scope, key, fingerprint, stream_id)
            select * from unnest(?::text[], ?::text[], ?::text[], ?::text[])
            on conflict do nothing
            returning scope, key""";

    private final JdbcTemplate jdbc;

    public IdempotencyKeys(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** A key and the stream its append writes to. */
    public record Claim(IdempotencyKey key, String streamId) {}

    /**
     * Records {@code claims} in the caller's transaction.
     *
     * @throws IdempotencyKeyUsedException for the first key already recorded, by another transaction or by an earlier
     *     claim of this one; the caller must then roll back, or whatever it wrote commits without its key
     */
    public void claim(List<Claim> claims) {
        // In one order for every caller, so that two transactions claiming the same keys cannot deadlock.
        List<Claim> ordered = claims.stream()
                .sorted(Comparator.comparing((Claim c) -> c.key().scope())
                        .thenComparing(c -> c.key().value()))
                .toList();
        int n = ordered.size();
        String[] scopes = new String[n];
        String[] values = new String[n];
        String[] fingerprints = new String[n];
        String[] streams = new String[n];
        for (int i = 0; i < n; i++) {
            Claim claim = ordered.get(i);
            scopes[i] = claim.key().scope();
            values[i] = claim.key().value();
            fingerprints[i] = claim.key().fingerprint();
            streams[i] = claim.streamId();
        }
        Set<List<String>> claimed = new HashSet<>();
        jdbc.query(
                connection -> {
                    var statement = connection.prepareStatement(CLAIM);
                    statement.setArray(1, connection.createArrayOf("text", scopes));
                    statement.setArray(2, connection.createArrayOf("text", values));
                    statement.setArray(3, connection.createArrayOf("text", fingerprints));
                    statement.setArray(4, connection.createArrayOf("text", streams));
                    return statement;
                },
                rs -> {
                    claimed.add(List.of(rs.getString(1), rs.getString(2)));
                });
        for (Claim claim : ordered) {
            // A key twice in one call: the first of the two made the row, the second is refused below.
            if (!claimed.remove(List.of(claim.key().scope(), claim.key().value()))) {
                throw used(claim.key());
            }
        }
    }

    /**
     * Deletes the keys recorded more than {@code retention} ago, {@code batchSize} rows a statement; a request made
     * again with such a key is carried out anew.
     *
     * @return how many were deleted
     */
    public int prune(Duration retention, int batchSize) {
        return ExpiredRows.delete(jdbc, "idempotency_key", "created_at", retention, batchSize);
    }

    private IdempotencyKeyUsedException used(IdempotencyKey key) {
        return jdbc
                .query(
                        "select stream_id, fingerprint from idempotency_key where scope = ? and key = ?",
                        (rs, row) -> new IdempotencyKeyUsedException(key, rs.getString(1), rs.getString(2)),
                        key.scope(),
                        key.value())
                .stream()
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(
                        "idempotency key " + key.value() + " of " + key.scope() + " neither claimed nor recorded"));
    }
}

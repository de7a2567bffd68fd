package io.sagaflow.account.customer.adapter.postgres;

import io.sagaflow.account.customer.application.EmailClaims;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@link EmailClaims} on the {@code customer_email_claim} table. {@code ON CONFLICT DO NOTHING} makes a racing
 * claim wait on the first one's uncommitted row and then report whether it won, without a unique-violation error
 * that would abort the caller's transaction.
 */
public final class JdbcEmailClaims implements EmailClaims {

    private final JdbcTemplate jdbc;

    public JdbcEmailClaims(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public boolean claim(String email, UUID customerId) {
        return jdbc.update(
                        "insert into customer_email_claim (email, customer_id) values (?, ?)"
                                + " on conflict (email) do nothing",
                        email,
                        customerId)
                == 1;
    }
}

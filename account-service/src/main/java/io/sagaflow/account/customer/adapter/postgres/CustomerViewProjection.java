package io.sagaflow.account.customer.adapter.postgres;

import io.sagaflow.account.contracts.AccountEvent;
import io.sagaflow.account.contracts.CustomerRegistered;
import io.sagaflow.account.contracts.CustomerStatusChanged;
import io.sagaflow.account.customer.application.CustomerView;
import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.projection.Projection;
import io.sagaflow.framework.projection.ViewCache;
import io.sagaflow.framework.projection.ViewWrites;
import java.sql.Timestamp;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Keeps {@code customer_view} in step with the customer events, in the transaction that appends (or replays) them;
 * every row it changes is dropped from the view cache once that transaction commits. Timestamps come from the
 * events, so a rebuild reproduces the view exactly.
 */
public final class CustomerViewProjection implements Projection {

    private final ViewCache<CustomerView> cache;

    public CustomerViewProjection(ViewCache<CustomerView> cache) {
        this.cache = cache;
    }

    @Override
    public String name() {
        return "customer-view";
    }

    @Override
    public void apply(EventEnvelope<Object> event, ViewWrites writes) {
        if (!(event.payload() instanceof AccountEvent accountEvent)) {
            return;
        }
        Timestamp at = Timestamp.from(event.occurredAt());
        switch (accountEvent) {
            case CustomerRegistered registered -> {
                writes.update(
                        "insert into customer_view (customer_id, email, name, address, phone, status, created_at,"
                                + " updated_at) values (?, ?, ?, ?, ?, 'ACTIVE', ?, ?)",
                        registered.customerId(),
                        registered.email(),
                        registered.name(),
                        registered.address(),
                        registered.phone(),
                        at,
                        at);
                cache.invalidateAfterCommit(registered.customerId().toString());
            }
            case CustomerStatusChanged changed -> {
                writes.update(
                        "update customer_view set status = ?, updated_at = ? where customer_id = ?",
                        changed.status(),
                        at,
                        changed.customerId());
                cache.invalidateAfterCommit(changed.customerId().toString());
            }
        }
    }

    @Override
    public void reset(JdbcTemplate jdbc) {
        jdbc.update("delete from customer_view");
        cache.clear();
    }
}

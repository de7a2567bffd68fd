package io.sagaflow.account.customer.adapter.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.config.MapConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.sagaflow.account.AccountHazelcastNames;
import io.sagaflow.account.customer.application.CustomerService;
import io.sagaflow.account.customer.application.CustomerView;
import io.sagaflow.account.customer.application.NewCustomer;
import io.sagaflow.account.customer.domain.CustomerStatus;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.hazelcast.ServiceCluster;
import io.sagaflow.framework.projection.ProjectionRebuilder;
import io.sagaflow.framework.test.SagaflowIntegrationTest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

/**
 * The customer view follows the events, is rebuildable by replay, and registrations reach the outbox. No relay runs:
 * these tests read the rows an append writes to the outbox, which a relay deletes once published (ADR 0046).
 */
@SagaflowIntegrationTest
@TestPropertySource(properties = "sagaflow.outbox.relay-enabled=false")
class CustomerViewProjectionIT {

    private static final String VIEW_ROWS = "select customer_id, email, name, address, phone, status, created_at,"
            + " updated_at from customer_view order by customer_id";

    @Autowired
    CustomerService customers;

    @Autowired
    CustomerViewProjection projection;

    @Autowired
    ProjectionRebuilder rebuilder;

    @Autowired
    JdbcCustomerViews views;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    @ServiceCluster
    HazelcastInstance member;

    @Test
    void aRegistrationWritesAnOutboxRowForCustomerRegisteredInTheSameTransaction() {
        CustomerView customer = register("Grace Hopper");

        List<Map<String, Object>> outbox = jdbc.queryForList(
                "select o.type, o.stream_version, o.payload, o.correlation_id, o.event_id = e.event_id as same_event"
                        + " from outbox o join es_event e on e.stream_id = o.stream_id and e.version = o.stream_version"
                        + " where o.stream_id = ?",
                "customer-" + customer.customerId());
        assertThat(outbox).hasSize(1);
        assertThat(outbox.getFirst())
                .containsEntry("type", "CustomerRegistered")
                .containsEntry("stream_version", 1L)
                .containsEntry("correlation_id", "projection-it")
                .containsEntry("same_event", true);
        assertThat((String) outbox.getFirst().get("payload"))
                .contains(customer.customerId().toString())
                .contains(customer.email());
    }

    @Test
    void aStatusChangeWritesAnOutboxRowForCustomerStatusChanged() {
        CustomerView customer = register("Alan Turing");
        customers.changeStatus(customer.customerId(), CustomerStatus.SUSPENDED, "review", metadata());

        assertThat(jdbc.queryForList(
                        "select type from outbox where stream_id = ? order by stream_version",
                        String.class,
                        "customer-" + customer.customerId()))
                .containsExactly("CustomerRegistered", "CustomerStatusChanged");
    }

    @Test
    void rebuildingTheProjectionGivesTheSameView() {
        CustomerView first = register("Edsger Dijkstra");
        CustomerView second = register("Barbara Liskov");
        CustomerView third = register("Donald Knuth");
        customers.changeStatus(first.customerId(), CustomerStatus.SUSPENDED, "review", metadata());
        customers.changeStatus(second.customerId(), CustomerStatus.CLOSED, "left", metadata());
        customers.changeStatus(first.customerId(), CustomerStatus.ACTIVE, "cleared", metadata());
        List<Map<String, Object>> before = jdbc.queryForList(VIEW_ROWS);
        assertThat(before).hasSizeGreaterThanOrEqualTo(3);

        jdbc.update(
                "update customer_view set status = 'SUSPENDED', name = 'garbled' where customer_id = ?",
                third.customerId());
        long replayed = rebuilder.rebuild(projection);

        assertThat(replayed).isGreaterThanOrEqualTo(6);
        assertThat(jdbc.queryForList(VIEW_ROWS)).isEqualTo(before);
        for (CustomerView customer : List.of(first, second, third)) {
            assertThat(customers.find(customer.customerId())).isEqualTo(views.find(customer.customerId()));
        }
        assertThat(customers.find(first.customerId()).orElseThrow().status()).isEqualTo("ACTIVE");
        assertThat(customers.find(second.customerId()).orElseThrow().status()).isEqualTo("CLOSED");
        assertThat(customers.find(third.customerId()).orElseThrow().name()).isEqualTo("Donald Knuth");
    }

    @Test
    void readsByIdAreCachedBoundedAndDroppedAfterEveryCommittedChange() {
        MapConfig config = member.getConfig().getMapConfig(AccountHazelcastNames.CUSTOMER_VIEW);
        assertThat(config.getMapStoreConfig().isEnabled()).isTrue();
        assertThat(config.getEvictionConfig().getSize()).isEqualTo(10_000);
        IMap<String, String> cached = member.getMap(AccountHazelcastNames.CUSTOMER_VIEW);
        CustomerView customer = register("Frances Allen");
        String key = customer.customerId().toString();

        assertThat(customers.find(customer.customerId())).contains(customer);
        assertThat(cached.getEntryView(key)).isNotNull();

        CustomerView suspended =
                customers.changeStatus(customer.customerId(), CustomerStatus.SUSPENDED, "review", metadata());
        assertThat(cached.getEntryView(key)).isNull();
        assertThat(customers.find(customer.customerId())).contains(suspended);
    }

    private CustomerView register(String name) {
        return customers.register(
                new NewCustomer("c-" + UUID.randomUUID() + "@example.com", name, null, null), metadata(), null);
    }

    private static EventMetadata metadata() {
        return EventMetadata.startingFlow("projection-it");
    }
}

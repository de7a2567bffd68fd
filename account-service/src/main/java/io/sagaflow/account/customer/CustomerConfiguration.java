package io.sagaflow.account.customer;

import com.hazelcast.core.HazelcastInstance;
import io.sagaflow.account.AccountHazelcastNames;
import io.sagaflow.account.contracts.AccountEvent;
import io.sagaflow.account.customer.adapter.postgres.CustomerViewProjection;
import io.sagaflow.account.customer.adapter.postgres.JdbcCustomerViews;
import io.sagaflow.account.customer.adapter.postgres.JdbcEmailClaims;
import io.sagaflow.account.customer.application.CustomerService;
import io.sagaflow.account.customer.application.CustomerView;
import io.sagaflow.account.customer.domain.Customer;
import io.sagaflow.account.customer.domain.CustomerCommand;
import io.sagaflow.account.customer.domain.CustomerState;
import io.sagaflow.framework.domain.TimeOrderedIds;
import io.sagaflow.framework.eventstore.DeciderRepository;
import io.sagaflow.framework.eventstore.EventStore;
import io.sagaflow.framework.eventstore.SnapshotStore;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties;
import io.sagaflow.framework.hazelcast.ServiceCluster;
import io.sagaflow.framework.hazelcast.ServiceClusterCustomizer;
import io.sagaflow.framework.projection.ViewCache;
import java.util.UUID;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/** Wires the customer feature: its aggregate repository, view, projection, cache and use cases. */
@Configuration(proxyBeanMethods = false)
public class CustomerConfiguration {

    /** Customers have a handful of events each: loading replays them, snapshots would cost more than they save. */
    private static final int NO_SNAPSHOTS = 0;

    @Bean
    DeciderRepository<CustomerCommand, CustomerState, AccountEvent> customerRepository(
            EventStore events, SnapshotStore snapshots) {
        return new DeciderRepository<>(
                events, snapshots, new Customer(), CustomerState.class, "customer", 1, NO_SNAPSHOTS);
    }

    @Bean
    JdbcCustomerViews customerViews(JdbcTemplate jdbc) {
        return new JdbcCustomerViews(jdbc);
    }

    @Bean
    ServiceClusterCustomizer customerViewCacheLoader(
            SagaflowHazelcastProperties hazelcast, JsonMapper json, JdbcCustomerViews views) {
        return ViewCache.loadThrough(
                AccountHazelcastNames.CUSTOMER_VIEW,
                hazelcast
                        .getMaps()
                        .getOrDefault(
                                AccountHazelcastNames.CUSTOMER_VIEW,
                                hazelcast.getService().getDefaultMap()),
                json,
                id -> views.find(UUID.fromString(id)));
    }

    @Bean
    ViewCache<CustomerView> customerViewCache(@ServiceCluster HazelcastInstance member, JsonMapper json) {
        return new ViewCache<>(member, AccountHazelcastNames.CUSTOMER_VIEW, json, CustomerView.class);
    }

    @Bean
    CustomerViewProjection customerViewProjection(ViewCache<CustomerView> customerViewCache) {
        return new CustomerViewProjection(customerViewCache);
    }

    @Bean
    CustomerService customerService(
            DeciderRepository<CustomerCommand, CustomerState, AccountEvent> customerRepository,
            JdbcTemplate jdbc,
            JdbcCustomerViews customerViews,
            ViewCache<CustomerView> customerViewCache,
            TransactionTemplate transactions) {
        return new CustomerService(
                customerRepository,
                new JdbcEmailClaims(jdbc),
                customerViews,
                customerViewCache,
                transactions,
                TimeOrderedIds::next);
    }
}

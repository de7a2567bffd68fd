package io.sagaflow.payment.payments;

import com.hazelcast.core.HazelcastInstance;
import io.sagaflow.framework.domain.DomainEvent;
import io.sagaflow.framework.eventstore.DeciderRepository;
import io.sagaflow.framework.eventstore.EventStore;
import io.sagaflow.framework.eventstore.SnapshotStore;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties;
import io.sagaflow.framework.hazelcast.ServiceCluster;
import io.sagaflow.framework.hazelcast.ServiceClusterCustomizer;
import io.sagaflow.framework.projection.ViewCache;
import io.sagaflow.payment.PaymentHazelcastNames;
import io.sagaflow.payment.payments.application.PaymentProperties;
import io.sagaflow.payment.payments.application.PaymentView;
import io.sagaflow.payment.payments.application.PaymentViews;
import io.sagaflow.payment.payments.domain.PaymentCommand;
import io.sagaflow.payment.payments.domain.PaymentDecider;
import io.sagaflow.payment.payments.domain.PaymentState;
import java.util.Optional;
import java.util.UUID;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** Wires the payment aggregate's repository and the bounded, load-through cache of the payment view. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PaymentProperties.class)
public class PaymentsConfiguration {

    @Bean
    DeciderRepository<PaymentCommand, PaymentState, DomainEvent> paymentRepository(
            EventStore events, SnapshotStore snapshots) {
        // A payment stream holds at most three events: snapshots would cost more than they save.
        return new DeciderRepository<>(events, snapshots, new PaymentDecider(), PaymentState.class, "payment", 1, 0);
    }

    @Bean
    ViewCache<PaymentView> paymentViewCache(@ServiceCluster HazelcastInstance member, JsonMapper json) {
        return new ViewCache<>(member, PaymentHazelcastNames.PAYMENT_VIEW, json, PaymentView.class);
    }

    @Bean
    ServiceClusterCustomizer paymentViewCacheLoader(
            SagaflowHazelcastProperties hazelcast, JsonMapper json, PaymentViews views) {
        var limits = hazelcast
                .getMaps()
                .getOrDefault(
                        PaymentHazelcastNames.PAYMENT_VIEW,
                        hazelcast.getService().getDefaultMap());
        return ViewCache.loadThrough(PaymentHazelcastNames.PAYMENT_VIEW, limits, json, id -> {
            try {
                return views.find(UUID.fromString(id));
            } catch (IllegalArgumentException notAnId) {
                return Optional.empty();
            }
        });
    }
}

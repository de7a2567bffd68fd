package io.sagaflow.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.eventstore.EventTypeRegistry;
import io.sagaflow.inventory.reservation.adapter.messaging.OrderSagaConsumer;
import org.junit.jupiter.api.Test;

/** Inventory receives only the order events it handles: none skipped, each a delivery saved (ADR 0036). */
class ConsumedTopicsTest {

    private final EventTypeRegistry types = new InventoryEventTypes().eventTypeRegistry();

    @Test
    void theReservationsReceivePlacementsAndReleasesButNotPaymentRequestsOrOutcomes() {
        assertThat(types.skippedBy(OrderSagaConsumer.EVENT_TYPES)).isEmpty();
    }
}

package io.sagaflow.payment;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.eventstore.EventTypeRegistry;
import io.sagaflow.payment.ordersaga.application.OrderSagaParticipant;
import org.junit.jupiter.api.Test;

/** Payment receives only the events it handles: none skipped, each a delivery saved (ADR 0036, ADR 0055). */
class ConsumedTopicsTest {

    private final EventTypeRegistry types = new PaymentEventTypes().eventTypeRegistry();

    @Test
    void theSagaParticipantReceivesReservationsAndRefundRequestsButNotPlacementsReleasesOrOutcomes() {
        assertThat(types.skippedBy(OrderSagaParticipant.EVENT_TYPES)).isEmpty();
    }
}

package io.sagaflow.payment;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.eventstore.EventTypeRegistry;
import io.sagaflow.payment.ordersaga.application.OrderSagaParticipant;
import org.junit.jupiter.api.Test;

/** Payment receives only the order events it handles: none skipped, each a delivery saved (ADR 0036). */
class ConsumedTopicsTest {

    private final EventTypeRegistry types = new PaymentEventTypes().eventTypeRegistry();

    @Test
    void theSagaParticipantReceivesPaymentAndRefundRequestsButNotPlacementsOrOutcomes() {
        assertThat(types.skippedBy(OrderSagaParticipant.EVENT_TYPES)).isEmpty();
    }
}

package io.sagaflow.order;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.eventstore.EventTypeRegistry;
import io.sagaflow.order.catalog.application.CatalogSubscription;
import io.sagaflow.order.fulfilment.application.SagaFeed;
import org.junit.jupiter.api.Test;

/** The order service's consumers receive only events they handle: none skipped, each a delivery saved (ADR 0036). */
class ConsumedTopicsTest {

    private final EventTypeRegistry types = new OrderServiceConfiguration().eventTypeRegistry();

    @Test
    void theSagasReceiveTheirCancellationRequestsAndTheParticipantsAnswersButNoneOfTheOrdersOtherEvents() {
        assertThat(types.skippedBy(SagaFeed.EVENT_TYPES)).isEmpty();
    }

    @Test
    void theCatalogReceivesProductsAndCustomersButNotTheStocksAnswers() {
        assertThat(types.skippedBy(CatalogSubscription.EVENT_TYPES)).isEmpty();
    }
}

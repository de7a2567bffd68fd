package io.sagaflow.order.fulfilment.adapter.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.serialization.impl.SerializationConstants;
import com.hazelcast.map.IMap;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import io.sagaflow.framework.test.hazelcast.HazelcastTestClusters;
import io.sagaflow.order.fulfilment.adapter.hazelcast.SagaJob.InboxItem;
import io.sagaflow.order.fulfilment.application.SagaInboxEntry;
import io.sagaflow.order.fulfilment.domain.SagaMessage;
import io.sagaflow.order.fulfilment.domain.SagaMessage.CancellationRequested;
import io.sagaflow.order.fulfilment.domain.SagaMessage.CompensationRetryRequested;
import io.sagaflow.order.fulfilment.domain.SagaMessage.DeadlineReached;
import io.sagaflow.order.fulfilment.domain.SagaMessage.DiscardRequested;
import io.sagaflow.order.fulfilment.domain.SagaMessage.OrderWasPlaced;
import io.sagaflow.order.fulfilment.domain.SagaMessage.PaymentWasCaptured;
import io.sagaflow.order.fulfilment.domain.SagaMessage.PaymentWasDeclined;
import io.sagaflow.order.fulfilment.domain.SagaMessage.PaymentWasSettled;
import io.sagaflow.order.fulfilment.domain.SagaMessage.StockWasNotReserved;
import io.sagaflow.order.fulfilment.domain.SagaMessage.StockWasReleased;
import io.sagaflow.order.fulfilment.domain.SagaMessage.StockWasReserved;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The saga inbox's keys, entries and job items survive a real member's serialization, in compact form. */
class SagaInboxSerializersIT {

    private static final UUID ORDER = UUID.randomUUID();

    /** One of every message kind, with the awkward values: nanoseconds, a scaled amount, text with non-ASCII. */
    private static final List<SagaMessage> EVERY_KIND = List.of(
            new OrderWasPlaced(ORDER),
            new StockWasReserved(ORDER),
            new StockWasNotReserved(ORDER, "OUT_OF_STOCK", "nur 2 übrig"),
            new StockWasReleased(ORDER),
            new PaymentWasCaptured(ORDER, UUID.randomUUID(), new BigDecimal("1234.50")),
            new PaymentWasDeclined(ORDER, "AMOUNT_ABOVE_LIMIT", "over the limit"),
            new PaymentWasSettled(ORDER, true),
            new PaymentWasSettled(ORDER, false),
            new DeadlineReached(ORDER, Instant.parse("2026-11-23T18:30:00.123456789Z")),
            new CancellationRequested(ORDER, "changed my mind", "customer"),
            new CompensationRetryRequested(ORDER, "ops@example.com"),
            new DiscardRequested(ORDER, "ops@example.com", "written off"));

    private static HazelcastTestClusters clusters;
    private static HazelcastInstance member;

    @BeforeAll
    static void startMember() {
        clusters = new HazelcastTestClusters();
        member = clusters.startMember(clusters.newServiceCluster(), SagaInboxSerializers::register);
    }

    @AfterAll
    static void stopMember() {
        clusters.close();
    }

    @Test
    void everyKindOfMessageIsCovered() {
        assertThat(EVERY_KIND.stream().map(Object::getClass).distinct())
                .containsExactlyInAnyOrderElementsOf(Arrays.asList(SagaMessage.class.getPermittedSubclasses()));
    }

    @Test
    void everyMessageComesBackOutOfTheInboxAsItWentIn() {
        IMap<InboxKey, SagaInboxEntry> inbox = member.getMap(SagaNames.INBOX);
        for (SagaMessage message : EVERY_KIND) {
            InboxKey key = new InboxKey(UUID.randomUUID().toString(), ORDER);
            SagaInboxEntry entry = new SagaInboxEntry(message, "corr-1", "cause-1", "00-abc-def-01", null);
            inbox.put(key, entry);

            assertThat(inbox.get(key)).isEqualTo(entry);
            assertThat(inbox.containsKey(new InboxKey(key.messageId(), ORDER))).isTrue();
        }
    }

    @Test
    void keysEntriesAndJobItemsAreCompactNotJavaSerialized() {
        SerializationService serialization = ((SerializationServiceSupport) member).getSerializationService();
        InboxKey key = new InboxKey("evt-1", ORDER);
        SagaInboxEntry entry = new SagaInboxEntry(new StockWasReserved(ORDER), "c", null, null, null);
        InboxItem item = new InboxItem(key, entry);

        for (Object value : List.of(key, entry, item)) {
            Data data = serialization.toData(value);
            assertThat(data.getType())
                    .as(value.getClass().getSimpleName())
                    .isEqualTo(SerializationConstants.TYPE_COMPACT);
            assertThat((Object) serialization.toObject(data)).isEqualTo(value);
        }
    }
}

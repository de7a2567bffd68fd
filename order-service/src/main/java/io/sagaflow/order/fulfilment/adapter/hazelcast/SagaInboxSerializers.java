package io.sagaflow.order.fulfilment.adapter.hazelcast;

import com.hazelcast.config.Config;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
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
import java.util.List;
import java.util.UUID;

/**
 * Compact serializers of what the saga keeps on the order service's cluster: the inbox's keys and entries, and the
 * Jet job's items. Every message crosses Hazelcast's serialization several times (serialized for the put, deserialized
 * where the job reads the map's journal, its key serialized again for the delete); Java serialization of these records, with its class descriptors and reflection, was a tenth of
 * the order service's CPU under load (ADR 0020).
 *
 * <p>A message is one flat schema: its kind and the union of the variants' fields, each variant writing the ones it
 * has. The switch over the sealed {@link SagaMessage} makes a new variant a compile error here until it is written.
 */
public final class SagaInboxSerializers {

    private SagaInboxSerializers() {}

    /** Registers the serializers with a service member's configuration. */
    public static void register(Config config) {
        List.of(new InboxKeySerializer(), new InboxEntrySerializer(), new InboxItemSerializer())
                .forEach(config.getSerializationConfig().getCompactSerializationConfig()::addSerializer);
    }

    static final class InboxKeySerializer implements CompactSerializer<InboxKey> {

        @Override
        public InboxKey read(CompactReader reader) {
            return new InboxKey(reader.readString("messageId"), readUuid(reader, "order"));
        }

        @Override
        public void write(CompactWriter writer, InboxKey key) {
            writer.writeString("messageId", key.messageId());
            writeUuid(writer, "order", key.orderId());
        }

        @Override
        public String getTypeName() {
            return "sagaflow.order.InboxKey";
        }

        @Override
        public Class<InboxKey> getCompactClass() {
            return InboxKey.class;
        }
    }

    static final class InboxEntrySerializer implements CompactSerializer<SagaInboxEntry> {

        @Override
        public SagaInboxEntry read(CompactReader reader) {
            return new SagaInboxEntry(
                    readMessage(reader),
                    reader.readString("correlationId"),
                    reader.readString("causationId"),
                    reader.readString("traceparent"),
                    reader.readString("tracestate"));
        }

        @Override
        public void write(CompactWriter writer, SagaInboxEntry entry) {
            writeMessage(writer, entry.message());
            writer.writeString("correlationId", entry.correlationId());
            writer.writeString("causationId", entry.causationId());
            writer.writeString("traceparent", entry.traceparent());
            writer.writeString("tracestate", entry.tracestate());
        }

        @Override
        public String getTypeName() {
            return "sagaflow.order.SagaInboxEntry";
        }

        @Override
        public Class<SagaInboxEntry> getCompactClass() {
            return SagaInboxEntry.class;
        }
    }

    static final class InboxItemSerializer implements CompactSerializer<InboxItem> {

        @Override
        public InboxItem read(CompactReader reader) {
            return new InboxItem(reader.readCompact("key"), reader.readCompact("entry"));
        }

        @Override
        public void write(CompactWriter writer, InboxItem item) {
            writer.writeCompact("key", item.key());
            writer.writeCompact("entry", item.entry());
        }

        @Override
        public String getTypeName() {
            return "sagaflow.order.InboxItem";
        }

        @Override
        public Class<InboxItem> getCompactClass() {
            return InboxItem.class;
        }
    }

    /** The fields of every variant; a schema has a fixed set of fields, so each variant leaves the others empty. */
    private static void writeMessage(CompactWriter writer, SagaMessage message) {
        String kind = message.getClass().getSimpleName();
        String code = null;
        String text = null;
        String by = null;
        UUID payment = null;
        BigDecimal amount = null;
        boolean refunded = false;
        Instant deadline = null;
        switch (message) {
            case OrderWasPlaced m -> {}
            case StockWasReserved m -> {}
            case StockWasReleased m -> {}
            case StockWasNotReserved m -> {
                code = m.code();
                text = m.reason();
            }
            case PaymentWasCaptured m -> {
                payment = m.paymentId();
                amount = m.amount();
            }
            case PaymentWasDeclined m -> {
                code = m.code();
                text = m.reason();
            }
            case PaymentWasSettled m -> refunded = m.refunded();
            case DeadlineReached m -> deadline = m.deadline();
            case CancellationRequested m -> {
                text = m.reason();
                by = m.cancelledBy();
            }
            case CompensationRetryRequested m -> by = m.operator();
            case DiscardRequested m -> {
                text = m.reason();
                by = m.operator();
            }
        }
        writer.writeString("kind", kind);
        writeUuid(writer, "order", message.orderId());
        writer.writeString("code", code);
        writer.writeString("text", text);
        writer.writeString("by", by);
        writer.writeString("paymentId", payment == null ? null : payment.toString());
        writer.writeDecimal("amount", amount);
        writer.writeBoolean("refunded", refunded);
        writer.writeInt64("deadlineSeconds", deadline == null ? 0 : deadline.getEpochSecond());
        writer.writeInt32("deadlineNanos", deadline == null ? 0 : deadline.getNano());
    }

    private static SagaMessage readMessage(CompactReader reader) {
        String kind = reader.readString("kind");
        UUID order = readUuid(reader, "order");
        String code = reader.readString("code");
        String text = reader.readString("text");
        String by = reader.readString("by");
        return switch (kind) {
            case "OrderWasPlaced" -> new OrderWasPlaced(order);
            case "StockWasReserved" -> new StockWasReserved(order);
            case "StockWasReleased" -> new StockWasReleased(order);
            case "StockWasNotReserved" -> new StockWasNotReserved(order, code, text);
            case "PaymentWasCaptured" ->
                new PaymentWasCaptured(
                        order, UUID.fromString(reader.readString("paymentId")), reader.readDecimal("amount"));
            case "PaymentWasDeclined" -> new PaymentWasDeclined(order, code, text);
            case "PaymentWasSettled" -> new PaymentWasSettled(order, reader.readBoolean("refunded"));
            case "DeadlineReached" ->
                new DeadlineReached(
                        order,
                        Instant.ofEpochSecond(reader.readInt64("deadlineSeconds"), reader.readInt32("deadlineNanos")));
            case "CancellationRequested" -> new CancellationRequested(order, text, by);
            case "CompensationRetryRequested" -> new CompensationRetryRequested(order, by);
            case "DiscardRequested" -> new DiscardRequested(order, by, text);
            default -> throw new IllegalArgumentException("unknown saga message kind '" + kind + "'");
        };
    }

    private static void writeUuid(CompactWriter writer, String name, UUID uuid) {
        writer.writeInt64(name + "Msb", uuid.getMostSignificantBits());
        writer.writeInt64(name + "Lsb", uuid.getLeastSignificantBits());
    }

    private static UUID readUuid(CompactReader reader, String name) {
        return new UUID(reader.readInt64(name + "Msb"), reader.readInt64(name + "Lsb"));
    }
}

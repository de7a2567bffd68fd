package io.sagaflow.framework.eventstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sagaflow.framework.sample.Counter;
import io.sagaflow.framework.sample.Counter.Incremented;
import io.sagaflow.framework.sample.Counter.Opened;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class EventSerializerTest {

    private final EventSerializer serializer = new EventSerializer(Counter.registry(), new JsonMapper());

    @Test
    void roundTripsAnEventAtItsCurrentVersion() {
        String json = serializer.serialize(new Opened("c", 3));
        assertThat(serializer.deserialize("CounterOpened", 1, json)).isEqualTo(new Opened("c", 3));
    }

    @Test
    void upcastsAnOldSchemaVersionOnRead() {
        assertThat(serializer.deserialize("CounterIncremented", 1, "{\"amount\":4}"))
                .isEqualTo(new Incremented(4));
    }

    @Test
    void refusesAVersionNewerThanItKnows() {
        assertThatThrownBy(() -> serializer.deserialize("CounterIncremented", 3, "{\"by\":1}"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("newer");
    }

    @Test
    void refusesAnUnknownType() {
        assertThatThrownBy(() -> serializer.deserialize("Nope", 1, "{}")).isInstanceOf(UnknownEventTypeException.class);
    }

    @Test
    void aPublishedTypeNamesItsPublisher_aPrivateOneNone() {
        EventTypeRegistry registry = Counter.registry();

        assertThat(registry.get("CounterOpened").publisher()).isEqualTo(Counter.PUBLISHER);
        assertThat(registry.get("CounterOpened").published()).isTrue();
        assertThat(registry.get("CounterLimitReached").publisher()).isNull();
        assertThat(registry.get("CounterLimitReached").published()).isFalse();
    }

    @Test
    void aConsumerSkipsThePublishedTypesThatShareTheTopicsOfWhatItConsumes() {
        EventTypeRegistry registry = EventTypeRegistry.builder()
                .registerPublished("counter", "CounterOpened", Opened.class)
                .registerPublished("counter", "CounterIncremented", Incremented.class)
                .registerPublished("counter-limits", "CounterLimitReached", Counter.LimitReached.class)
                .build();

        assertThat(registry.skippedBy(Set.of(Opened.class))).containsExactly("CounterIncremented");
        assertThat(registry.skippedBy(Set.of(Opened.class, Incremented.class))).isEmpty();
        assertThat(registry.skippedBy(Set.of(Counter.LimitReached.class))).isEmpty();
    }

    @Test
    void registryRejectsAPublisherThatCannotNameATopic() {
        assertThatThrownBy(() -> EventTypeRegistry.builder().registerPublished(null, "CounterOpened", Opened.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a publisher");
        assertThatThrownBy(() -> EventTypeRegistry.builder().registerPublished("Order.Service", "X", Opened.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must match");
    }

    @Test
    void registryRejectsAMissingUpcaster() {
        assertThatThrownBy(() -> EventTypeRegistry.builder()
                        .register("CounterIncremented", Incremented.class, 3, null)
                        .upcast("CounterIncremented", 1, node -> node)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no upcaster from v2");
    }

    @Test
    void registryRejectsOneClassUnderTwoNames() {
        assertThatThrownBy(() ->
                        EventTypeRegistry.builder().register("A", Opened.class).register("B", Opened.class))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

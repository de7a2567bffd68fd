package io.sagaflow.framework.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class DirectCreatorsTest {

    private static final ThreadLocal<List<String>> CREATED_FROM = new ThreadLocal<>();

    private final JsonMapper jackson = new JsonMapper();
    private final JsonMapper direct =
            JsonMapper.builder().addModule(new DirectCreators()).build();

    record Line(UUID productId, int quantity, BigDecimal unitPrice) {}

    record Placed(UUID orderId, List<Line> lines, BigDecimal total, Instant deadline, String note) {}

    record Quantity(int value) {
        Quantity {
            if (value <= 0) {
                throw new IllegalArgumentException("quantity must be positive, was " + value);
            }
        }
    }

    record Probe(String name, long count) {
        Probe {
            CREATED_FROM.set(StackWalker.getInstance()
                    .walk(frames -> frames.map(frame -> frame.getClassName() + "." + frame.getMethodName())
                            .toList()));
        }
    }

    static final class Money {
        final BigDecimal amount;
        final String currency;

        private Money(BigDecimal amount, String currency) {
            this.amount = amount;
            this.currency = currency;
        }

        @JsonCreator
        static Money of(@JsonProperty("amount") BigDecimal amount, @JsonProperty("currency") String currency) {
            return new Money(amount, currency);
        }
    }

    private static final String PLACED = """
            {"orderId":"8d3f1c52-5a0e-4a55-9a61-0f3c1b2d4e5f",
             "lines":[{"productId":"0b6f7c1e-2d3a-4b5c-8d9e-1f2a3b4c5d6e","quantity":2,"unitPrice":"19.90"},
                      {"productId":"5e4d3c2b-1a09-4f8e-9d7c-6b5a49382716","quantity":1,"unitPrice":"5.00"}],
             "total":"44.80","deadline":"2026-11-28T04:00:00Z","note":null}""";

    @Test
    void readsRecordsAndTheirNestedRecordsAsJacksonDoes() {
        Placed read = direct.readValue(PLACED, Placed.class);

        assertThat(read).isEqualTo(jackson.readValue(PLACED, Placed.class));
        assertThat(read.lines()).hasSize(2).first().extracting(Line::quantity).isEqualTo(2);
        assertThat(read.total()).isEqualByComparingTo("44.80");
    }

    @Test
    void readsThroughAStaticFactoryCreator() {
        Money read = direct.readValue("{\"amount\":\"12.50\",\"currency\":\"EUR\"}", Money.class);

        assertThat(read.amount).isEqualByComparingTo("12.50");
        assertThat(read.currency).isEqualTo("EUR");
    }

    @Test
    void callsTheCreatorWithoutInvokeWithArguments() {
        // Jackson's own path, the one this module replaces: it spreads the arguments anew on every value.
        jackson.readValue("{\"name\":\"a\",\"count\":1}", Probe.class);
        assertThat(CREATED_FROM.get()).contains("java.lang.invoke.MethodHandle.invokeWithArguments");

        Probe read = direct.readValue("{\"name\":\"b\",\"count\":2}", Probe.class);
        List<String> readFrom = CREATED_FROM.get();

        assertThat(read).isEqualTo(new Probe("b", 2));
        assertThat(readFrom)
                .doesNotContain("java.lang.invoke.MethodHandle.invokeWithArguments")
                .contains(DirectCreators.class.getName() + "$Direct.createFromObjectWith");
    }

    @Test
    void aCreatorThatRefusesItsArgumentsFailsAsItDoesInJackson() {
        Throwable ours = catchThrowable(() -> direct.readValue("{\"value\":0}", Quantity.class));
        Throwable theirs = catchThrowable(() -> jackson.readValue("{\"value\":0}", Quantity.class));

        assertThat(ours).isNotNull().hasSameClassAs(theirs).hasMessage(theirs.getMessage());
        assertThat(ours.getCause())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("quantity must be positive, was 0");
    }

    @Test
    void missingAndNullArgumentsGetTheDefaultsJacksonGivesThem() {
        String sparse = "{\"orderId\":\"8d3f1c52-5a0e-4a55-9a61-0f3c1b2d4e5f\"}";

        assertThat(direct.readValue(sparse, Placed.class)).isEqualTo(jackson.readValue(sparse, Placed.class));
        assertThat(direct.readValue("{\"count\":3}", Probe.class)).isEqualTo(new Probe(null, 3));
    }
}

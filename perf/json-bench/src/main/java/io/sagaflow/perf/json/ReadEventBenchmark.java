package io.sagaflow.perf.json;

import io.sagaflow.framework.json.DirectCreators;
import io.sagaflow.framework.json.TextWithoutNul;
import io.sagaflow.order.contracts.OrderLine;
import io.sagaflow.order.contracts.OrderPlaced;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the JSON of an {@code OrderPlaced} with two lines, the event every order's saga starts with and inventory
 * reads, into its record: with a plain Jackson mapper, and with the framework's {@link DirectCreators} module, which
 * every service's mapper has, and with that and {@link TextWithoutNul} (which refuses text holding U+0000, ADR 0104),
 * as the services' mapper is now. Three records are created per read (the event and its two lines), one string.
 *
 * <p>{@code ./mvnw -q install -DskipTests -pl perf/json-bench -am && ./mvnw -q -pl perf/json-bench exec:exec}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ReadEventBenchmark {

    private JsonMapper jackson;
    private JsonMapper direct;
    private JsonMapper services;
    private String payload;

    @Setup
    public void setUp() {
        jackson = JsonMapper.builder().build();
        direct = JsonMapper.builder().addModule(new DirectCreators()).build();
        services = JsonMapper.builder()
                .addModule(new DirectCreators())
                .addModule(new TextWithoutNul())
                .build();
        payload = jackson.writeValueAsString(new OrderPlaced(
                UUID.randomUUID(),
                UUID.randomUUID(),
                List.of(
                        new OrderLine(UUID.randomUUID(), 2, new BigDecimal("19.90")),
                        new OrderLine(UUID.randomUUID(), 1, new BigDecimal("5.00"))),
                new BigDecimal("44.80"),
                new BigDecimal("8.51"),
                new BigDecimal("53.31"),
                "1 Main Street, Springfield",
                Instant.parse("2026-11-28T04:00:00Z")));
        if (!direct.readValue(payload, OrderPlaced.class).equals(jackson.readValue(payload, OrderPlaced.class))
                || !services.readValue(payload, OrderPlaced.class)
                        .equals(jackson.readValue(payload, OrderPlaced.class))) {
            throw new IllegalStateException("the two mappers read different events");
        }
    }

    @Benchmark
    public OrderPlaced jackson() {
        return jackson.readValue(payload, OrderPlaced.class);
    }

    @Benchmark
    public OrderPlaced directCreators() {
        return direct.readValue(payload, OrderPlaced.class);
    }

    @Benchmark
    public OrderPlaced directCreatorsAndTextWithoutNul() {
        return services.readValue(payload, OrderPlaced.class);
    }
}

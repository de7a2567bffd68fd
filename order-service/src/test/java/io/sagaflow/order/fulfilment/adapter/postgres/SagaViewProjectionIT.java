package io.sagaflow.order.fulfilment.adapter.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.GlobalPosition;
import io.sagaflow.framework.projection.ViewCache;
import io.sagaflow.framework.projection.ViewWrites;
import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.order.contracts.OrderConfirmed;
import io.sagaflow.order.contracts.OrderPlaced;
import io.sagaflow.order.contracts.PaymentRequested;
import io.sagaflow.order.fulfilment.application.SagaView;
import io.sagaflow.order.fulfilment.domain.SagaFact.CompensationStarted;
import io.sagaflow.order.fulfilment.domain.SagaFact.PaymentCaptureConfirmed;
import io.sagaflow.order.fulfilment.domain.SagaFact.PaymentRejected;
import io.sagaflow.order.fulfilment.domain.SagaFact.StockReservationConfirmed;
import io.sagaflow.order.fulfilment.domain.SagaFact.StockReservationRejected;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.PreparedStatementCreator;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The saga view changes the rows it wrote without reading them back (ADR 0053), and writes exactly what a projection
 * that reads every row writes: after another replica moved the saga on, after a step rolled back, and with rows
 * evicted. Each projection here plays one replica; the events are made up, not appended, so only {@code saga_view}
 * sees them (and the test deletes its rows).
 */
@SagaflowIntegrationTest
class SagaViewProjectionIT {

    @Autowired
    DataSource dataSource;

    @Autowired
    PlatformTransactionManager transactionManager;

    @Autowired
    JsonMapper json;

    @Autowired
    ViewCache<SagaView> views;

    private final List<UUID> sagas = new ArrayList<>();
    /** Every saga's events happen at the same times, by version, so that two sagas' rows compare whole. */
    private final Instant start = Instant.now().truncatedTo(ChronoUnit.MICROS);

    @AfterEach
    void deleteRows() {
        new JdbcTemplate(dataSource)
                .update("delete from saga_view where saga_id = any(?::uuid[])", (Object) sagas.toArray(UUID[]::new));
    }

    @Test
    void aSagaStepChangesTheRowItWroteWithoutReadingItBack_andWritesWhatAReadingProjectionWrites() {
        CountingJdbc jdbc = new CountingJdbc(dataSource);
        SagaViewProjection keeping = new SagaViewProjection(json, views);
        SagaViewProjection reading = new SagaViewProjection(json, views, 0);
        UUID kept = saga();
        UUID read = saga();

        for (UUID saga : List.of(kept, read)) {
            SagaViewProjection projection = saga.equals(kept) ? keeping : reading;
            commit(projection, jdbc, event(saga, 1, placed(saga)));
            commit(
                    projection,
                    jdbc,
                    event(saga, 2, new StockReservationConfirmed(saga)),
                    event(saga, 3, new PaymentRequested(saga, UUID.randomUUID(), BigDecimal.TEN)));
            // An append the view does not show moves the kept version on all the same.
            commit(projection, jdbc, event(saga, 4, new PaymentRequested(saga, UUID.randomUUID(), BigDecimal.ONE)));
            commit(
                    projection,
                    jdbc,
                    event(saga, 5, new PaymentCaptureConfirmed(saga, UUID.randomUUID(), BigDecimal.TEN)));
            if (saga.equals(kept)) {
                assertThat(jdbc.reads)
                        .as("no read of a row this projection wrote")
                        .hasValue(0);
                assertThat(keeping.keptRows()).isEqualTo(1);
            }
        }
        assertThat(jdbc.reads)
                .as("the reading projection reads each row it changes")
                .hasValue(2);
        assertThat(row(kept)).isEqualTo(row(read)).containsEntry("status", "CHARGING_PAYMENT");

        commit(keeping, jdbc, event(kept, 6, new OrderConfirmed(kept)));
        commit(reading, jdbc, event(read, 6, new OrderConfirmed(read)));
        assertThat(row(kept)).isEqualTo(row(read)).containsEntry("status", "CONFIRMED");
        assertThat(keeping.keptRows()).as("an ended saga's row is not kept").isZero();
    }

    @Test
    void aRowAnotherReplicaMovedOnIsReadAgain() {
        CountingJdbc jdbc = new CountingJdbc(dataSource);
        SagaViewProjection first = new SagaViewProjection(json, views);
        SagaViewProjection second = new SagaViewProjection(json, views);
        SagaViewProjection reading = new SagaViewProjection(json, views, 0);
        UUID moved = saga();
        UUID read = saga();
        commit(first, jdbc, event(moved, 1, placed(moved)));
        commit(first, jdbc, event(moved, 2, new StockReservationConfirmed(moved)));
        commit(second, jdbc, event(moved, 3, new PaymentRejected(moved, "DECLINED", "card declined")));
        commit(first, jdbc, event(moved, 4, compensation(moved)));
        assertThat(jdbc.reads)
                .as("the second replica's read, then the first one's")
                .hasValue(2);

        for (EventEnvelope<Object> event : List.of(
                event(read, 1, placed(read)),
                event(read, 2, new StockReservationConfirmed(read)),
                event(read, 3, new PaymentRejected(read, "DECLINED", "card declined")),
                event(read, 4, compensation(read)))) {
            commit(reading, jdbc, event);
        }
        assertThat(row(moved)).isEqualTo(row(read)).containsEntry("status", "COMPENSATING");
        assertThat((String) row(moved).get("steps")).contains("\"status\": \"FAILED\"", "card declined");
    }

    @Test
    void aRolledBackStepLeavesTheKeptRowAsTheTableHasIt() {
        CountingJdbc jdbc = new CountingJdbc(dataSource);
        SagaViewProjection projection = new SagaViewProjection(json, views);
        UUID saga = saga();
        commit(projection, jdbc, event(saga, 1, placed(saga)));

        new TransactionTemplate(transactionManager).executeWithoutResult(status -> {
            ViewWrites writes = new ViewWrites(jdbc);
            projection.applyAll(List.of(event(saga, 2, new StockReservationConfirmed(saga))), writes);
            writes.flush();
            status.setRollbackOnly();
        });
        commit(projection, jdbc, event(saga, 2, new StockReservationRejected(saga, "INSUFFICIENT_STOCK", "none")));

        assertThat(jdbc.reads).hasValue(0);
        Map<String, Object> row = row(saga);
        assertThat((String) row.get("steps"))
                .contains("RESERVE_STOCK", "\"status\": \"FAILED\"")
                .doesNotContain("CHARGE_PAYMENT");
        assertThat(row).containsEntry("current_step", "RESERVE_STOCK");
    }

    @Test
    void aFullProjectionKeepsNoMoreRowsThanItsLimit_andReadsTheOthers() {
        CountingJdbc jdbc = new CountingJdbc(dataSource);
        SagaViewProjection projection = new SagaViewProjection(json, views, 1);
        UUID one = saga();
        UUID two = saga();
        commit(projection, jdbc, event(one, 1, placed(one)), event(two, 1, placed(two)));
        assertThat(projection.keptRows()).isEqualTo(1);

        commit(
                projection,
                jdbc,
                event(one, 2, new StockReservationConfirmed(one)),
                event(two, 2, new StockReservationConfirmed(two)));

        assertThat(jdbc.reads).as("one of the two rows was read").hasValue(1);
        assertThat(row(one)).containsEntry("status", "CHARGING_PAYMENT");
        assertThat(row(two)).containsEntry("status", "CHARGING_PAYMENT");
        assertThat(projection.keptRows()).isEqualTo(1);
    }

    private UUID saga() {
        UUID saga = UUID.randomUUID();
        sagas.add(saga);
        return saga;
    }

    @SafeVarargs
    private void commit(SagaViewProjection projection, JdbcTemplate jdbc, EventEnvelope<Object>... events) {
        new TransactionTemplate(transactionManager).executeWithoutResult(status -> {
            ViewWrites writes = new ViewWrites(jdbc);
            projection.applyAll(List.of(events), writes);
            writes.flush();
        });
    }

    private EventEnvelope<Object> event(UUID saga, long version, Object payload) {
        return new EventEnvelope<>(
                UUID.randomUUID(),
                "order-" + saga,
                version,
                new GlobalPosition(0, version),
                payload.getClass().getSimpleName(),
                1,
                start.plusMillis(3 * version),
                null,
                null,
                null,
                null,
                payload);
    }

    private OrderPlaced placed(UUID saga) {
        return new OrderPlaced(
                saga,
                UUID.randomUUID(),
                List.of(),
                BigDecimal.TEN,
                BigDecimal.ZERO,
                BigDecimal.TEN,
                "Test Street 1",
                start.plusSeconds(30));
    }

    private CompensationStarted compensation(UUID saga) {
        return new CompensationStarted(saga, "DECLINED", "card declined", "saga", true, false, start.plusSeconds(10));
    }

    /** The row without its saga id. */
    private Map<String, Object> row(UUID saga) {
        return new JdbcTemplate(dataSource)
                .queryForMap(
                        "select status, current_step, steps::text as steps, started_at, completed_at, deadline,"
                                + " failure_reason, updated_at from saga_view where saga_id = ?",
                        saga);
    }

    /** Counts the statements that read {@code saga_view} rows to change them. */
    private static final class CountingJdbc extends JdbcTemplate {

        final AtomicInteger reads = new AtomicInteger();

        CountingJdbc(DataSource dataSource) {
            super(dataSource);
        }

        @Override
        public void query(String sql, RowCallbackHandler handler, Object... args) {
            if (sql.contains("from saga_view")) {
                reads.incrementAndGet();
            }
            super.query(sql, handler, args);
        }

        @Override
        public void query(PreparedStatementCreator creator, RowCallbackHandler handler) {
            reads.incrementAndGet();
            super.query(creator, handler);
        }
    }
}

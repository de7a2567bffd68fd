package io.sagaflow.order.fulfilment.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sagaflow.order.fulfilment.application.InvariantAudit.AuditedOrder;
import io.sagaflow.order.fulfilment.application.InvariantAudit.Findings;
import io.sagaflow.order.fulfilment.application.InvariantAudit.OrderMoney;
import io.sagaflow.order.fulfilment.application.InvariantAudit.Pages;
import io.sagaflow.order.fulfilment.application.InvariantAudit.Reservation;
import io.sagaflow.order.fulfilment.application.InvariantAudit.Stock;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InvariantAuditTest {

    private static final UUID P1 = UUID.randomUUID();
    private static final UUID P2 = UUID.randomUUID();
    private static final UUID P3 = UUID.randomUUID();
    private static final UUID P4 = UUID.randomUUID();
    private static final Stock STOCK = new Stock(true, List.of(P1, P2, P3, P4));

    // Ids on both sides of the sign bit: UUID.compareTo would put o4 to u2 before o1, PostgreSQL puts them after.
    private final UUID o1 = id(0);
    private final UUID o2 = id(1);
    private final UUID u1 = id(2);
    private final UUID o3 = id(3);
    private final UUID o4 = id(4);
    private final UUID o5 = id(5);
    private final UUID o6 = id(6);
    private final UUID u2 = id(7);

    private final FakePages<AuditedOrder> orders = new FakePages<>(
            List.of(
                    order(o6, "CONFIRMED", "9.00", Map.of(P2, 1, P4, 2)),
                    order(o1, "CONFIRMED", "20.00", Map.of(P1, 2)),
                    order(o2, "CANCELLED", "10.00", Map.of(P1, 1)),
                    order(o3, "CONFIRMED", "15.00", Map.of(P2, 3)),
                    order(o4, "PENDING", "5.00", Map.of(P3, 1)),
                    order(o5, "CANCELLED", "7.00", Map.of(P2, 1))),
            AuditedOrder::orderId);
    private final FakePages<Reservation> reservations = new FakePages<>(
            List.of(
                    new Reservation(o1, P1, 2),
                    new Reservation(o2, P1, 1),
                    new Reservation(u1, P2, 4),
                    new Reservation(o3, P2, 3),
                    new Reservation(o4, P3, 1),
                    new Reservation(o6, P2, 1),
                    new Reservation(o6, P4, 2),
                    new Reservation(u2, P1, 8)),
            Reservation::orderId);
    private final FakePages<OrderMoney> payments = new FakePages<>(
            List.of(
                    money(o1, "20.00", "0.00"),
                    money(o2, "10.00", "10.00"),
                    money(u1, "100.00", "0.00"),
                    money(o5, "7.00", "0.00"),
                    money(o6, "9.00", "0.00"),
                    money(u2, "1.00", "0.00")),
            OrderMoney::orderId);

    @ParameterizedTest(name = "page size {0}")
    @ValueSource(ints = {1, 2, 3, 1000})
    void givenOrdersStockAndMoneyOverManyPages_whenAudited_thenEveryBrokenInvariantIsFoundOnce(int pageSize) {
        Findings findings = new InvariantAudit(orders, reservations, payments, pageSize).check(0, Optional.of(STOCK));

        assertThat(findings.violations())
                .containsExactlyInAnyOrder(
                        "cancelled order " + o2 + " still holds 1 of product " + P1,
                        "order " + o3 + " (CONFIRMED) has 0 charged, expected 15.00",
                        "order " + o5 + " (CANCELLED) has 7.00 charged, expected 0",
                        "product " + P1 + ": reserved for orders 3, confirmed orders hold 2");
        assertThat(findings.violationCount()).isEqualTo(4);
        assertThat(findings.consistent()).isFalse();
        assertThat(findings.ordersChecked()).isEqualTo(6);
        for (FakePages<?> stream : List.of(orders, reservations, payments)) {
            assertThat(stream.largestPage).isLessThanOrEqualTo(pageSize);
        }
    }

    @Test
    void givenEveryPageAfterTheLastOrderOfTheOneBefore_thenEachStreamIsReadOnceInOrder() {
        new InvariantAudit(orders, reservations, payments, 2).check(0, Optional.of(STOCK));

        assertThat(orders.asked).containsExactly(Optional.empty(), Optional.of(o2), Optional.of(o4), Optional.of(o6));
        // Inventory's pages: {o1, o2}, {u1, o3}, {o4, o6 twice}, {u2}; payment's: {o1, o2}, {u1, o5}, {o6, u2}. No
        // stream is read past the page holding the last order.
        assertThat(reservations.asked)
                .containsExactly(Optional.empty(), Optional.of(o2), Optional.of(o3), Optional.of(o6));
        assertThat(payments.asked).containsExactly(Optional.empty(), Optional.of(o2), Optional.of(o5));
    }

    @Test
    void givenEverythingInBalance_thenTheAuditIsConsistent() {
        FakePages<AuditedOrder> balanced = new FakePages<>(
                List.of(order(o1, "CONFIRMED", "20.00", Map.of(P1, 2)), order(o2, "CANCELLED", "10.00", Map.of(P1, 1))),
                AuditedOrder::orderId);
        FakePages<Reservation> held = new FakePages<>(List.of(new Reservation(o1, P1, 2)), Reservation::orderId);
        FakePages<OrderMoney> paid =
                new FakePages<>(List.of(money(o1, "20.00", "0.00"), money(o2, "10.00", "10.00")), OrderMoney::orderId);

        Findings findings = new InvariantAudit(balanced, held, paid, 1).check(0, Optional.of(STOCK));

        assertThat(findings.violations()).isEmpty();
        assertThat(findings.consistent()).isTrue();
        assertThat(findings.ordersChecked()).isEqualTo(2);
    }

    @Test
    void givenRunningSagasAndInventoryInconsistent_thenBothAreReportedFirst() {
        Findings findings = new InvariantAudit(orders, reservations, payments, 2)
                .check(3, Optional.of(new Stock(false, STOCK.productIds())));

        assertThat(findings.violations())
                .startsWith("3 sagas are not terminal", "inventory reports its own stock inconsistent");
        assertThat(findings.violationCount()).isEqualTo(6);
    }

    @Test
    void givenNoStockFigures_thenInventoryIsReportedAndNoReservationIsRead() {
        Findings findings = new InvariantAudit(orders, reservations, payments, 2).check(0, Optional.empty());

        assertThat(findings.violations())
                .containsExactlyInAnyOrder(
                        "inventory reports its own stock inconsistent",
                        "order " + o3 + " (CONFIRMED) has 0 charged, expected 15.00",
                        "order " + o5 + " (CANCELLED) has 7.00 charged, expected 0");
        assertThat(reservations.asked).isEmpty();
    }

    @Test
    void givenMoreThanAHundredViolations_thenTheFirstHundredAreListedAndAllCounted() {
        List<AuditedOrder> cancelled = new ArrayList<>();
        List<OrderMoney> charged = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            UUID order = UUID.randomUUID();
            cancelled.add(order(order, "CANCELLED", "1.00", Map.of(P1, 1)));
            charged.add(money(order, "1.00", "0.00"));
        }

        Findings findings = new InvariantAudit(
                        new FakePages<>(cancelled, AuditedOrder::orderId),
                        new FakePages<>(List.of(), Reservation::orderId),
                        new FakePages<>(charged, OrderMoney::orderId),
                        7)
                .check(0, Optional.of(STOCK));

        assertThat(findings.violations()).hasSize(InvariantAudit.LISTED_VIOLATIONS);
        assertThat(findings.violationCount()).isEqualTo(150);
        assertThat(findings.ordersChecked()).isEqualTo(150);
        assertThat(findings.consistent()).isFalse();
    }

    @Test
    void givenAParticipantThatIgnoresAfter_thenTheAuditFailsInsteadOfLooping() {
        Pages<OrderMoney> stuck = (after, limit) -> List.of(money(o1, "20.00", "0.00"));

        InvariantAudit audit = new InvariantAudit(orders, reservations, stuck, 2);

        assertThatThrownBy(() -> audit.check(0, Optional.of(STOCK)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not sorted by order id after " + o1);
    }

    private static UUID id(int n) {
        return new UUID(n * 0x2000_0000_0000_0000L + 17, n);
    }

    private static AuditedOrder order(UUID id, String status, String total, Map<UUID, Integer> lines) {
        return new AuditedOrder(id, status, new BigDecimal(total), lines);
    }

    private static OrderMoney money(UUID order, String captured, String refunded) {
        return new OrderMoney(order, new BigDecimal(captured), new BigDecimal(refunded));
    }

    /** A stream sorted by order id as PostgreSQL sorts it, paged as the participants page it: whole orders. */
    private static final class FakePages<T> implements Pages<T> {

        private final List<T> items;
        private final Function<T, UUID> orderIdOf;
        private final List<Optional<UUID>> asked = new ArrayList<>();
        private int largestPage;

        FakePages(List<T> items, Function<T, UUID> orderIdOf) {
            this.items = new ArrayList<>(items);
            this.items.sort(Comparator.comparing(orderIdOf, UuidOrder.POSTGRES));
            this.orderIdOf = orderIdOf;
        }

        @Override
        public List<T> page(Optional<UUID> after, int limit) {
            asked.add(after);
            List<T> page = new ArrayList<>();
            Set<UUID> ordersOfPage = new LinkedHashSet<>();
            for (T item : items) {
                UUID id = orderIdOf.apply(item);
                if (after.isPresent() && UuidOrder.POSTGRES.compare(id, after.get()) <= 0) {
                    continue;
                }
                if (!ordersOfPage.contains(id) && ordersOfPage.size() == limit) {
                    break;
                }
                ordersOfPage.add(id);
                page.add(item);
            }
            largestPage = Math.max(largestPage, ordersOfPage.size());
            return page;
        }
    }
}

package io.sagaflow.order.fulfilment.application;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The system's invariants, checked by merging three streams sorted by order id — the order service's orders,
 * inventory's active reservations and payment's money per order — read a page at a time, so memory grows with the
 * page size and the number of products, never with the number of orders.
 *
 * <ul>
 *   <li>every saga is terminal (CONFIRMED, CANCELLED or quarantined);
 *   <li>inventory is self-consistent, and for every product the quantity reserved for orders equals what the
 *       confirmed orders hold of it (unless a pending order contains it); a cancelled order holds no stock;
 *   <li>for every order but a pending one, captured minus refunded equals its total if confirmed, and zero otherwise.
 * </ul>
 *
 * Reservations and payments of orders this service never saw (made directly through the participants' APIs) are left
 * out. Every stream must be sorted by {@link UuidOrder#POSTGRES}, the order PostgreSQL gives {@code uuid} columns.
 */
public final class InvariantAudit {

    /** How many violations the findings list; the rest are only counted. */
    public static final int LISTED_VIOLATIONS = 100;

    /**
     * One page of a stream sorted by order id ({@link UuidOrder#POSTGRES}).
     *
     * @param <T> the stream's items
     */
    @FunctionalInterface
    public interface Pages<T> {

        /**
         * The items of the first {@code limit} orders whose id is greater than {@code after} (from the first order when
         * it is empty), every item of each of those orders; an empty list past the last.
         */
        List<T> page(Optional<UUID> after, int limit);
    }

    /**
     * An order as the order service holds it.
     *
     * @param lines units per product
     */
    public record AuditedOrder(UUID orderId, String status, BigDecimal total, Map<UUID, Integer> lines) {}

    /**
     * Inventory's own verdict on its stock and the products it holds.
     *
     * @param consistent whether every product's reserved units match its reservations and lie within its stock
     * @param productIds every product, in id order
     */
    public record Stock(boolean consistent, List<UUID> productIds) {}

    /** Units of a product an order holds (an active reservation). */
    public record Reservation(UUID orderId, UUID productId, int quantity) {}

    /** Money the payment service holds for an order. */
    public record OrderMoney(UUID orderId, BigDecimal captured, BigDecimal refunded) {}

    /**
     * The audit's outcome.
     *
     * @param violations the first {@value #LISTED_VIOLATIONS} violations
     * @param violationCount how many there are in all
     * @param ordersChecked how many orders were checked
     */
    public record Findings(List<String> violations, long violationCount, long ordersChecked) {

        public boolean consistent() {
            return violationCount == 0;
        }
    }

    private static final String PENDING = "PENDING";
    private static final String CONFIRMED = "CONFIRMED";
    private static final String CANCELLED = "CANCELLED";

    private final Pages<AuditedOrder> orders;
    private final Pages<Reservation> reservations;
    private final Pages<OrderMoney> payments;
    private final int pageSize;

    public InvariantAudit(
            Pages<AuditedOrder> orders, Pages<Reservation> reservations, Pages<OrderMoney> payments, int pageSize) {
        if (pageSize < 1) {
            throw new IllegalArgumentException("page size must be positive: " + pageSize);
        }
        this.orders = orders;
        this.reservations = reservations;
        this.payments = payments;
        this.pageSize = pageSize;
    }

    /**
     * Checks the invariants.
     *
     * @param nonTerminalSagas how many sagas have not ended
     * @param stock inventory's stock figures, empty if it gave none (then no reservation is checked)
     */
    public Findings check(long nonTerminalSagas, Optional<Stock> stock) {
        Violations violations = new Violations();
        if (nonTerminalSagas > 0) {
            violations.add(nonTerminalSagas + " sagas are not terminal");
        }
        if (stock.isEmpty() || !stock.get().consistent()) {
            violations.add("inventory reports its own stock inconsistent");
        }

        // Per product only: what confirmed orders hold, what is reserved for known orders, whether a pending order
        // contains it.
        Map<UUID, Integer> heldByConfirmed = new HashMap<>();
        Map<UUID, Integer> reservedForKnownOrders = new HashMap<>();
        Set<UUID> inPendingOrders = new HashSet<>();

        Cursor<AuditedOrder> orderCursor = new Cursor<>(orders, AuditedOrder::orderId, pageSize);
        Cursor<Reservation> reservationCursor =
                stock.isPresent() ? new Cursor<>(reservations, Reservation::orderId, pageSize) : null;
        Cursor<OrderMoney> moneyCursor = new Cursor<>(payments, OrderMoney::orderId, pageSize);
        long checked = 0;
        for (AuditedOrder order = orderCursor.peek(); order != null; order = orderCursor.advance()) {
            checked++;
            UUID orderId = order.orderId();
            if (CONFIRMED.equals(order.status())) {
                order.lines().forEach((product, qty) -> heldByConfirmed.merge(product, qty, Integer::sum));
            } else if (PENDING.equals(order.status())) {
                inPendingOrders.addAll(order.lines().keySet());
            }

            if (reservationCursor != null) {
                for (Reservation reservation = reservationCursor.skipTo(orderId);
                        reservation != null && reservation.orderId().equals(orderId);
                        reservation = reservationCursor.advance()) {
                    reservedForKnownOrders.merge(reservation.productId(), reservation.quantity(), Integer::sum);
                    if (CANCELLED.equals(order.status())) {
                        violations.add("cancelled order " + orderId + " still holds " + reservation.quantity()
                                + " of product " + reservation.productId());
                    }
                }
            }

            BigDecimal charged = BigDecimal.ZERO;
            OrderMoney money = moneyCursor.skipTo(orderId);
            if (money != null && money.orderId().equals(orderId)) {
                charged = money.captured().subtract(money.refunded());
                moneyCursor.advance();
            }
            BigDecimal expected = CONFIRMED.equals(order.status()) ? order.total() : BigDecimal.ZERO;
            if (!PENDING.equals(order.status()) && charged.compareTo(expected) != 0) {
                violations.add("order " + orderId + " (" + order.status() + ") has " + charged + " charged, expected "
                        + expected);
            }
        }

        if (stock.isPresent()) {
            for (UUID product : stock.get().productIds()) {
                int reserved = reservedForKnownOrders.getOrDefault(product, 0);
                int expected = heldByConfirmed.getOrDefault(product, 0);
                if (!inPendingOrders.contains(product) && reserved != expected) {
                    violations.add("product " + product + ": reserved for orders " + reserved
                            + ", confirmed orders hold " + expected);
                }
            }
        }
        return new Findings(List.copyOf(violations.listed), violations.count, checked);
    }

    /** The first violations, and how many there are. */
    private static final class Violations {

        private final List<String> listed = new ArrayList<>();
        private long count;

        void add(String violation) {
            count++;
            if (listed.size() < LISTED_VIOLATIONS) {
                listed.add(violation);
            }
        }
    }

    /** Walks a paged stream sorted by order id, holding one page; each next page starts after the last order seen. */
    private static final class Cursor<T> {

        private final Pages<T> pages;
        private final Function<T, UUID> orderIdOf;
        private final int limit;
        private List<T> page = List.of();
        private int next;
        private Optional<UUID> after = Optional.empty();
        private boolean exhausted;

        Cursor(Pages<T> pages, Function<T, UUID> orderIdOf, int limit) {
            this.pages = pages;
            this.orderIdOf = orderIdOf;
            this.limit = limit;
        }

        /** The current item, or null past the last. */
        T peek() {
            if (next == page.size() && !exhausted) {
                fetch();
            }
            return next < page.size() ? page.get(next) : null;
        }

        /** Moves to the next item and returns it, or null past the last. */
        T advance() {
            next++;
            return peek();
        }

        /** Moves past the items of orders before {@code orderId} and returns the first one not before it, or null. */
        T skipTo(UUID orderId) {
            T item = peek();
            while (item != null && UuidOrder.POSTGRES.compare(orderIdOf.apply(item), orderId) < 0) {
                item = advance();
            }
            return item;
        }

        private void fetch() {
            List<T> fetched = pages.page(after, limit);
            // A page out of order, or one that does not move past the last, would make the merge wrong or endless.
            UUID previous = after.orElse(null);
            boolean first = true;
            for (T item : fetched) {
                UUID id = orderIdOf.apply(item);
                if (previous != null) {
                    int order = UuidOrder.POSTGRES.compare(id, previous);
                    if (order < 0 || (order == 0 && first)) {
                        throw new IllegalStateException("a page is not sorted by order id after "
                                + after.map(UUID::toString).orElse("the start"));
                    }
                }
                previous = id;
                first = false;
            }
            page = fetched;
            next = 0;
            if (fetched.isEmpty()) {
                exhausted = true;
            } else {
                after = Optional.of(orderIdOf.apply(fetched.getLast()));
            }
        }
    }
}

package io.sagaflow.order.fulfilment.adapter.web;

import io.sagaflow.order.fulfilment.adapter.postgres.SagaQueries;
import io.sagaflow.order.fulfilment.adapter.postgres.SagaQueries.StatusCount;
import io.sagaflow.order.fulfilment.domain.SagaStatus;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /api/admin/audit}: the system's invariants, checked against the order service's orders, inventory's
 * reservations and payment's charges — after a test, a load run or an incident.
 *
 * <ul>
 *   <li>every saga is terminal (CONFIRMED, CANCELLED or quarantined);
 *   <li>inventory is self-consistent, and for every product the quantity reserved for orders equals what the
 *       confirmed orders hold of it; a cancelled order holds no stock;
 *   <li>for every order, captured minus refunded equals its total if confirmed, and zero otherwise.
 * </ul>
 *
 * Reservations and payments made directly through the participants' APIs, for orders this service never saw, are
 * left out.
 */
@RestController
@Tag(name = "Saga operations")
public class AuditController {

    /** The audit's outcome; {@code violations} lists at most the first 100. */
    public record Audit(
            boolean consistent,
            Instant checkedAt,
            Map<String, Long> sagasByStatus,
            long nonTerminalSagas,
            long ordersChecked,
            List<String> violations) {}

    private record OrderRow(UUID orderId, String status, BigDecimal total, Map<UUID, Integer> lines) {}

    private record StockAudit(List<ProductStock> products, boolean consistent) {}

    private record ProductStock(
            UUID productId, int quantityOnHand, int quantityReserved, Map<UUID, Integer> reservedByOrder) {}

    private record PaymentAudit(List<OrderPayments> orders) {}

    private record OrderPayments(UUID orderId, BigDecimal captured, BigDecimal refunded) {}

    private static final TypeReference<List<Map<String, Object>>> LINES = new TypeReference<>() {};

    private final JdbcTemplate jdbc;
    private final JsonMapper json;
    private final SagaQueries sagas;
    private final RestClient inventory;
    private final RestClient payment;

    public AuditController(
            JdbcTemplate jdbc, JsonMapper json, SagaQueries sagas, String inventoryUrl, String paymentUrl) {
        this.jdbc = jdbc;
        this.json = json;
        this.sagas = sagas;
        this.inventory = RestClient.create(inventoryUrl);
        this.payment = RestClient.create(paymentUrl);
    }

    @GetMapping("/api/admin/audit")
    @Operation(summary = "Check the invariants across orders, stock and payments")
    public Audit audit() {
        List<String> violations = new ArrayList<>();
        Map<String, Long> byStatus = new HashMap<>();
        for (StatusCount count : sagas.countByStatus()) {
            byStatus.put(count.status(), count.count());
        }
        long nonTerminal = byStatus.entrySet().stream()
                .filter(e -> !SagaStatus.valueOf(e.getKey()).isTerminal())
                .mapToLong(Map.Entry::getValue)
                .sum();
        if (nonTerminal > 0) {
            violations.add(nonTerminal + " sagas are not terminal");
        }

        Map<UUID, OrderRow> orders = new HashMap<>();
        jdbc.query("select order_id, status, total, line_items::text from order_view", rs -> {
            Map<UUID, Integer> lines = new HashMap<>();
            for (Map<String, Object> line : json.readValue(rs.getString(4), LINES)) {
                lines.merge(
                        UUID.fromString((String) line.get("productId")),
                        ((Number) line.get("quantity")).intValue(),
                        Integer::sum);
            }
            UUID id = rs.getObject(1, UUID.class);
            orders.put(id, new OrderRow(id, rs.getString(2), rs.getBigDecimal(3), lines));
        });

        StockAudit stock =
                inventory.get().uri("/api/admin/audit/stock").retrieve().body(StockAudit.class);
        if (stock == null || !stock.consistent()) {
            violations.add("inventory reports its own stock inconsistent");
        }
        Map<UUID, Integer> heldByConfirmed = new HashMap<>();
        orders.values().stream()
                .filter(o -> "CONFIRMED".equals(o.status()))
                .forEach(o -> o.lines().forEach((product, qty) -> heldByConfirmed.merge(product, qty, Integer::sum)));
        if (stock != null) {
            for (ProductStock product : stock.products()) {
                int reservedForKnownOrders = 0;
                for (Map.Entry<UUID, Integer> reservation :
                        product.reservedByOrder().entrySet()) {
                    OrderRow order = orders.get(reservation.getKey());
                    if (order == null) {
                        continue;
                    }
                    reservedForKnownOrders += reservation.getValue();
                    if ("CANCELLED".equals(order.status())) {
                        violations.add("cancelled order " + order.orderId() + " still holds " + reservation.getValue()
                                + " of product " + product.productId());
                    }
                }
                int expected = heldByConfirmed.getOrDefault(product.productId(), 0);
                long pending = orders.values().stream()
                        .filter(o -> "PENDING".equals(o.status()))
                        .filter(o -> o.lines().containsKey(product.productId()))
                        .count();
                if (pending == 0 && reservedForKnownOrders != expected) {
                    violations.add("product " + product.productId() + ": reserved for orders " + reservedForKnownOrders
                            + ", confirmed orders hold " + expected);
                }
            }
        }

        PaymentAudit payments =
                payment.get().uri("/api/admin/audit/payments").retrieve().body(PaymentAudit.class);
        Map<UUID, BigDecimal> net = new HashMap<>();
        if (payments != null) {
            payments.orders().forEach(p -> net.put(p.orderId(), p.captured().subtract(p.refunded())));
        }
        for (OrderRow order : orders.values()) {
            BigDecimal charged = net.getOrDefault(order.orderId(), BigDecimal.ZERO);
            BigDecimal expected = "CONFIRMED".equals(order.status()) ? order.total() : BigDecimal.ZERO;
            if (!"PENDING".equals(order.status()) && charged.compareTo(expected) != 0) {
                violations.add("order " + order.orderId() + " (" + order.status() + ") has " + charged
                        + " charged, expected " + expected);
            }
        }
        return new Audit(
                violations.isEmpty(),
                Instant.now(),
                byStatus,
                nonTerminal,
                orders.size(),
                violations.stream().limit(100).toList());
    }
}

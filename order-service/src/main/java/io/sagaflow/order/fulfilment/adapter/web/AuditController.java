package io.sagaflow.order.fulfilment.adapter.web;

import io.sagaflow.order.fulfilment.adapter.postgres.SagaQueries;
import io.sagaflow.order.fulfilment.application.InvariantAudit;
import io.sagaflow.order.fulfilment.application.InvariantAudit.AuditedOrder;
import io.sagaflow.order.fulfilment.application.InvariantAudit.Findings;
import io.sagaflow.order.fulfilment.application.InvariantAudit.OrderMoney;
import io.sagaflow.order.fulfilment.application.InvariantAudit.Reservation;
import io.sagaflow.order.fulfilment.application.InvariantAudit.Stock;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;
import org.springframework.web.util.UriBuilder;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /api/admin/audit}: the system's invariants (see {@link InvariantAudit}), checked against the order
 * service's orders, inventory's reservations and payment's charges — after a test, a load run or an incident.
 *
 * <p>{@code order_view} is read in pages by order id and merged with inventory's
 * {@code GET /api/admin/audit/stock/reservations} and payment's {@code GET /api/admin/audit/payments}, each paged the
 * same way, so the three services hold a page each, whatever the number of orders. The pages are read one after the
 * other, not from one snapshot: run the audit when the system is quiet.
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

    private record StockReport(List<ProductStock> products, boolean consistent) {}

    private record ProductStock(UUID productId) {}

    private record ReservationPage(List<Reservation> reservations) {}

    private record PaymentPage(List<OrderMoney> orders) {}

    private static final TypeReference<List<Map<String, Object>>> LINES = new TypeReference<>() {};

    private final JdbcTemplate jdbc;
    private final JsonMapper json;
    private final SagaQueries sagas;
    private final RestClient inventory;
    private final RestClient payment;
    private final int pageSize;

    /**
     * @param pageSize how many orders each page of the three streams holds (1 to 10 000, the participants' limit)
     */
    public AuditController(
            JdbcTemplate jdbc,
            JsonMapper json,
            SagaQueries sagas,
            String inventoryUrl,
            String paymentUrl,
            int pageSize) {
        if (pageSize < 1 || pageSize > 10_000) {
            throw new IllegalArgumentException("the audit's page size must lie between 1 and 10000: " + pageSize);
        }
        this.jdbc = jdbc;
        this.json = json;
        this.sagas = sagas;
        this.inventory = RestClient.create(inventoryUrl);
        this.payment = RestClient.create(paymentUrl);
        this.pageSize = pageSize;
    }

    @GetMapping("/api/admin/audit")
    @Operation(summary = "Check the invariants across orders, stock and payments")
    public Audit audit() {
        SagaQueries.Counts counts = sagas.counts();
        Map<String, Long> byStatus = counts.byStatus();
        long nonTerminal = counts.running();

        StockReport report =
                inventory.get().uri("/api/admin/audit/stock").retrieve().body(StockReport.class);
        Optional<Stock> stock = Optional.ofNullable(report)
                .map(r -> new Stock(
                        r.consistent(),
                        r.products().stream().map(ProductStock::productId).toList()));

        Findings findings = new InvariantAudit(this::orders, this::reservations, this::payments, pageSize)
                .check(nonTerminal, stock);
        return new Audit(
                findings.consistent(),
                Instant.now(),
                byStatus,
                nonTerminal,
                findings.ordersChecked(),
                findings.violations());
    }

    private List<AuditedOrder> orders(Optional<UUID> after, int limit) {
        String select = "select order_id, status, total, line_items::text from order_view";
        return after.isPresent()
                ? jdbc.query(select + " where order_id > ? order by order_id limit ?", this::order, after.get(), limit)
                : jdbc.query(select + " order by order_id limit ?", this::order, limit);
    }

    private AuditedOrder order(ResultSet rs, int row) throws SQLException {
        Map<UUID, Integer> lines = new HashMap<>();
        for (Map<String, Object> line : json.readValue(rs.getString(4), LINES)) {
            lines.merge(
                    UUID.fromString((String) line.get("productId")),
                    ((Number) line.get("quantity")).intValue(),
                    Integer::sum);
        }
        return new AuditedOrder(rs.getObject(1, UUID.class), rs.getString(2), rs.getBigDecimal(3), lines);
    }

    private List<Reservation> reservations(Optional<UUID> after, int limit) {
        ReservationPage page = inventory
                .get()
                .uri(b -> paged(b.path("/api/admin/audit/stock/reservations"), after, limit))
                .retrieve()
                .body(ReservationPage.class);
        return page == null || page.reservations() == null ? List.of() : page.reservations();
    }

    private List<OrderMoney> payments(Optional<UUID> after, int limit) {
        PaymentPage page = payment.get()
                // without the totals: they read every payment, and this walk reads every page
                .uri(b -> paged(b.path("/api/admin/audit/payments").queryParam("totals", false), after, limit))
                .retrieve()
                .body(PaymentPage.class);
        return page == null || page.orders() == null ? List.of() : page.orders();
    }

    private static URI paged(UriBuilder uri, Optional<UUID> after, int limit) {
        after.ifPresent(id -> uri.queryParam("after", id));
        return uri.queryParam("limit", limit).build();
    }
}

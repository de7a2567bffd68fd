package io.sagaflow.inventory.audit.adapter.postgres;

import io.sagaflow.inventory.audit.application.ActiveReservation;
import io.sagaflow.inventory.audit.application.ProductStockAudit;
import io.sagaflow.inventory.audit.application.StockLevels;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Repository;

/**
 * {@link StockLevels} from {@code product_view} and {@code stock_reservation}, summed and paged by PostgreSQL; each
 * answer is one statement, so it belongs to one instant.
 */
@Repository
public class JdbcStockLevels implements StockLevels {

    /**
     * The page's orders as an array, not an {@code in (select …)}: every connection plans its statements generically
     * (ADR 0029), and the generic plan of the join that {@code in} becomes scans the whole table for every page, so
     * that the audit's walk over all pages grew with the square of the orders (0.36 s a page at 890 000
     * reservations). The array is an initplan, and the reservations of its orders are found through the index.
     */
    private static final String RESERVATIONS_OF_ORDERS = "select order_id, product_id, quantity from stock_reservation"
            + " where active and order_id = any(array(select distinct order_id from stock_reservation where active%s"
            + " order by order_id limit ?)) order by order_id, product_id";

    private static final RowMapper<ActiveReservation> RESERVATION =
            (rs, row) -> new ActiveReservation(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getInt(3));

    private final JdbcTemplate jdbc;

    public JdbcStockLevels(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public List<ProductStockAudit> snapshot() {
        return jdbc.query(
                "select p.product_id, p.quantity_on_hand, p.quantity_reserved, coalesce(h.held, 0)"
                        + " from product_view p left join (select product_id, sum(quantity) as held"
                        + " from stock_reservation where active group by product_id) h"
                        + " on h.product_id = p.product_id order by p.product_id",
                (rs, row) ->
                        ProductStockAudit.of(rs.getObject(1, UUID.class), rs.getInt(2), rs.getInt(3), rs.getLong(4)));
    }

    @Override
    public List<ActiveReservation> activeReservations(Optional<UUID> afterOrder, int orders) {
        // The page is cut at whole orders (the inner select), so one order's reservations never span two pages.
        return afterOrder.isPresent()
                ? jdbc.query(reservationsPage(true), RESERVATION, afterOrder.get(), orders)
                : jdbc.query(reservationsPage(false), RESERVATION, orders);
    }

    /** The statement of a page of reservations: its parameters are the order to start after, if any, and the limit. */
    static String reservationsPage(boolean after) {
        return RESERVATIONS_OF_ORDERS.formatted(after ? " and order_id > ?" : "");
    }
}

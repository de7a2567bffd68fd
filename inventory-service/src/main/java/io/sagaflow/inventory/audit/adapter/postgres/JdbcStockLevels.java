package io.sagaflow.inventory.audit.adapter.postgres;

import io.sagaflow.inventory.audit.application.ProductStockAudit;
import io.sagaflow.inventory.audit.application.StockLevels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@link StockLevels} from {@code product_view} and {@code stock_reservation}, both read in one repeatable-read
 * transaction so the totals and the reservations belong to the same instant.
 */
@Repository
public class JdbcStockLevels implements StockLevels {

    private final JdbcTemplate jdbc;
    private final TransactionTemplate snapshot;

    public JdbcStockLevels(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.snapshot = new TransactionTemplate(transactionManager);
        snapshot.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        snapshot.setReadOnly(true);
    }

    @Override
    public List<ProductStockAudit> snapshot() {
        return snapshot.execute(status -> {
            Map<UUID, Map<UUID, Integer>> held = new HashMap<>();
            jdbc.query("select product_id, order_id, quantity from stock_reservation where active", rs -> {
                held.computeIfAbsent(rs.getObject(1, UUID.class), id -> new TreeMap<>())
                        .put(rs.getObject(2, UUID.class), rs.getInt(3));
            });
            List<ProductStockAudit> products = new ArrayList<>();
            jdbc.query(
                    "select product_id, quantity_on_hand, quantity_reserved from product_view order by product_id",
                    rs -> {
                        UUID productId = rs.getObject(1, UUID.class);
                        products.add(new ProductStockAudit(
                                productId, rs.getInt(2), rs.getInt(3), held.getOrDefault(productId, Map.of())));
                    });
            return products;
        });
    }
}

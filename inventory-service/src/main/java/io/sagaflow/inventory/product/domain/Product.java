package io.sagaflow.inventory.product.domain;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * A product's stock: units on hand, units held for orders, and who holds them. Invariant, kept by
 * {@link ProductDecider}: {@code 0 <= quantityReserved <= quantityOnHand} and {@code quantityReserved} is the sum of
 * {@code reservations}.
 *
 * @param reservations units held per order id; an order holding nothing has no entry
 */
public record Product(
        UUID productId, ProductStatus status, int quantityOnHand, int quantityReserved, Map<UUID, Integer> reservations)
        implements ProductState {

    public Product {
        reservations = Map.copyOf(reservations);
    }

    /** Units that may still be reserved. */
    public int availableQuantity() {
        return quantityOnHand - quantityReserved;
    }

    /** Units held for {@code orderId}, 0 if none. */
    public int reservedFor(UUID orderId) {
        return reservations.getOrDefault(orderId, 0);
    }

    Product withReservation(UUID orderId, int delta) {
        Map<UUID, Integer> changed = new HashMap<>(reservations);
        int held = reservedFor(orderId) + delta;
        if (held > 0) {
            changed.put(orderId, held);
        } else {
            changed.remove(orderId);
        }
        return new Product(productId, status, quantityOnHand, quantityReserved + delta, changed);
    }

    Product withOnHand(int delta) {
        return new Product(productId, status, quantityOnHand + delta, quantityReserved, reservations);
    }
}

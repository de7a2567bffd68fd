package io.sagaflow.order.ordering.domain;

import io.sagaflow.order.contracts.OrderLine;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * How an order is priced: subtotal is the sum of quantity times unit price, tax is {@code taxRate} of the subtotal,
 * all rounded half-even to cents.
 *
 * @param taxRate e.g. 0.08 for 8 %
 */
public record OrderPricing(BigDecimal taxRate) {

    /** The money of an order. */
    public record Totals(BigDecimal subtotal, BigDecimal tax, BigDecimal total) {}

    public Totals price(List<OrderLine> lines) {
        BigDecimal subtotal = lines.stream().map(OrderPricing::lineTotal).reduce(BigDecimal.ZERO, BigDecimal::add);
        BigDecimal tax = subtotal.multiply(taxRate).setScale(2, RoundingMode.HALF_EVEN);
        return new Totals(
                subtotal.setScale(2, RoundingMode.HALF_EVEN),
                tax,
                subtotal.add(tax).setScale(2, RoundingMode.HALF_EVEN));
    }

    public static BigDecimal lineTotal(OrderLine line) {
        return line.unitPrice().multiply(BigDecimal.valueOf(line.quantity())).setScale(2, RoundingMode.HALF_EVEN);
    }
}

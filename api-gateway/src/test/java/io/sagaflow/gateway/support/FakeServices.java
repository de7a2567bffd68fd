package io.sagaflow.gateway.support;

import java.util.List;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The four services as {@link FakeService}s, started once per test JVM and shared by every gateway context: one
 * replica each, two of order.
 */
public final class FakeServices {

    public static final FakeService ACCOUNT = FakeService.start("account");
    public static final FakeService INVENTORY = FakeService.start("inventory");
    public static final FakeService ORDER = FakeService.start("order");
    public static final FakeService ORDER_2 = FakeService.start("order");
    public static final FakeService PAYMENT = FakeService.start("payment");

    public static final List<FakeService> ALL = List.of(ACCOUNT, INVENTORY, ORDER, ORDER_2, PAYMENT);

    private FakeServices() {}

    /** Points the gateway's discovery client at the fakes. */
    public static void register(DynamicPropertyRegistry registry) {
        String prefix = "spring.cloud.discovery.client.simple.instances.";
        registry.add(prefix + "account[0].uri", ACCOUNT::uri);
        registry.add(prefix + "inventory[0].uri", INVENTORY::uri);
        registry.add(prefix + "order[0].uri", ORDER::uri);
        registry.add(prefix + "order[1].uri", ORDER_2::uri);
        registry.add(prefix + "payment[0].uri", PAYMENT::uri);
    }

    /** The same as command-line style properties, for gateways started with {@code SpringApplicationBuilder}. */
    public static List<String> asProperties() {
        String prefix = "--spring.cloud.discovery.client.simple.instances.";
        return List.of(
                prefix + "account[0].uri=" + ACCOUNT.uri(),
                prefix + "inventory[0].uri=" + INVENTORY.uri(),
                prefix + "order[0].uri=" + ORDER.uri(),
                prefix + "order[1].uri=" + ORDER_2.uri(),
                prefix + "payment[0].uri=" + PAYMENT.uri());
    }

    public static void resetAll() {
        ALL.forEach(FakeService::reset);
    }
}

package io.sagaflow.framework.web;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * Puts Tomcat's executor behind {@link BoundedHandlers} (ADR 0105). It runs after Spring Boot has given Tomcat its
 * virtual thread executor, and bounds that one; with platform threads Tomcat's own pool ({@code
 * server.tomcat.threads.max}) is the bound already, and this changes nothing.
 */
public final class HandlerLimit implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory>, Ordered {

    private static final Logger log = LoggerFactory.getLogger(HandlerLimit.class);

    private final int limit;
    private final MeterRegistry meters;
    private final AtomicReference<BoundedHandlers> handlers = new AtomicReference<>();

    /** @param limit handlers running at once at most; 0 or less for no bound */
    public HandlerLimit(int limit, MeterRegistry meters) {
        this.limit = limit;
        this.meters = meters;
    }

    /** Requests waiting for a handler now; 0 before Tomcat starts and without a bound. */
    public int queued() {
        BoundedHandlers bounded = handlers.get();
        return bounded == null ? 0 : bounded.queued();
    }

    @Override
    public void customize(ConfigurableTomcatWebServerFactory factory) {
        if (limit <= 0) {
            return;
        }
        factory.addProtocolHandlerCustomizers(handler -> {
            Executor executor = handler.getExecutor();
            if (executor == null) {
                log.info(
                        "Tomcat runs its own thread pool; its size bounds the handlers, not sagaflow.web.max-handlers");
                return;
            }
            BoundedHandlers bounded = new BoundedHandlers(executor, limit, meters);
            handlers.set(bounded);
            handler.setExecutor(bounded);
        });
    }

    /** After every other customizer, Spring Boot's virtual threads (order 1) among them. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}

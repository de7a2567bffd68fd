package io.sagaflow.gateway.admission;

import io.micrometer.core.instrument.MeterRegistry;
import io.sagaflow.gateway.GatewayProperties;
import io.sagaflow.gateway.problem.ProblemWriter;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

/**
 * Bounds what the gateway's heap holds (ADR 0091): the requests in flight, through the {@link InFlightLimitFilter}
 * registered right after the correlation filter, before the rate limit and Spring Security (a request shed costs no
 * cluster call and no token check; {@code sagaflow.gateway.max-in-flight} 0 turns it off), and each open connection's
 * socket buffers, {@code sagaflow.gateway.connection-buffer} each way. The open connections themselves are bounded by
 * {@code server.tomcat.max-connections}, the cached request processors by {@code server.tomcat.processor-cache}.
 */
@Configuration(proxyBeanMethods = false)
class AdmissionConfiguration {

    static final int FILTER_ORDER = SecurityFilterProperties.DEFAULT_FILTER_ORDER - 20;

    @Bean
    FilterRegistrationBean<InFlightLimitFilter> inFlightLimitFilter(
            GatewayProperties properties, ProblemWriter problems, MeterRegistry meters) {
        int limit = properties.maxInFlight();
        var registration = new FilterRegistrationBean<>(new InFlightLimitFilter(Math.max(1, limit), problems, meters));
        registration.setOrder(FILTER_ORDER);
        registration.setEnabled(limit > 0);
        return registration;
    }

    @Bean
    TomcatConnectorCustomizer connectionBuffers(GatewayProperties properties) {
        DataSize size = properties.connectionBuffer();
        if (size.toBytes() < 512 || size.toBytes() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "sagaflow.gateway.connection-buffer must lie between 512 bytes and 2 GB, was " + size);
        }
        String bytes = Long.toString(size.toBytes());
        return connector -> {
            if (!connector.setProperty("socket.appReadBufSize", bytes)
                    || !connector.setProperty("socket.appWriteBufSize", bytes)) {
                throw new IllegalStateException("the connector " + connector + " has no socket buffers to size");
            }
        };
    }
}

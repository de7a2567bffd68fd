package io.sagaflow.gateway.health;

import io.sagaflow.gateway.GatewayProperties;
import java.net.http.HttpClient;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Adds {@code services} to the gateway's health: one {@link DownstreamHealthIndicator} per configured service. It is
 * part of {@code /actuator/health} but of neither probe group, so a failing service never restarts or unreadies the
 * gateway.
 */
@Configuration(proxyBeanMethods = false)
class HealthConfiguration {

    @Bean
    CompositeHealthContributor servicesHealthContributor(GatewayProperties properties, DiscoveryClient discovery) {
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(properties.health().timeout())
                .build();
        Map<String, HealthIndicator> services = new LinkedHashMap<>();
        for (String service : properties.services()) {
            services.put(
                    service,
                    new DownstreamHealthIndicator(
                            service, discovery, http, properties.health().timeout()));
        }
        return CompositeHealthContributor.fromMap(services);
    }
}

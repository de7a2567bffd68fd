package io.sagaflow.gateway.routing;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * The gateway proxies through the JDK's {@code HttpURLConnection} ({@code spring.http.clients.imperative.factory:
 * simple}, ADR 0012), whose defaults do not suit a proxy; this sets its system properties before any connection is
 * opened, unless they are set already:
 *
 * <ul>
 *   <li>{@code sun.net.http.retryPost=false}: never send a write twice on its own (the default resends a POST once
 *       when a kept-alive connection turns out to be closed);
 *   <li>{@code sun.net.http.allowRestrictedHeaders=true}: let the API-docs routes keep the client's {@code Host};
 *       the gateway removes hop-by-hop and {@code Content-Length} headers itself;
 *   <li>{@code http.maxConnections=64}: idle connections kept per service replica (the default is 5).
 * </ul>
 */
public class HttpUrlConnectionDefaults implements EnvironmentPostProcessor {

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        setIfAbsent("sun.net.http.retryPost", "false");
        setIfAbsent("sun.net.http.allowRestrictedHeaders", "true");
        setIfAbsent("http.maxConnections", "64");
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }
}

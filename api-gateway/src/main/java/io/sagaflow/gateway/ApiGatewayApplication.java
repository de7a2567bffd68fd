package io.sagaflow.gateway;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * Entry point of the API gateway: the single HTTP front door of Sagaflow. Routes come from
 * {@code spring.cloud.gateway.server.webmvc.routes}, the rest from {@link GatewayProperties} (ADR 0012).
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ApiGatewayApplication {

    public static void main(String[] args) {
        SpringApplication.run(ApiGatewayApplication.class, args);
    }
}

package io.sagaflow.framework.autoconfigure;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Defaults every service shares, at the lowest precedence so any service or deployment may override them:
 * services serve an API, not static files, so an unknown path is a 404 problem from the API's own handler.
 */
public class SagaflowDefaults implements EnvironmentPostProcessor {

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        environment
                .getPropertySources()
                .addLast(new MapPropertySource(
                        "sagaflowDefaults",
                        Map.of(
                                "spring.web.resources.add-mappings", "false",
                                "spring.mvc.problemdetails.enabled", "false")));
    }
}

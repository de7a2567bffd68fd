package io.sagaflow.framework.autoconfigure;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Defaults every service shares, at the lowest precedence so any service or deployment may override them:
 *
 * <ul>
 *   <li>services serve an API, not static files, so an unknown path is a 404 problem from the API's own handler;
 *   <li>nor do they take multipart uploads: a request that names {@code multipart/form-data} is never parsed into
 *       parts (one without a boundary was a 500), so a body is refused as JSON-only endpoints refuse any other type
 *       (415) and a read is served as if no type had been named;
 *   <li>PostgreSQL plans each prepared statement once per connection ({@code plan_cache_mode=force_generic_plan},
 *       sent in the connection's start-up packet). With the default, statements that bind arrays were planned again
 *       on every execution, because a plan for the actual array looks cheaper than the generic one; that planning
 *       cost more than executing them (ADR 0029). A deployment that sets its own connection {@code options} must
 *       keep this one in them;
 *   <li>a request or a consumer waits at most 5 s for a pooled connection, not Hikari's 30: past that the database is
 *       away or the service far past its capacity, and a 503 with {@code Retry-After} (ADR 0099) is the answer a client
 *       can still use, where its own time-out (10 s in the perf suite) would end the request without one;
 *   <li>Tomcat keeps 64 idle request processors for reuse, not 200: each holds some 55–75 KB of buffers for as long
 *       as it is cached, 11 MB of the order service's heap at 200, where a service busy enough to need more than 64
 *       at once is past its capacity on the machines it is sized for (ADR 0041);
 *   <li>a request is timed, but starts no long-task timer ({@code http.server.requests.active}: looked up by its tags
 *       on every request, where {@code sagaflow.http.in-flight} already counts the requests in flight), and publishes
 *       no {@code ServletRequestHandledEvent}, which no one listens to (ADR 0062);
 *   <li>{@code http.server.requests} counts the requests that took at most 50 ms, the HTTP SLO (ADR 0014), in one
 *       histogram bucket ({@code le="0.05"}), so that an alert can tell the share slower than it (ADR 0103) without
 *       the 70-odd buckets of a percentile histogram on every URI, method and status.
 * </ul>
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
                                "spring.servlet.multipart.enabled", "false",
                                "spring.mvc.problemdetails.enabled", "false",
                                "spring.datasource.hikari.data-source-properties.options",
                                        "-c plan_cache_mode=force_generic_plan",
                                "spring.datasource.hikari.connection-timeout", "5000",
                                "server.tomcat.processor-cache", "64",
                                "management.metrics.observations.ignored-meters", "long-task-timer",
                                "spring.mvc.publish-request-handled-events", "false",
                                "management.metrics.distribution.slo.http.server.requests", "50ms")));
    }
}

package io.sagaflow.gateway.routing;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.ObservationFilter;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Locale;
import org.springframework.http.server.observation.ServerRequestObservationContext;

/**
 * Tags the gateway's timing of each request {@code wait=yes|no}, as the services tag theirs (ADR 0025). A read that
 * waited for a change lasts as long as the change took: the service says so with {@code Preference-Applied: wait=N},
 * which the gateway passes on, so latency figures and the alert on slow requests (ADR 0103) can leave it out.
 */
final class WaitedReads {

    private WaitedReads() {}

    static ObservationFilter tag() {
        return context -> {
            if (context instanceof ServerRequestObservationContext request) {
                context.addLowCardinalityKeyValue(KeyValue.of("wait", waited(request.getResponse()) ? "yes" : "no"));
            }
            return context;
        };
    }

    private static boolean waited(HttpServletResponse response) {
        String applied = response == null ? null : response.getHeader("Preference-Applied");
        return applied != null && applied.toLowerCase(Locale.ROOT).contains("wait");
    }
}

package io.sagaflow.gateway.routing;

import io.sagaflow.gateway.problem.Problem;
import io.sagaflow.gateway.problem.ProblemWriter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.gateway.server.mvc.common.MvcUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponse;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

/**
 * Turns every exception a request raises in the gateway into a problem: a failed call to a service as
 * {@link UpstreamFailures} says, a client error Spring raises (an unknown path: 404) with its status name as the code,
 * and anything else as a 500 {@code INTERNAL_ERROR} whose cause stays in the log. It runs before Spring's own resolvers,
 * which would answer the gateway's routes with the servlet container's error page.
 */
public final class UpstreamErrorResolver implements HandlerExceptionResolver, Ordered {

    private static final Logger log = LoggerFactory.getLogger(UpstreamErrorResolver.class);

    private final ProblemWriter problems;
    private final OpenCircuits circuits;

    public UpstreamErrorResolver(ProblemWriter problems, OpenCircuits circuits) {
        this.problems = problems;
        this.circuits = circuits;
    }

    @Override
    public ModelAndView resolveException(
            HttpServletRequest request, HttpServletResponse response, Object handler, Exception failure) {
        if (response.isCommitted()) {
            return null;
        }
        Object route = request.getAttribute(MvcUtils.GATEWAY_ROUTE_ID_ATTR);
        Problem problem =
                UpstreamFailures.classify(failure, route == null ? null : route.toString(), circuits::openFor);
        if (problem != null) {
            log.debug("{} {}: {}", request.getMethod(), request.getRequestURI(), problem.code(), failure);
        } else if (failure instanceof ErrorResponse error
                && error.getStatusCode().is4xxClientError()) {
            HttpStatus status = HttpStatus.valueOf(error.getStatusCode().value());
            problem = Problem.of(status, status.name(), error.getBody().getDetail());
            error.getHeaders().forEach((name, values) -> values.forEach(value -> response.addHeader(name, value)));
        } else {
            log.error("unexpected failure serving {} {}", request.getMethod(), request.getRequestURI(), failure);
            problem = Problem.of(HttpStatus.INTERNAL_SERVER_ERROR, "INTERNAL_ERROR", "An unexpected error occurred");
        }
        try {
            problems.write(request, response, problem);
        } catch (IOException e) {
            log.debug("could not write the problem for {}", request.getRequestURI(), e);
        }
        return new ModelAndView();
    }

    @Override
    public int getOrder() {
        // After Spring Boot's DefaultErrorAttributes (which only records the exception), before everything else.
        return Ordered.HIGHEST_PRECEDENCE + 1;
    }
}

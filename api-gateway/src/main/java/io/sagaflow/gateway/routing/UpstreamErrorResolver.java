package io.sagaflow.gateway.routing;

import io.sagaflow.gateway.problem.Problem;
import io.sagaflow.gateway.problem.ProblemWriter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.gateway.server.mvc.common.MvcUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

/**
 * Turns every exception a request raises in the gateway into a problem: a failed call to a service as
 * {@link UpstreamFailures} says, a client error Spring raises (an unknown path: 404) with its status name as the code,
 * a query string Tomcat cannot parse as a 400 {@code INVALID_PARAMETER}, one the firewall does not allow as a 400
 * {@code MALFORMED_REQUEST}, and anything else as a 500 {@code INTERNAL_ERROR} whose cause stays in the log. It runs
 * before Spring's own resolvers, which would answer the gateway's routes with the servlet container's error page.
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
        } else if (causedBy(failure, InvalidParameterException.class)) {
            problem = Problem.of(
                    HttpStatus.BAD_REQUEST,
                    "INVALID_PARAMETER",
                    "The query string is not valid: every parameter needs a name and UTF-8");
        } else if (causedBy(failure, RequestRejectedException.class)) {
            problem = Problem.of(
                    HttpStatus.BAD_REQUEST,
                    "MALFORMED_REQUEST",
                    "The request holds a parameter or header with characters the gateway does not accept");
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

    /**
     * Whether {@code failure} comes of the caller's input that is read only once the proxy copies the request: Tomcat
     * throws when a query string it cannot parse (a name left out) is first read, Spring Security's firewall when a
     * parameter or header holds characters it does not allow. Both arrive wrapped, by the circuit breaker's fallback.
     */
    private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int getOrder() {
        // After Spring Boot's DefaultErrorAttributes (which only records the exception), before everything else.
        return Ordered.HIGHEST_PRECEDENCE + 1;
    }
}

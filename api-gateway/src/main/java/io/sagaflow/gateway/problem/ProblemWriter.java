package io.sagaflow.gateway.problem;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a {@link Problem} as {@code application/problem+json}: {@code type}, {@code title}, {@code status},
 * {@code detail}, {@code instance} and {@code code} like the services' {@code ProblemDetailsHandler}, plus the
 * problem's extension members and its {@code Retry-After}.
 */
@Component
public class ProblemWriter {

    private static final String TYPE_PREFIX = "urn:sagaflow:problem:";

    private final JsonMapper json;

    public ProblemWriter(JsonMapper json) {
        this.json = json;
    }

    public void write(HttpServletRequest request, HttpServletResponse response, Problem problem) throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", TYPE_PREFIX + problem.code());
        body.put("title", problem.status().getReasonPhrase());
        body.put("status", problem.status().value());
        body.put("detail", problem.detail());
        body.put("instance", request.getRequestURI());
        body.put("code", problem.code());
        body.putAll(problem.properties());
        response.setStatus(problem.status().value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        Long retryAfter = problem.retryAfterSeconds();
        if (retryAfter != null) {
            response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(retryAfter));
        }
        json.writeValue(response.getOutputStream(), body);
    }
}

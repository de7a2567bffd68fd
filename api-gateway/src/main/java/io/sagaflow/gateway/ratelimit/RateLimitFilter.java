package io.sagaflow.gateway.ratelimit;

import io.sagaflow.gateway.problem.Problem;
import io.sagaflow.gateway.problem.ProblemWriter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Rate limits requests under {@code /api/} per client: the client is its API key header if it sends one, else its
 * address. Every limited response carries {@code RateLimit-Limit}, {@code RateLimit-Remaining} and
 * {@code RateLimit-Reset}; a request without a token gets 429 {@code TOO_MANY_REQUESTS} with {@code Retry-After}.
 * It runs before authentication, so floods of bad tokens are limited too.
 */
public class RateLimitFilter extends OncePerRequestFilter {

    private final RateLimiter limiter;
    private final ProblemWriter problems;
    private final String apiKeyHeader;

    public RateLimitFilter(RateLimiter limiter, ProblemWriter problems, String apiKeyHeader) {
        this.limiter = limiter;
        this.problems = problems;
        this.apiKeyHeader = apiKeyHeader;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !request.getRequestURI().startsWith("/api/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Optional<RateLimitDecision> decision = limiter.take(clientOf(request));
        if (decision.isEmpty()) {
            chain.doFilter(request, response);
            return;
        }
        RateLimitDecision taken = decision.get();
        response.setHeader("RateLimit-Limit", Long.toString(taken.limit()));
        response.setHeader("RateLimit-Remaining", Long.toString(taken.remaining()));
        response.setHeader("RateLimit-Reset", Long.toString(taken.resetSeconds()));
        if (taken.allowed()) {
            chain.doFilter(request, response);
            return;
        }
        problems.write(
                request,
                response,
                Problem.of(
                                HttpStatus.TOO_MANY_REQUESTS,
                                "TOO_MANY_REQUESTS",
                                "Too many requests from this client; retry after the time in Retry-After")
                        .with("limit", taken.limit())
                        .retryAfter(Duration.ofSeconds(taken.retryAfterSeconds())));
    }

    /** The bucket key: the API key's digest (so keys are not stored) or the client's address. */
    String clientOf(HttpServletRequest request) {
        String apiKey = request.getHeader(apiKeyHeader);
        if (apiKey != null && !apiKey.isBlank()) {
            return "key:" + sha256(apiKey.strip());
        }
        return "ip:" + request.getRemoteAddr();
    }

    private static String sha256(String value) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}

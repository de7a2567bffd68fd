package io.sagaflow.gateway.security;

import io.sagaflow.gateway.headers.RewrittenRequest;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Tells the services who the caller is, so that each client's {@code Idempotency-Key}s are its own (ADR 0070): the
 * request routed to a service carries {@value #HEADER}, an opaque name of the authenticated caller (the SHA-256 of the
 * token's issuer and subject, base64url), and a service keeps the keys of each such name apart. Two clients that
 * happen to pick the same key then each get their own order, and neither can fetch what the other's key made.
 *
 * <p>The header is the gateway's word: whatever a caller sent under that name is dropped, and without an
 * authenticated caller (security off, or a public path) the service sees none and keys share one space per service,
 * as they do for calls made to a service directly. Runs after Spring Security's filters, which set the caller.
 */
public class ClientIdentityFilter extends OncePerRequestFilter {

    /** The header a service scopes idempotency keys by. */
    public static final String HEADER = "Sagaflow-Client";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String client = client(SecurityContextHolder.getContext().getAuthentication());
        if (client != null) {
            chain.doFilter(new RewrittenRequest(request, Map.of(HEADER, client), Set.of()), response);
        } else if (request.getHeader(HEADER) != null) {
            chain.doFilter(new RewrittenRequest(request, Map.of(), Set.of(HEADER)), response);
        } else {
            // Nothing to set and nothing to drop: the request as it came, without a wrapper.
            chain.doFilter(request, response);
        }
    }

    /** The caller's opaque name, or null when nobody was authenticated. */
    static String client(Authentication authentication) {
        if (authentication == null
                || !authentication.isAuthenticated()
                || authentication instanceof AnonymousAuthenticationToken) {
            return null;
        }
        String identity = authentication instanceof JwtAuthenticationToken jwt
                ? jwt.getToken().getClaimAsString("iss") + "\n" + jwt.getToken().getSubject()
                : authentication.getName();
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}

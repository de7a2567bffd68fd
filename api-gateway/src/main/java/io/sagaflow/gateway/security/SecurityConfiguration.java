package io.sagaflow.gateway.security;

import io.sagaflow.gateway.GatewayProperties;
import io.sagaflow.gateway.problem.Problem;
import io.sagaflow.gateway.problem.ProblemWriter;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.oauth2.server.resource.web.BearerTokenAuthenticationEntryPoint;
import org.springframework.security.oauth2.server.resource.web.access.BearerTokenAccessDeniedHandler;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.AccessDeniedHandler;

/**
 * The gateway's security. With {@code sagaflow.gateway.security.enabled} every {@code /api/**} request needs a valid
 * bearer JWT, checked by Spring Security's resource server against the keys configured under
 * {@code spring.security.oauth2.resourceserver.jwt} (issuer, JWK set or public key), and {@code /api/admin/**} needs
 * the role {@code ADMIN}, read from the claim named by {@code ...jwt.authorities-claim-name} ({@code roles}). Health,
 * info and the API docs stay public; other actuator endpoints need {@code ADMIN}. 401 and 403 are problems
 * ({@code UNAUTHORIZED}, {@code FORBIDDEN}) with the bearer challenge in {@code WWW-Authenticate}. Without it (the
 * local default) no security filter runs (Spring Security's firewall still rejects malformed requests). Either way
 * the gateway keeps no session, and {@link ClientIdentityFilter} names the authenticated caller to the services.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    /** Right after Spring Security's filters, which know the caller by then. */
    static final int CLIENT_IDENTITY_ORDER = SecurityFilterProperties.DEFAULT_FILTER_ORDER + 1;

    @Bean
    FilterRegistrationBean<ClientIdentityFilter> clientIdentityFilter() {
        var registration = new FilterRegistrationBean<>(new ClientIdentityFilter());
        registration.setOrder(CLIENT_IDENTITY_ORDER);
        return registration;
    }

    @Bean
    SecurityFilterChain gatewaySecurity(HttpSecurity http, GatewayProperties properties, ProblemWriter problems)
            throws Exception {
        http.csrf(AbstractHttpConfigurer::disable)
                .formLogin(AbstractHttpConfigurer::disable)
                .httpBasic(AbstractHttpConfigurer::disable)
                .logout(AbstractHttpConfigurer::disable)
                .requestCache(AbstractHttpConfigurer::disable)
                .anonymous(Customizer.withDefaults())
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS));
        if (!properties.security().enabled()) {
            // No filter at all rather than a chain of filters that permit everything: only the firewall remains.
            return http.securityMatcher(request -> false).build();
        }
        return http.authorizeHttpRequests(requests -> requests.requestMatchers("/api/admin/**")
                        .hasRole("ADMIN")
                        .requestMatchers("/api/**")
                        .authenticated()
                        .requestMatchers("/actuator/health", "/actuator/health/**", "/actuator/info")
                        .permitAll()
                        .requestMatchers("/actuator/**")
                        .hasRole("ADMIN")
                        .anyRequest()
                        .permitAll())
                .oauth2ResourceServer(resourceServer -> resourceServer
                        .jwt(Customizer.withDefaults())
                        .authenticationEntryPoint(unauthorized(problems))
                        .accessDeniedHandler(forbidden(problems)))
                .exceptionHandling(exceptions -> exceptions
                        .authenticationEntryPoint(unauthorized(problems))
                        .accessDeniedHandler(forbidden(problems)))
                .build();
    }

    private static AuthenticationEntryPoint unauthorized(ProblemWriter problems) {
        var challenge = new BearerTokenAuthenticationEntryPoint();
        return (request, response, failure) -> {
            challenge.commence(request, response, failure);
            problems.write(
                    request,
                    response,
                    Problem.of(HttpStatus.UNAUTHORIZED, "UNAUTHORIZED", "A valid bearer token is required"));
        };
    }

    private static AccessDeniedHandler forbidden(ProblemWriter problems) {
        var challenge = new BearerTokenAccessDeniedHandler();
        return (request, response, denied) -> {
            challenge.handle(request, response, denied);
            problems.write(
                    request,
                    response,
                    Problem.of(HttpStatus.FORBIDDEN, "FORBIDDEN", "The token does not grant access to this resource"));
        };
    }
}

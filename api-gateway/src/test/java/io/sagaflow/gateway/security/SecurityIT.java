package io.sagaflow.gateway.security;

import static io.sagaflow.gateway.support.FakeServices.ORDER;
import static io.sagaflow.gateway.support.FakeServices.ORDER_2;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.sagaflow.gateway.ApiGatewayApplication;
import io.sagaflow.gateway.support.FakeService;
import io.sagaflow.gateway.support.FakeServices;
import io.sagaflow.gateway.support.Http;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The gateway with JWT authentication on, checked with real RS256 tokens: the resource server knows the public key of
 * a pair generated here, and the tests sign with its private key (or another key, to be rejected).
 */
@SpringBootTest(
        classes = ApiGatewayApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "sagaflow.gateway.security.enabled=true")
class SecurityIT {

    private static final RSAKey ISSUER_KEY = rsaKey("issuer");
    private static final RSAKey FORGER_KEY = rsaKey("forger");

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws Exception {
        FakeServices.register(registry);
        Path publicKey = Files.createTempFile("gateway-jwt", ".pem");
        publicKey.toFile().deleteOnExit();
        Files.writeString(publicKey, pem(ISSUER_KEY));
        registry.add("spring.security.oauth2.resourceserver.jwt.public-key-location", () -> "file:" + publicKey);
    }

    @AfterEach
    void reset() {
        FakeServices.resetAll();
    }

    @Test
    void withoutATokenTheApiIsA401Problem() {
        HttpResponse<String> response = Http.get(port, "/api/orders/o-1");

        assertUnauthorized(response);
        assertThat(received()).isEmpty();
    }

    @Test
    void aTokenSignedByAnotherKeyIsRejected() {
        HttpResponse<String> response = Http.get(port, "/api/orders/o-1", bearer(token(FORGER_KEY, "ann", List.of())));

        assertUnauthorized(response);
        assertThat(response.headers().firstValue("WWW-Authenticate"))
                .hasValueSatisfying(challenge -> assertThat(challenge).contains("invalid_token"));
    }

    @Test
    void anExpiredTokenIsRejected() {
        String expired = sign(
                ISSUER_KEY,
                new JWTClaimsSet.Builder()
                        .subject("ann")
                        .issueTime(Date.from(Instant.now().minus(Duration.ofHours(2))))
                        .expirationTime(Date.from(Instant.now().minus(Duration.ofHours(1))))
                        .build());

        assertUnauthorized(Http.get(port, "/api/orders/o-1", bearer(expired)));
    }

    @Test
    void aValidTokenReachesTheService_withItsAuthorizationHeader() {
        String token = token(ISSUER_KEY, "ann", List.of("CUSTOMER"));

        HttpResponse<String> response = Http.get(port, "/api/orders/o-1", bearer(token));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(received())
                .singleElement()
                .satisfies(
                        request -> assertThat(request.header("Authorization")).isEqualTo("Bearer " + token));
    }

    @Test
    void theServiceLearnsTheCallersName_fromTheGatewayAlone() {
        String ann = "Bearer " + token(ISSUER_KEY, "ann", List.of("CUSTOMER"));
        String bob = "Bearer " + token(ISSUER_KEY, "bob", List.of("CUSTOMER"));
        ORDER.answer("/api/orders", 201);
        ORDER_2.answer("/api/orders", 201);

        Http.get(port, "/api/orders/o-1", "Authorization", ann);
        Http.post(port, "/api/orders", "{}", "Authorization", ann, "Idempotency-Key", "k-1");
        Http.post(port, "/api/orders", "{}", "Authorization", bob, "Idempotency-Key", "k-1");
        Http.post(port, "/api/orders", "{}", "Authorization", bob, "Sagaflow-Client", "ann-forged");

        // The SHA-256 of issuer and subject, base64url: the same name on every request of one caller, another for
        // another caller, and whatever a caller sends under the header itself is replaced.
        Map<String, Set<String>> namesByCaller = received().stream()
                .collect(Collectors.groupingBy(
                        request -> request.header("Authorization"),
                        Collectors.mapping(request -> request.header("Sagaflow-Client"), Collectors.toSet())));
        assertThat(namesByCaller.get(ann)).singleElement().asString().matches("[A-Za-z0-9_-]{43}");
        assertThat(namesByCaller.get(bob)).singleElement().asString().matches("[A-Za-z0-9_-]{43}");
        assertThat(namesByCaller.get(ann)).doesNotContainAnyElementsOf(namesByCaller.get(bob));
    }

    @Test
    void aPublicPathCarriesNoCallersName() {
        Http.get(port, "/api-docs/order", "Sagaflow-Client", "ann-forged");

        assertThat(received())
                .singleElement()
                .satisfies(
                        request -> assertThat(request.header("Sagaflow-Client")).isNull());
    }

    @Test
    void adminPathsNeedTheAdminRole() {
        HttpResponse<String> customer =
                Http.get(port, "/api/admin/sagas/quarantined", bearer(token(ISSUER_KEY, "ann", List.of("CUSTOMER"))));

        assertThat(customer.statusCode()).isEqualTo(403);
        assertThat(customer.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(customer.body()).contains("\"code\":\"FORBIDDEN\"", "\"status\":403");
        assertThat(received()).isEmpty();

        HttpResponse<String> admin =
                Http.get(port, "/api/admin/sagas/quarantined", bearer(token(ISSUER_KEY, "bob", List.of("ADMIN"))));

        assertThat(admin.statusCode()).isEqualTo(200);
        assertThat(admin.body()).contains("\"service\":\"order\"");
    }

    @Test
    void healthAndApiDocsStayPublic() {
        assertThat(Http.get(port, "/actuator/health").statusCode()).isEqualTo(200);
        assertThat(Http.get(port, "/v3/api-docs/swagger-config").statusCode()).isEqualTo(200);
        assertThat(Http.get(port, "/api-docs/order").statusCode()).isEqualTo(200);
        assertThat(Http.get(port, "/actuator/prometheus").statusCode()).isEqualTo(401);
    }

    private static void assertUnauthorized(HttpResponse<String> response) {
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.headers().firstValue("WWW-Authenticate"))
                .hasValueSatisfying(challenge -> assertThat(challenge).startsWith("Bearer"));
        assertThat(response.headers().firstValue("X-Correlation-Id")).isPresent();
        assertThat(response.body())
                .contains("\"type\":\"urn:sagaflow:problem:UNAUTHORIZED\"", "\"code\":\"UNAUTHORIZED\"");
    }

    private static List<FakeService.Received> received() {
        return Stream.concat(ORDER.received().stream(), ORDER_2.received().stream())
                .toList();
    }

    private static String[] bearer(String token) {
        return new String[] {"Authorization", "Bearer " + token};
    }

    private static String token(RSAKey key, String subject, List<String> roles) {
        Instant now = Instant.now();
        return sign(
                key,
                new JWTClaimsSet.Builder()
                        .subject(subject)
                        .issuer("https://login.sagaflow.test")
                        .issueTime(Date.from(now))
                        .expirationTime(Date.from(now.plus(Duration.ofMinutes(5))))
                        .claim("roles", roles)
                        .build());
    }

    private static String sign(RSAKey key, JWTClaimsSet claims) {
        try {
            SignedJWT jwt = new SignedJWT(
                    new JWSHeader.Builder(JWSAlgorithm.RS256)
                            .keyID(key.getKeyID())
                            .build(),
                    claims);
            jwt.sign(new RSASSASigner(key));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    private static RSAKey rsaKey(String id) {
        try {
            return new RSAKeyGenerator(2048).keyID(id).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String pem(RSAKey key) throws IOException {
        try {
            String body = Base64.getMimeEncoder(64, "\n".getBytes())
                    .encodeToString(key.toRSAPublicKey().getEncoded());
            return "-----BEGIN PUBLIC KEY-----\n" + body + "\n-----END PUBLIC KEY-----\n";
        } catch (JOSEException e) {
            throw new IOException(e);
        }
    }
}

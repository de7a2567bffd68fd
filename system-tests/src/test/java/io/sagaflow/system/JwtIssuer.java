package io.sagaflow.system;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;

/**
 * An RSA key pair that signs RS256 JWTs, as an identity provider would: the gateway is given the public key as a PEM
 * file ({@code spring.security.oauth2.resourceserver.jwt.public-key-location}), and roles go in the claim
 * {@code roles}.
 */
final class JwtIssuer {

    private final RSAKey key;

    private JwtIssuer(RSAKey key) {
        this.key = key;
    }

    static JwtIssuer generate(String keyId) {
        try {
            return new JwtIssuer(new RSAKeyGenerator(2048).keyID(keyId).generate());
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes the public key as a PEM file and returns it, for {@code public-key-location=file:...}. */
    Path writePublicKey() throws IOException {
        Path file = Files.createTempFile("sagaflow-jwt-", ".pem");
        file.toFile().deleteOnExit();
        try {
            String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                    .encodeToString(key.toRSAPublicKey().getEncoded());
            Files.writeString(file, "-----BEGIN PUBLIC KEY-----\n" + body + "\n-----END PUBLIC KEY-----\n");
        } catch (JOSEException e) {
            throw new IOException(e);
        }
        return file;
    }

    /** A token for {@code subject} with {@code roles}, valid for ten minutes. */
    String token(String subject, List<String> roles) {
        Instant now = Instant.now();
        return sign(now.minusSeconds(5), now.plus(Duration.ofMinutes(10)), subject, roles);
    }

    /** A token that expired an hour ago. */
    String expired(String subject, List<String> roles) {
        Instant now = Instant.now();
        return sign(now.minus(Duration.ofHours(2)), now.minus(Duration.ofHours(1)), subject, roles);
    }

    private String sign(Instant issued, Instant expires, String subject, List<String> roles) {
        try {
            SignedJWT jwt = new SignedJWT(
                    new JWSHeader.Builder(JWSAlgorithm.RS256)
                            .keyID(key.getKeyID())
                            .build(),
                    new JWTClaimsSet.Builder()
                            .subject(subject)
                            .issuer("https://login.sagaflow.test")
                            .issueTime(Date.from(issued))
                            .expirationTime(Date.from(expires))
                            .claim("roles", roles)
                            .build());
            jwt.sign(new RSASSASigner(key));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }
}

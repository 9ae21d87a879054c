package org.agentmemory.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.lang.JoseException;

/**
 * Bearer tokens for tests, signed with a server's development private key ({@link Api#keys()}) or with another key,
 * valid or broken on purpose.
 */
public final class Tokens {

    /** The issuer and audience the servers expect (the defaults). */
    public static final String ISSUER = "agent-memory";

    public static final String AUDIENCE = "agent-memory";

    private Tokens() {}

    /** A token's claims and signing key, changed one at a time by the tests. */
    public record Spec(
            PrivateKey key,
            String issuer,
            String audience,
            String tenant,
            String subject,
            List<String> groups,
            Duration lifetime,
            Map<String, Object> extra) {

        /** @return a valid token of this spec */
        public String sign() {
            JwtClaims claims = new JwtClaims();
            claims.setIssuer(issuer);
            claims.setAudience(audience);
            claims.setSubject(subject);
            if (tenant != null) {
                claims.setClaim("tenant", tenant);
            }
            claims.setStringListClaim("groups", groups);
            extra.forEach(claims::setClaim);
            Instant now = Instant.now();
            // An expired token was issued before it expired.
            Instant issued = lifetime.isNegative() ? now.plus(lifetime).minus(Duration.ofHours(1)) : now;
            claims.setIssuedAt(NumericDate.fromSeconds(issued.getEpochSecond()));
            claims.setExpirationTime(NumericDate.fromSeconds(now.plus(lifetime).getEpochSecond()));
            claims.setJwtId(UUID.randomUUID().toString());
            JsonWebSignature jws = new JsonWebSignature();
            jws.setPayload(claims.toJson());
            jws.setKey(key);
            jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
            try {
                return jws.getCompactSerialization();
            } catch (JoseException e) {
                throw new IllegalStateException(e);
            }
        }

        /** @return the same claims with {@code alg: none} and no signature */
        public String unsigned() {
            String signed = sign();
            String payload = signed.split("\\.")[1];
            String header = Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
            return header + "." + payload + ".";
        }

        public Spec withKey(PrivateKey other) {
            return new Spec(other, issuer, audience, tenant, subject, groups, lifetime, extra);
        }

        public Spec withIssuer(String other) {
            return new Spec(key, other, audience, tenant, subject, groups, lifetime, extra);
        }

        public Spec withAudience(String other) {
            return new Spec(key, issuer, other, tenant, subject, groups, lifetime, extra);
        }

        public Spec withTenant(String other) {
            return new Spec(key, issuer, audience, other, subject, groups, lifetime, extra);
        }

        public Spec withGroups(List<String> other) {
            return new Spec(key, issuer, audience, tenant, subject, other, lifetime, extra);
        }

        /** @return the same claims plus {@code name}: {@code value} (e.g. the user or agent a token is narrowed to) */
        public Spec withClaim(String name, Object value) {
            Map<String, Object> more = new java.util.LinkedHashMap<>(extra);
            more.put(name, value);
            return new Spec(key, issuer, audience, tenant, subject, groups, lifetime, Map.copyOf(more));
        }

        public Spec withSubject(String other) {
            return new Spec(key, issuer, audience, tenant, other, groups, lifetime, extra);
        }

        public Spec withLifetime(Duration other) {
            return new Spec(key, issuer, audience, tenant, subject, groups, other, extra);
        }
    }

    /**
     * @param api    the server whose development key signs
     * @param tenant the tenant claim
     * @param groups the roles
     * @return a valid spec: one hour, the expected issuer and audience
     */
    public static Spec of(Api api, String tenant, List<String> groups) {
        return new Spec(privateKey(api), ISSUER, AUDIENCE, tenant, "tester", groups, Duration.ofHours(1), Map.of());
    }

    /** @return the server's development private key */
    public static PrivateKey privateKey(Api api) {
        try {
            String pem = Files.readString(api.keys().resolve("private.pem"), StandardCharsets.UTF_8);
            String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
            return KeyFactory.getInstance("RSA")
                    .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return a fresh RSA key the server does not know */
    public static PrivateKey otherKey() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair().getPrivate();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}

package org.agentmemory.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.junit.jupiter.api.Test;

class TokenVerifierTest {

    private static final KeyPair RSA = pair("RSA");
    private static final KeyPair OTHER = pair("RSA");

    private static KeyPair pair(String algorithm) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
            if (algorithm.equals("EC")) {
                generator.initialize(new ECGenParameterSpec("secp256r1"));
            } else {
                generator.initialize(2048);
            }
            return generator.generateKeyPair();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static TokenVerifier verifier(KeyPair pair) {
        return new TokenVerifier(
                pair.getPublic(),
                null,
                "issuer-1",
                "memory",
                30,
                new TokenVerifier.ClaimNames("tenant", "memory_user", "memory_agent"));
    }

    private static String token(KeyPair pair, String issuer, String audience, String tenant, Duration lifetime) {
        return DevelopmentKeys.sign(
                pair.getPrivate(), issuer, audience, tenant, "alice", List.of(Roles.WRITER), Instant.now(), lifetime);
    }

    @Test
    void aValidTokenNamesTenantSubjectAndExpandedRoles() throws Exception {
        Caller caller = verifier(RSA).verify(token(RSA, "issuer-1", "memory", "acme", Duration.ofMinutes(5)));
        assertThat(caller.tenant()).isEqualTo("acme");
        assertThat(caller.subject()).isEqualTo("alice");
        assertThat(caller.roles()).containsExactlyInAnyOrder(Roles.WRITER, Roles.READER);
    }

    @Test
    void es256IsAcceptedToo() throws Exception {
        KeyPair ec = pair("EC");
        assertThat(verifier(ec)
                        .verify(token(ec, "issuer-1", "memory", "acme", Duration.ofMinutes(5)))
                        .tenant())
                .isEqualTo("acme");
    }

    @Test
    void everyBrokenTokenIsRefused() {
        TokenVerifier verifier = verifier(RSA);
        List<String> broken = List.of(
                DevelopmentKeys.sign(
                        RSA.getPrivate(),
                        "issuer-1",
                        "memory",
                        "acme",
                        "alice",
                        List.of(Roles.READER),
                        Instant.now().minus(Duration.ofHours(2)),
                        Duration.ofHours(1)),
                token(OTHER, "issuer-1", "memory", "acme", Duration.ofMinutes(5)),
                token(RSA, "issuer-2", "memory", "acme", Duration.ofMinutes(5)),
                token(RSA, "issuer-1", "other", "acme", Duration.ofMinutes(5)),
                token(RSA, "issuer-1", "memory", null, Duration.ofMinutes(5)),
                token(RSA, "issuer-1", "memory", "x".repeat(65), Duration.ofMinutes(5)),
                unsigned(token(RSA, "issuer-1", "memory", "acme", Duration.ofMinutes(5))),
                hs256(),
                "garbage",
                "");
        for (String token : broken) {
            assertThatThrownBy(() -> verifier.verify(token)).as(token).isInstanceOf(InvalidTokenException.class);
        }
    }

    @Test
    void aCachedTokenAnswersTheSameCallerAndATamperedCopyIsStillRefused() throws Exception {
        TokenVerifier verifier = verifier(RSA);
        String token = token(RSA, "issuer-1", "memory", "acme", Duration.ofMinutes(5));
        Caller first = verifier.verify(token);
        assertThat(verifier.verify(token)).isEqualTo(first);
        String tampered = token.substring(0, token.length() - 2) + (token.endsWith("A") ? "BB" : "AA");
        assertThatThrownBy(() -> verifier.verify(tampered)).isInstanceOf(InvalidTokenException.class);
    }

    @Test
    void theClockSkewToleratesARecentExpiry() throws Exception {
        String justExpired = DevelopmentKeys.sign(
                RSA.getPrivate(),
                "issuer-1",
                "memory",
                "acme",
                "alice",
                List.of(Roles.READER),
                Instant.now().minusSeconds(20),
                Duration.ofSeconds(10));
        assertThat(verifier(RSA).verify(justExpired).tenant()).isEqualTo("acme");
    }

    @Test
    void scopingClaimsNarrowTheCallerAndAreOptional() throws Exception {
        TokenVerifier verifier = verifier(RSA);
        Caller user = verifier.verify(scoped(java.util.Map.of("memory_user", "u-1")));
        assertThat(user.user()).isEqualTo("u-1");
        assertThat(user.agent()).isNull();
        assertThat(user.scoped()).isTrue();
        Caller agent = verifier.verify(scoped(java.util.Map.of("memory_agent", "support-bot")));
        assertThat(agent.agent()).isEqualTo("support-bot");
        assertThat(agent.user()).isNull();
        Caller neither = verifier.verify(scoped(java.util.Map.of()));
        assertThat(neither.scoped()).isFalse();
    }

    @Test
    void aScopingClaimThatIsNoIdIsRefused() {
        TokenVerifier verifier = verifier(RSA);
        for (Object bad : List.of("", " ", 42, List.of("u-1"), "x".repeat(129), "a\u0007b")) {
            assertThatThrownBy(() -> verifier.verify(scoped(java.util.Map.of("memory_user", bad))))
                    .as(String.valueOf(bad))
                    .isInstanceOf(InvalidTokenException.class);
        }
        assertThatThrownBy(() -> verifier.verify(scoped(java.util.Map.of("memory_agent", ""))))
                .isInstanceOf(InvalidTokenException.class);
    }

    @Test
    void theScopingClaimsAreConfigurable() throws Exception {
        TokenVerifier bySubject = new TokenVerifier(
                RSA.getPublic(), null, "issuer-1", "memory", 30, new TokenVerifier.ClaimNames("tenant", "sub", "bot"));
        Caller caller = bySubject.verify(scoped(java.util.Map.of("bot", "b-1")));
        assertThat(caller.user()).isEqualTo("alice");
        assertThat(caller.agent()).isEqualTo("b-1");
    }

    /** A valid token for tenant acme, subject alice, with these extra claims. */
    private static String scoped(java.util.Map<String, Object> extra) {
        try {
            JwtClaims claims = new JwtClaims();
            claims.setIssuer("issuer-1");
            claims.setAudience("memory");
            claims.setSubject("alice");
            claims.setClaim("tenant", "acme");
            claims.setStringListClaim("groups", List.of(Roles.WRITER));
            extra.forEach(claims::setClaim);
            claims.setExpirationTime(NumericDate.fromSeconds(Instant.now().getEpochSecond() + 300));
            JsonWebSignature jws = new JsonWebSignature();
            jws.setPayload(claims.toJson());
            jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
            jws.setKey(RSA.getPrivate());
            return jws.getCompactSerialization();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void rolesIncludeTheOnesBelowThem() {
        assertThat(Roles.expand(List.of(Roles.ADMIN)))
                .containsExactlyInAnyOrder(Roles.ADMIN, Roles.WRITER, Roles.READER);
        assertThat(Roles.expand(List.of(Roles.READER, "other"))).containsExactlyInAnyOrder(Roles.READER, "other");
        assertThat(Roles.expand(List.of())).isEmpty();
    }

    private static String unsigned(String signed) {
        String header = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8));
        return header + "." + signed.split("\\.")[1] + ".";
    }

    /** A token whose HMAC key is the RSA public key's bytes: the classic algorithm-confusion attack. */
    private static String hs256() {
        try {
            JwtClaims claims = new JwtClaims();
            claims.setIssuer("issuer-1");
            claims.setAudience("memory");
            claims.setClaim("tenant", "acme");
            claims.setExpirationTime(NumericDate.fromSeconds(Instant.now().getEpochSecond() + 300));
            JsonWebSignature jws = new JsonWebSignature();
            jws.setPayload(claims.toJson());
            jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.HMAC_SHA256);
            jws.setKey(new org.jose4j.keys.HmacKey(RSA.getPublic().getEncoded()));
            return jws.getCompactSerialization();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

package org.agentmemory.security;

import java.security.Key;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.MalformedClaimException;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.keys.resolvers.VerificationKeyResolver;

/**
 * Verifies a signed bearer token (RS256 or ES256; {@code alg: none} and every other algorithm are refused) against a
 * public key or a key resolver (JWKS), checks issuer, audience and expiry with a clock skew, and reads the caller
 * from its claims (MicroProfile JWT 2.1 names: {@code sub}, {@code upn}, {@code groups}; the tenant, and the
 * optional user and agent a token is narrowed to, from configurable claims). Pure and thread-safe.
 */
public final class TokenVerifier {

    /** The longest tenant id a token may name, as the tables store it. */
    public static final int MAX_TENANT_LENGTH = 64;

    /** The longest user or agent id a scoping claim may name (the rule of every id). */
    static final int MAX_SCOPE_ID_CODE_POINTS = 128;

    /** Verified tokens kept, at most; the cache is emptied when full. */
    static final int MAX_CACHED = 10_000;

    private final JwtConsumer consumer;
    private final ClaimNames claimNames;
    private final int clockSkewSeconds;

    /**
     * Tokens verified before, until they expire: an agent sends the same token with every call, and a signature
     * check costs far more CPU than a lookup (TokenVerificationBenchmark). A cached token is as valid as when it was
     * verified: JWTs cannot be revoked before their expiry either way.
     */
    private final Map<String, Verified> verified = new ConcurrentHashMap<>();

    /**
     * @param key              the issuer's public key, or {@code null} when {@code resolver} is given
     * @param resolver         resolves the key from the token's header (a JWKS), or {@code null}
     * @param issuer           the expected {@code iss}
     * @param audience         the expected {@code aud} (one of the token's)
     * @param clockSkewSeconds tolerated clock difference for {@code exp}, {@code nbf} and {@code iat}, ≥ 0
     * @param claimNames       the claims that name the tenant, and the user and agent a token is narrowed to
     */
    public TokenVerifier(
            Key key,
            VerificationKeyResolver resolver,
            String issuer,
            String audience,
            int clockSkewSeconds,
            ClaimNames claimNames) {
        JwtConsumerBuilder builder = new JwtConsumerBuilder()
                .setRequireExpirationTime()
                .setAllowedClockSkewInSeconds(clockSkewSeconds)
                .setExpectedIssuer(Objects.requireNonNull(issuer, "issuer"))
                .setExpectedAudience(Objects.requireNonNull(audience, "audience"))
                .setJwsAlgorithmConstraints(
                        AlgorithmConstraints.ConstraintType.PERMIT,
                        AlgorithmIdentifiers.RSA_USING_SHA256,
                        AlgorithmIdentifiers.ECDSA_USING_P256_CURVE_AND_SHA256);
        if (resolver != null) {
            builder.setVerificationKeyResolver(resolver);
        } else {
            builder.setVerificationKey(Objects.requireNonNull(key, "key or resolver"));
        }
        this.consumer = builder.build();
        this.claimNames = Objects.requireNonNull(claimNames, "claimNames");
        this.clockSkewSeconds = clockSkewSeconds;
    }

    /**
     * @param token the compact JWS (the part after {@code Bearer })
     * @return the caller it names
     * @throws InvalidTokenException when the signature, algorithm, issuer, audience or expiry does not verify, or
     *                               the tenant claim is missing or not a tenant id
     */
    public Caller verify(String token) throws InvalidTokenException {
        Verified known = verified.get(token);
        long now = System.currentTimeMillis() / 1000;
        if (known != null && now <= known.expiresAt() + clockSkewSeconds) {
            return known.caller();
        }
        Verified fresh = verifyUncached(token);
        if (verified.size() >= MAX_CACHED) {
            verified.clear();
        }
        verified.put(token, fresh);
        return fresh.caller();
    }

    /**
     * The claims a caller is read from.
     *
     * @param tenant the claim naming the tenant (required in every token)
     * @param user   the claim naming the one user a token is narrowed to (optional in a token)
     * @param agent  the claim naming the one agent a token is narrowed to (optional in a token)
     */
    public record ClaimNames(String tenant, String user, String agent) {

        public ClaimNames {
            Objects.requireNonNull(tenant, "tenant");
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(agent, "agent");
        }
    }

    /** A verified token: its caller and expiry (epoch seconds). */
    private record Verified(Caller caller, long expiresAt) {}

    private Verified verifyUncached(String token) throws InvalidTokenException {
        JwtClaims claims;
        try {
            claims = consumer.processToClaims(token);
        } catch (InvalidJwtException e) {
            throw new InvalidTokenException(e.getMessage(), e);
        }
        try {
            Object tenant = claims.getClaimValue(claimNames.tenant());
            if (!(tenant instanceof String t) || t.isBlank() || t.length() > MAX_TENANT_LENGTH || hasControl(t)) {
                throw new InvalidTokenException(
                        "claim " + claimNames.tenant() + " is missing or not a tenant id of 1 to 64 characters", null);
            }
            String subject = claims.getSubject();
            if (subject == null) {
                subject = claims.getStringClaimValue("upn");
            }
            List<String> groups = claims.hasClaim("groups") ? claims.getStringListClaimValue("groups") : List.of();
            return new Verified(
                    new Caller(
                            t,
                            subject == null ? "" : subject,
                            Roles.expand(groups),
                            scopeId(claims, claimNames.user()),
                            scopeId(claims, claimNames.agent())),
                    claims.getExpirationTime().getValue());
        } catch (MalformedClaimException e) {
            throw new InvalidTokenException(e.getMessage(), e);
        }
    }

    /**
     * @return the id a scoping claim names, or {@code null} when the token does not carry it
     * @throws InvalidTokenException when the claim is present but not an id of 1 to 128 code points without control
     *                               characters (the rule of user and agent ids)
     */
    private static String scopeId(JwtClaims claims, String claim) throws InvalidTokenException {
        if (!claims.hasClaim(claim)) {
            return null;
        }
        Object value = claims.getClaimValue(claim);
        if (!(value instanceof String id)
                || id.isBlank()
                || id.codePointCount(0, id.length()) > MAX_SCOPE_ID_CODE_POINTS
                || hasControl(id)) {
            throw new InvalidTokenException("claim " + claim + " is not an id of 1 to 128 code points", null);
        }
        return id;
    }

    private static boolean hasControl(String text) {
        return text.chars().anyMatch(Character::isISOControl);
    }
}

package org.agentmemory.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.lang.JoseException;

/**
 * The key pair and token of a development server ({@code memory.security.development-keys=true}, set by the README's
 * run profile and the test servers, never by default): an RSA key pair kept in a directory of the server's data
 * ({@code public.pem}, {@code private.pem}, created once and reused), and a token for tenant {@code default} with
 * every role, valid 30 days, written to {@code dev-token.jwt} at every start. Whoever can read the server's data
 * directory can act as that tenant: development only.
 */
public final class DevelopmentKeys {

    /** The file the development token is written to, in the key directory. */
    public static final String TOKEN_FILE = "dev-token.jwt";

    /** How long a development token is valid. */
    public static final Duration TOKEN_LIFETIME = Duration.ofDays(30);

    private final Path directory;

    /** @param directory where the keys and the token live; created when missing */
    public DevelopmentKeys(Path directory) {
        this.directory = directory;
    }

    /**
     * @return the public key, creating the key pair on first use
     * @throws IOException              when the directory cannot be written
     * @throws GeneralSecurityException when a stored key does not parse
     */
    public PublicKey publicKey() throws IOException, GeneralSecurityException {
        ensureKeys();
        return Pem.publicKey(Files.readString(directory.resolve("public.pem"), StandardCharsets.UTF_8));
    }

    /**
     * Writes a fresh token for tenant {@code default} with every role.
     *
     * @param issuer   the {@code iss} the server expects
     * @param audience the {@code aud} the server expects
     * @param now      the issue time
     * @return the token file
     * @throws IOException              when it cannot be written
     * @throws GeneralSecurityException when the private key does not parse
     */
    public Path writeToken(String issuer, String audience, Instant now) throws IOException, GeneralSecurityException {
        ensureKeys();
        PrivateKey key = Pem.privateKey(Files.readString(directory.resolve("private.pem"), StandardCharsets.UTF_8));
        String token = sign(key, issuer, audience, "default", "developer", List.copyOf(Roles.ALL), now, TOKEN_LIFETIME);
        Path file = directory.resolve(TOKEN_FILE);
        Files.writeString(file, token + "\n", StandardCharsets.UTF_8);
        ownerOnly(file);
        return file;
    }

    /**
     * Signs a token with RS256 (an RSA key) or ES256 (an EC key).
     *
     * @param key      the signing key
     * @param issuer   {@code iss}
     * @param audience {@code aud}
     * @param tenant   the {@code tenant} claim, or {@code null} for none
     * @param subject  {@code sub}
     * @param groups   {@code groups}
     * @param now      {@code iat}
     * @param lifetime {@code exp - iat}; negative for an expired token
     * @return the compact JWS
     */
    public static String sign(
            PrivateKey key,
            String issuer,
            String audience,
            String tenant,
            String subject,
            List<String> groups,
            Instant now,
            Duration lifetime) {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(issuer);
        claims.setAudience(audience);
        claims.setSubject(subject);
        claims.setClaim("upn", subject);
        if (tenant != null) {
            claims.setClaim("tenant", tenant);
        }
        claims.setStringListClaim("groups", groups);
        claims.setIssuedAt(NumericDate.fromSeconds(now.getEpochSecond()));
        claims.setExpirationTime(NumericDate.fromSeconds(now.plus(lifetime).getEpochSecond()));
        claims.setJwtId(UUID.randomUUID().toString());
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(key);
        jws.setAlgorithmHeaderValue(
                key.getAlgorithm().equals("EC")
                        ? AlgorithmIdentifiers.ECDSA_USING_P256_CURVE_AND_SHA256
                        : AlgorithmIdentifiers.RSA_USING_SHA256);
        jws.setHeader("typ", "JWT");
        try {
            return jws.getCompactSerialization();
        } catch (JoseException e) {
            throw new IllegalStateException("signing a token failed: " + e.getMessage(), e);
        }
    }

    private synchronized void ensureKeys() throws IOException, GeneralSecurityException {
        Path publicFile = directory.resolve("public.pem");
        Path privateFile = directory.resolve("private.pem");
        if (Files.exists(publicFile) && Files.exists(privateFile)) {
            return;
        }
        Files.createDirectories(directory);
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair pair = generator.generateKeyPair();
        Files.writeString(privateFile, Pem.write(pair.getPrivate()), StandardCharsets.UTF_8);
        ownerOnly(privateFile);
        Files.writeString(publicFile, Pem.write(pair.getPublic()), StandardCharsets.UTF_8);
    }

    private static void ownerOnly(Path file) {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException | IOException e) {
            // not a POSIX file system: the directory's own permissions apply
        }
    }
}

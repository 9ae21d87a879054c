package org.agentmemory.security;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.time.Instant;
import java.util.Locale;
import java.util.logging.Logger;
import org.agentmemory.api.config.MemorySettings;
import org.eclipse.microprofile.config.Config;
import org.jose4j.jwk.HttpsJwks;
import org.jose4j.keys.resolvers.HttpsJwksVerificationKeyResolver;

/**
 * The security settings (keys documented in {@link MemorySettings}), read and checked when the application starts:
 * a bad value, or {@code jwt} mode without a key, fails the deployment with a message naming the keys.
 */
@ApplicationScoped
public class SecuritySettings {

    private static final Logger LOG = Logger.getLogger(SecuritySettings.class.getName());

    /** How requests are authenticated. */
    public enum Mode {
        /** Signed bearer tokens (the default). */
        JWT,
        /** No authentication: every request is tenant {@code default} with every role. Local experiments only. */
        NONE
    }

    @Inject
    Config config;

    private Mode mode;
    private TokenVerifier verifier;
    private Path developmentToken;

    /** Reads the settings when the application starts, so that a bad configuration fails the deployment. */
    void atStart(@Observes @Initialized(ApplicationScoped.class) Object event) {
        mode();
    }

    @PostConstruct
    void read() {
        String value = config.getOptionalValue(MemorySettings.SECURITY_MODE, String.class)
                .orElse(MemorySettings.Defaults.SECURITY_MODE)
                .strip()
                .toLowerCase(Locale.ROOT);
        mode = switch (value) {
            case "jwt" -> Mode.JWT;
            case "none" -> Mode.NONE;
            default ->
                throw new IllegalStateException(
                        MemorySettings.SECURITY_MODE + " is '" + value + "'; it must be jwt (the default) or none");
        };
        if (mode == Mode.NONE) {
            LOG.warning(MemorySettings.SECURITY_MODE + "=none: every request is tenant default with every role, without"
                    + " a token. Use this for local experiments only; readiness reports it.");
            return;
        }
        String issuer = string(MemorySettings.SECURITY_JWT_ISSUER, MemorySettings.Defaults.SECURITY_JWT_ISSUER);
        String audience = string(MemorySettings.SECURITY_JWT_AUDIENCE, MemorySettings.Defaults.SECURITY_JWT_AUDIENCE);
        int skew = config.getOptionalValue(MemorySettings.SECURITY_JWT_CLOCK_SKEW_SECONDS, Integer.class)
                .orElse(MemorySettings.Defaults.SECURITY_JWT_CLOCK_SKEW_SECONDS);
        if (skew < 0 || skew > 3600) {
            throw new IllegalStateException(MemorySettings.SECURITY_JWT_CLOCK_SKEW_SECONDS + " is " + skew
                    + "; it must be between 0 and 3600 seconds");
        }
        TokenVerifier.ClaimNames claimNames = new TokenVerifier.ClaimNames(
                string(MemorySettings.SECURITY_TENANT_CLAIM, MemorySettings.Defaults.SECURITY_TENANT_CLAIM),
                string(MemorySettings.SECURITY_USER_CLAIM, MemorySettings.Defaults.SECURITY_USER_CLAIM),
                string(MemorySettings.SECURITY_AGENT_CLAIM, MemorySettings.Defaults.SECURITY_AGENT_CLAIM));
        String keyLocation = config.getOptionalValue(MemorySettings.SECURITY_JWT_PUBLIC_KEY_LOCATION, String.class)
                .orElse("");
        String jwksUrl = config.getOptionalValue(MemorySettings.SECURITY_JWT_JWKS_URL, String.class)
                .orElse("");
        boolean development = config.getOptionalValue(MemorySettings.SECURITY_DEVELOPMENT_KEYS, Boolean.class)
                .orElse(false);
        try {
            if (!jwksUrl.isBlank()) {
                verifier = new TokenVerifier(
                        null,
                        new HttpsJwksVerificationKeyResolver(new HttpsJwks(jwksUrl.strip())),
                        issuer,
                        audience,
                        skew,
                        claimNames);
            } else if (!keyLocation.isBlank()) {
                PublicKey key = Pem.publicKey(Files.readString(Path.of(keyLocation.strip()), StandardCharsets.UTF_8));
                verifier = new TokenVerifier(key, null, issuer, audience, skew, claimNames);
            } else if (development) {
                DevelopmentKeys keys = new DevelopmentKeys(developmentDirectory());
                verifier = new TokenVerifier(keys.publicKey(), null, issuer, audience, skew, claimNames);
                developmentToken = keys.writeToken(issuer, audience, Instant.now());
                LOG.warning("Development keys: a token for tenant default with every role, valid "
                        + DevelopmentKeys.TOKEN_LIFETIME.toDays() + " days, is in " + developmentToken
                        + " (export TOKEN=$(cat " + developmentToken + ")). Not for production.");
            } else {
                throw new IllegalStateException("Tokens are required (" + MemorySettings.SECURITY_MODE
                        + "=jwt) but no key is configured: set " + MemorySettings.SECURITY_JWT_PUBLIC_KEY_LOCATION
                        + " (a PEM public key file) or " + MemorySettings.SECURITY_JWT_JWKS_URL + "; for a development"
                        + " server " + MemorySettings.SECURITY_DEVELOPMENT_KEYS + "=true; for local experiments "
                        + MemorySettings.SECURITY_MODE + "=none");
            }
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(
                    "The token key could not be read (" + MemorySettings.SECURITY_JWT_PUBLIC_KEY_LOCATION + "="
                            + keyLocation + "): " + e.getMessage(),
                    e);
        }
    }

    private Path developmentDirectory() {
        String configured = config.getOptionalValue(MemorySettings.SECURITY_DEVELOPMENT_KEYS_DIRECTORY, String.class)
                .orElse("");
        if (!configured.isBlank()) {
            return Path.of(configured.strip());
        }
        String data = System.getProperty("jboss.server.data.dir", System.getProperty("java.io.tmpdir"));
        return Path.of(data, "agent-memory", "security");
    }

    private String string(String key, String defaultValue) {
        String value =
                config.getOptionalValue(key, String.class).orElse(defaultValue).strip();
        if (value.isEmpty()) {
            throw new IllegalStateException(key + " is empty; default: " + defaultValue);
        }
        return value;
    }

    /** @return how requests are authenticated */
    public Mode mode() {
        return mode;
    }

    /** @return the token verifier; {@code null} in mode none */
    public TokenVerifier verifier() {
        return verifier;
    }

    /** @return the development token file, or {@code null} when development keys are off */
    public Path developmentToken() {
        return developmentToken;
    }
}

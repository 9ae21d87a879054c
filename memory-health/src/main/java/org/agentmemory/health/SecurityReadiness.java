package org.agentmemory.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Locale;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness data on how callers are authenticated, without secrets: {@code mode} ({@code jwt} or {@code none}, key
 * {@code memory.security.mode}) and whether development keys are on ({@code memory.security.development-keys}).
 * Always up: a server without tokens is reachable on purpose, but an operator sees it here (issue 32 item 4). The
 * web module validates the same keys at deployment.
 */
@Readiness
@ApplicationScoped
public class SecurityReadiness implements HealthCheck {

    @Inject
    Config config;

    @Override
    public HealthCheckResponse call() {
        String mode = config.getOptionalValue("memory.security.mode", String.class)
                .orElse("jwt")
                .strip()
                .toLowerCase(Locale.ROOT);
        boolean development = config.getOptionalValue("memory.security.development-keys", Boolean.class)
                .orElse(false);
        return HealthCheckResponse.named("memory-security")
                .up()
                .withData("mode", mode)
                .withData("developmentKeys", development && mode.equals("jwt"))
                .build();
    }
}

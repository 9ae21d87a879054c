package org.agentmemory.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Locale;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness data on the PII store, without secrets (issue 34 item 2): {@code store} ({@code memory} or
 * {@code durable}, key {@code memory.pii.store}), {@code encrypted} (whether {@code memory.pii.pepper} and
 * {@code memory.pii.key} are set) and, for a durable store in clear, a {@code warning}. Always up: a plaintext store is
 * a choice an operator may make, but it is seen here as in the log at start. The EJB module validates the same keys at
 * deployment (exactly one of pepper and key fails it).
 */
@Readiness
@ApplicationScoped
public class PiiReadiness implements HealthCheck {

    @Inject
    Config config;

    @Override
    public HealthCheckResponse call() {
        String store = config.getOptionalValue("memory.pii.store", String.class)
                .orElse("memory")
                .strip()
                .toLowerCase(Locale.ROOT);
        boolean encrypted = set("memory.pii.pepper") && set("memory.pii.key");
        HealthCheckResponseBuilder response = HealthCheckResponse.named("memory-pii")
                .up()
                .withData("store", store)
                .withData("encrypted", encrypted);
        if (store.equals("durable") && !encrypted) {
            response.withData(
                    "warning",
                    "SECURITY: the durable PII store writes thread ids and personal data in clear; set"
                            + " memory.pii.pepper and memory.pii.key");
        }
        return response.build();
    }

    private boolean set(String key) {
        return config.getOptionalValue(key, String.class)
                .filter(v -> !v.isBlank())
                .isPresent();
    }
}

package org.agentmemory.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness: the large-body limiter is not stuck. Down while every slot is taken and one has been held for over
 * {@link #STALL_LIMIT}: requests with a body over 256 KiB then wait and get 503, so an orchestrator should route
 * around this server (issue 31 item 7). Data: {@code permits}, {@code free}, {@code oldestHeldMs}.
 */
@Readiness
@ApplicationScoped
public class LargeBodyReadiness implements HealthCheck {

    /** How long a full limiter may stay full before readiness goes down: twice the 30 s a request waits. */
    public static final Duration STALL_LIMIT = Duration.ofSeconds(60);

    @Inject
    LargeBodyLimiter limiter;

    @Override
    public HealthCheckResponse call() {
        return check(limiter.usage());
    }

    static HealthCheckResponse check(LargeBodyLimiter.Usage usage) {
        return HealthCheckResponse.named("memory-large-body-limiter")
                .status(!usage.stalled(STALL_LIMIT))
                .withData("permits", usage.permits())
                .withData("free", usage.free())
                .withData("oldestHeldMs", usage.oldestHeldMs())
                .build();
    }
}

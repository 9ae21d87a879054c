package org.agentmemory.working.boundary;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.agentmemory.api.config.WorkingMemorySettings;
import org.agentmemory.working.control.TierPolicy;
import org.eclipse.microprofile.config.Config;

/**
 * Working memory's configuration ({@link WorkingMemorySettings}), read and checked once at deployment; a value out of
 * range stops the deployment with a message naming the key.
 */
@ApplicationScoped
public class WorkingMemoryConfig {

    @Inject
    Config config;

    private TierPolicy policy;

    /** Reads (and so checks) the configuration when the application starts, not at the first call. */
    void atStart(
            @jakarta.enterprise.event.Observes @jakarta.enterprise.context.Initialized(ApplicationScoped.class)
                    Object started) {
        // the observer's bean instance is created for it, which runs the @PostConstruct check
    }

    @PostConstruct
    void read() {
        int capacity = (int) range(
                WorkingMemorySettings.SHORT_TERM_CAPACITY,
                WorkingMemorySettings.Defaults.SHORT_TERM_CAPACITY,
                1,
                10_000);
        int accesses = (int) range(
                WorkingMemorySettings.PROMOTION_ACCESSES,
                WorkingMemorySettings.Defaults.PROMOTION_ACCESSES,
                1,
                1_000_000);
        double threshold = config.getOptionalValue(WorkingMemorySettings.IMPORTANCE_THRESHOLD, Double.class)
                .orElse(WorkingMemorySettings.Defaults.IMPORTANCE_THRESHOLD);
        if (!(threshold >= 0 && threshold <= 1)) {
            throw new IllegalStateException(WorkingMemorySettings.IMPORTANCE_THRESHOLD + " is " + threshold
                    + "; it must be between 0 and 1. Default: " + WorkingMemorySettings.Defaults.IMPORTANCE_THRESHOLD);
        }
        policy = new TierPolicy(capacity, accesses, threshold);
    }

    private long range(String key, long fallback, long min, long max) {
        long value = config.getOptionalValue(key, Long.class).orElse(fallback);
        if (value < min || value > max) {
            throw new IllegalStateException(
                    key + " is " + value + "; it must be between " + min + " and " + max + ". Default: " + fallback);
        }
        return value;
    }

    /** @return the capacity and thresholds in force */
    public TierPolicy policy() {
        return policy;
    }
}

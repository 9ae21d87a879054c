package org.agentmemory.brain.boundary;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.agentmemory.api.config.DreamSettings;
import org.agentmemory.brain.control.DreamCycle;
import org.agentmemory.platform.cluster.ServerIdentity;
import org.eclipse.microprofile.config.Config;

/**
 * The dream cycle's configuration ({@link DreamSettings}), read and checked once at deployment; a value out of range
 * stops the deployment with a message naming the key. Also this server's identity in leases and reports
 * ({@link ServerIdentity}: the node name and a random suffix per start, shared with the housekeeping leases).
 */
@ApplicationScoped
public class DreamConfig {

    @Inject
    Config config;

    @Inject
    ServerIdentity server;

    private long intervalSeconds;
    private int jitterSeconds;
    private int backoffDivisor;
    private int importanceThreshold;
    private int syncSeconds;
    private DreamCycle.Limits limits;

    @PostConstruct
    void read() {
        intervalSeconds =
                range(DreamSettings.INTERVAL_SECONDS, DreamSettings.Defaults.INTERVAL_SECONDS, 1, 31_536_000L);
        jitterSeconds = (int)
                range(DreamSettings.STARTUP_JITTER_SECONDS, DreamSettings.Defaults.STARTUP_JITTER_SECONDS, 0, 86_400);
        backoffDivisor =
                (int) range(DreamSettings.BACKOFF_DIVISOR, DreamSettings.Defaults.BACKOFF_DIVISOR, 1, 1_000_000);
        importanceThreshold =
                (int) range(DreamSettings.IMPORTANCE_THRESHOLD, DreamSettings.Defaults.IMPORTANCE_THRESHOLD, 1, 10);
        syncSeconds = (int) range(DreamSettings.SYNC_SECONDS, DreamSettings.Defaults.SYNC_SECONDS, 1, 86_400);
        double similarity = config.getOptionalValue(DreamSettings.SIMILARITY_THRESHOLD, Double.class)
                .orElse(DreamSettings.Defaults.SIMILARITY_THRESHOLD);
        if (!(similarity >= 0 && similarity <= 1)) {
            throw new IllegalStateException(
                    DreamSettings.SIMILARITY_THRESHOLD + " is " + similarity + "; it must be between 0 and 1.");
        }
        limits = new DreamCycle.Limits(
                (int) range(DreamSettings.COLLECT_LIMIT, DreamSettings.Defaults.COLLECT_LIMIT, 1, 100_000),
                similarity,
                (int) range(
                        DreamSettings.MAX_GROUPS_PER_CYCLE, DreamSettings.Defaults.MAX_GROUPS_PER_CYCLE, 1, 100_000),
                (int) range(DreamSettings.PROMOTION_CYCLES, DreamSettings.Defaults.PROMOTION_CYCLES, 1, 1_000_000));
    }

    private long range(String key, long fallback, long min, long max) {
        long value = config.getOptionalValue(key, Long.class).orElse(fallback);
        if (value < min || value > max) {
            throw new IllegalStateException(
                    key + " is " + value + "; it must be between " + min + " and " + max + ". Default: " + fallback);
        }
        return value;
    }

    /** @return the default interval of a schedule, seconds */
    public long intervalSeconds() {
        return intervalSeconds;
    }

    /** @return most seconds of random delay before a catch-up cycle */
    public int jitterSeconds() {
        return jitterSeconds;
    }

    /** @return the back-off divisor of the interval after an aborted cycle */
    public int backoffDivisor() {
        return backoffDivisor;
    }

    /** @return the importance that makes an episode eligible */
    public int importanceThreshold() {
        return importanceThreshold;
    }

    /** @return seconds between two comparisons of this server's timers with the schedules */
    public int syncSeconds() {
        return syncSeconds;
    }

    /** @return the cycle's limits */
    public DreamCycle.Limits limits() {
        return limits;
    }

    /** @return this server's identity in leases and reports */
    public String serverId() {
        return server.id();
    }

    /**
     * @return the fault to inject ({@value DreamSettings#FAULT}), read from the system properties now (so a test sets
     *         and clears it on a running server); "" when none
     */
    public String fault() {
        return System.getProperty(DreamSettings.FAULT, "").strip();
    }
}

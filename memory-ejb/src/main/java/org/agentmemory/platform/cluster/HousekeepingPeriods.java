package org.agentmemory.platform.cluster;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.agentmemory.api.config.HousekeepingSettings;
import org.eclipse.microprofile.config.Config;

/**
 * The periods of the housekeeping timers ({@link HousekeepingSettings}), read and checked once: each 1 to 31,536,000
 * seconds (a year); a value out of range fails the first bean that asks (the timers' beans, at deployment) with a
 * message naming the key.
 */
@ApplicationScoped
public class HousekeepingPeriods {

    /** Longest period, seconds: a year. */
    static final long MAX_SECONDS = 31_536_000L;

    @Inject
    Config config;

    private Map<String, Duration> periods;

    @PostConstruct
    void read() {
        periods = Map.of(
                HousekeepingSettings.OMISSION_PURGE,
                seconds(
                        HousekeepingSettings.OMISSION_PURGE_SECONDS,
                        HousekeepingSettings.Defaults.OMISSION_PURGE_SECONDS),
                HousekeepingSettings.EPISODE_EXPIRY,
                seconds(
                        HousekeepingSettings.EPISODE_EXPIRY_SECONDS,
                        HousekeepingSettings.Defaults.EPISODE_EXPIRY_SECONDS),
                HousekeepingSettings.IDLE_CONVERSATIONS,
                seconds(
                        HousekeepingSettings.IDLE_CONVERSATIONS_SECONDS,
                        HousekeepingSettings.Defaults.IDLE_CONVERSATIONS_SECONDS),
                HousekeepingSettings.AUDIT_RETENTION,
                seconds(
                        HousekeepingSettings.AUDIT_RETENTION_SECONDS,
                        HousekeepingSettings.Defaults.AUDIT_RETENTION_SECONDS),
                HousekeepingSettings.DB_STATISTICS,
                seconds(
                        HousekeepingSettings.DB_STATISTICS_SECONDS,
                        HousekeepingSettings.Defaults.DB_STATISTICS_SECONDS),
                HousekeepingSettings.SEARCH_MERGE,
                seconds(HousekeepingSettings.SEARCH_MERGE_SECONDS, HousekeepingSettings.Defaults.SEARCH_MERGE_SECONDS),
                SEARCH_QUIET_CHECK,
                seconds(
                        HousekeepingSettings.SEARCH_QUIET_CHECK_SECONDS,
                        HousekeepingSettings.Defaults.SEARCH_QUIET_CHECK_SECONDS));
    }

    /** Key of the quiet-merge check's period in {@link #period} (a timer, not a leased task). */
    public static final String SEARCH_QUIET_CHECK = "search-quiet-check";

    private Duration seconds(String key, long fallback) {
        long value = config.getOptionalValue(key, Long.class).orElse(fallback);
        if (value < 1 || value > MAX_SECONDS) {
            throw new IllegalStateException(key + " is " + value + "; it must be a number of seconds from 1 to "
                    + MAX_SECONDS + ". Default: " + fallback);
        }
        return Duration.ofSeconds(value);
    }

    /**
     * @param task a task name of {@link HousekeepingSettings}, or {@link #SEARCH_QUIET_CHECK}
     * @return its period
     * @throws IllegalArgumentException for another name
     */
    public Duration period(String task) {
        Duration period = periods.get(task);
        if (period == null) {
            throw new IllegalArgumentException("no housekeeping period for '" + task + "'");
        }
        return period;
    }
}

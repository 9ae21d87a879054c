package org.agentmemory.platform.cluster;

import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.agentmemory.platform.lease.LeaseRule;

/**
 * Creates the housekeeping beans' periodic timers: non-persistent interval timers (each server keeps its own; a
 * server that was down runs nothing to catch up) whose firings fall on the multiples of the period from the epoch
 * (UTC) plus an offset ({@link LeaseRule#firstDelay}), so that every server's timer fires at the same instants and
 * the lease decides which one runs.
 */
public final class HousekeepingTimers {

    private HousekeepingTimers() {}

    /**
     * @param timers the calling bean's timer service (its {@code @Timeout} method is called)
     * @param period the period, ≥ 1 ms
     * @param offset where in the period it fires, ≥ 0
     * @param info   the timer's info, which the {@code @Timeout} method may tell timers apart by
     */
    public static void arm(TimerService timers, Duration period, Duration offset, String info) {
        Instant now = Instant.now();
        Instant first = now.plus(LeaseRule.firstDelay(now, period, offset));
        timers.createIntervalTimer(Date.from(first), period.toMillis(), new TimerConfig(info, false));
    }
}

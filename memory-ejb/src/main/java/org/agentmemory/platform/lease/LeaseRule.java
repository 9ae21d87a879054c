package org.agentmemory.platform.lease;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * When a server may take the lease of a task that runs once per period across a cluster, and what taking it writes.
 *
 * <p>A server may take it when both hold:
 * <ol>
 *   <li>the lease is free or expired ({@code leaseUntil} is {@code null} or not after now): a holder that died while
 *       it ran blocks the others only until its lease expires;</li>
 *   <li>the last run started at least half a period ago, or the server itself took it last: the timers of two servers
 *       fire at the same instants (see {@link #firstDelay}), and a run that ended in 100 ms must not be repeated by a
 *       server whose timer fired 200 ms later. Half a period tolerates clocks and timers that drift by less than that;
 *       a server's own next run is spaced by its own timer (or, for work triggered otherwise, by its own policy).</li>
 * </ol>
 * Taking writes the holder, {@code leaseUntil = now + period} and {@code lastStarted = now}. Times are truncated to
 * microseconds, the precision of the database's timestamps, so that a release can name the run it ends by its start.
 */
public final class LeaseRule {

    private LeaseRule() {}

    /**
     * A lease row as the database holds it.
     *
     * @param holder      the server that took it last, or {@code null}
     * @param leaseUntil  when the lease expires, or {@code null} when it is free
     * @param lastStarted when the last run started, or {@code null}
     */
    public record Row(String holder, Instant leaseUntil, Instant lastStarted) {}

    /**
     * The parameters of one attempt to take a lease.
     *
     * @param now           the attempt's time (microseconds); the run's start when it succeeds
     * @param leaseUntil    when the lease taken now expires: {@code now + period}
     * @param startedBefore the latest start of the last run that lets another server run again: {@code now − period/2}
     */
    public record Attempt(Instant now, Instant leaseUntil, Instant startedBefore) {}

    /**
     * @param now    the time of the attempt
     * @param period the task's period, positive
     * @return the parameters of the attempt
     * @throws IllegalArgumentException when the period is not positive
     */
    public static Attempt attempt(Instant now, Duration period) {
        Objects.requireNonNull(now, "now");
        checkPeriod(period);
        Instant at = now.truncatedTo(ChronoUnit.MICROS);
        return new Attempt(at, at.plus(period), at.minus(period.dividedBy(2)));
    }

    /**
     * The rule the conditional UPDATE of {@code platform.cluster.LeaseStore} applies, for tests and explanations.
     *
     * @param row     the lease row
     * @param server  the server trying, not {@code null}
     * @param attempt the attempt's parameters
     * @return whether {@code server} may take the lease now
     */
    public static boolean mayTake(Row row, String server, Attempt attempt) {
        boolean free = row.leaseUntil() == null || !row.leaseUntil().isAfter(attempt.now());
        boolean spaced = row.lastStarted() == null
                || !row.lastStarted().isAfter(attempt.startedBefore())
                || server.equals(row.holder());
        return free && spaced;
    }

    /**
     * When a periodic timer fires first, so that the timers of every server fire at the same instants: the multiples of
     * the period counted from the epoch (UTC) plus {@code offset}. A period of 600 s fires at :00, :10, :20…; a day
     * with an offset of 3 h 17 min at 03:17 UTC.
     *
     * @param now    the time the timer is created
     * @param period the period, positive
     * @param offset where in the period it fires, ≥ 0 (taken modulo the period)
     * @return the delay before the first firing, in (0, period]
     * @throws IllegalArgumentException when the period is not positive or the offset negative
     */
    public static Duration firstDelay(Instant now, Duration period, Duration offset) {
        checkPeriod(period);
        if (offset.isNegative()) {
            throw new IllegalArgumentException("offset must be ≥ 0 but was " + offset);
        }
        long periodMs = period.toMillis();
        long sinceBoundary = Math.floorMod(now.toEpochMilli() - offset.toMillis() % periodMs, periodMs);
        return Duration.ofMillis(periodMs - sinceBoundary);
    }

    private static void checkPeriod(Duration period) {
        if (period == null || period.toMillis() <= 0) {
            throw new IllegalArgumentException("period must be at least 1 ms but was " + period);
        }
    }
}

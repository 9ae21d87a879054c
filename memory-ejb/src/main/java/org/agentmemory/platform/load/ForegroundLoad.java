package org.agentmemory.platform.load;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Foreground requests in flight, and how background embedding paces itself against them: embedding is the most
 * CPU-hungry work of the service (tens of milliseconds of CPU per message with the default model), and computing
 * vectors while
 * clients wait for their writes to commit would make every write slower. While requests are being served (or were
 * within the last {@value #QUIET_MS} ms) the embedder works in small batches and pauses after each one, so that it
 * keeps at most a configured share of one core ({@code memory.embedding.busy-share}); when the service is quiet it
 * runs at full speed and catches up. Thread-safe; no container types.
 */
public final class ForegroundLoad {

    /** How long after the last request ended the service still counts as busy, ms. */
    public static final long QUIET_MS = 250;

    private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(QUIET_MS);

    /** How much smaller the background share is while the foreground saturates the cores ({@link #busyShare}). */
    public static final int SATURATED_DIVISOR = 5;

    private final LongSupplier nanoClock;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong lastEnd;
    /** The summed duration of every request that has ended, ns (Little's law: its growth rate is the concurrency). */
    private final AtomicLong requestNanos = new AtomicLong();

    /** @param nanoClock a monotonic clock in nanoseconds, e.g. {@code System::nanoTime} */
    public ForegroundLoad(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.lastEnd = new AtomicLong(nanoClock.getAsLong() - QUIET_NANOS);
    }

    /**
     * A foreground request starts; pair every call with {@link #end(long)} in a {@code finally} block.
     *
     * @return the start, to pass to {@link #end(long)} (this load's clock, ns)
     */
    public long begin() {
        inFlight.incrementAndGet();
        return nanoClock.getAsLong();
    }

    /**
     * A foreground request ended (normally or not).
     *
     * @param started what {@link #begin()} returned for it
     */
    public void end(long started) {
        long now = nanoClock.getAsLong();
        requestNanos.addAndGet(Math.max(0, now - started));
        lastEnd.set(now);
        inFlight.decrementAndGet();
    }

    /**
     * A reading of the load, to measure the concurrency between two of them ({@link #concurrency}).
     *
     * @param atNanos      when it was taken (this load's clock, ns)
     * @param requestNanos the summed duration of the requests ended by then, ns
     */
    public record Sample(long atNanos, long requestNanos) {}

    /** @return a reading of the load now */
    public Sample sample() {
        return new Sample(nanoClock.getAsLong(), requestNanos.get());
    }

    /**
     * The mean number of requests in flight between two readings (Little's law: the request time that ended
     * between them over the time between them). A request still in flight at {@code to} counts once it ends, so
     * over short intervals, or with requests longer than the interval, the figure lags.
     *
     * @param from the earlier reading
     * @param to   the later reading
     * @return requests in flight on average, ≥ 0; 0 when no time passed
     */
    public static double concurrency(Sample from, Sample to) {
        long elapsed = to.atNanos() - from.atNanos();
        if (elapsed <= 0) {
            return 0;
        }
        return Math.max(0, to.requestNanos() - from.requestNanos()) / (double) elapsed;
    }

    /**
     * The share of one core background work keeps while the service is busy: the configured one, or a fifth of it
     * while the foreground saturates the machine, i.e. while requests were in flight on average at least as many
     * as there are cores: requests that are all waiting for one another leave no idle time to take that does not delay
     * them (docs/decisions/0006-background-embedding.md).
     *
     * @param configured  the configured share ({@code memory.embedding.busy-share}), in (0, 1]
     * @param concurrency requests in flight on average since the last batch ({@link #concurrency})
     * @param cores       the machine's cores, ≥ 1
     * @return the share to pace the next pause with, in (0, 1]
     */
    public static double busyShare(double configured, double concurrency, int cores) {
        return concurrency >= cores ? configured / SATURATED_DIVISOR : configured;
    }

    /** @return the number of foreground requests in flight now (≥ 0) */
    public int inFlight() {
        return Math.max(0, inFlight.get());
    }

    /** @return whether a request is in flight or ended less than {@value #QUIET_MS} ms ago */
    public boolean busy() {
        return inFlight.get() > 0 || nanoClock.getAsLong() - lastEnd.get() < QUIET_NANOS;
    }

    /**
     * The pause after a background batch that ran while the service was busy, so that the batch's work is at most
     * {@code share} of the time: a batch that took {@code t} is followed by {@code t × (1 − share) / share}.
     *
     * @param batchNanos how long the batch took, ns (≥ 0)
     * @param share the share of one core background work may keep while the service is busy, in (0, 1]; 1 means
     *        no pause
     * @return the pause in ms, ≥ 0
     * @throws IllegalArgumentException if {@code share} is not in (0, 1]
     */
    public static long busyPauseMillis(long batchNanos, double share) {
        if (!(share > 0 && share <= 1)) {
            throw new IllegalArgumentException("share must be in (0, 1]: " + share);
        }
        double pauseNanos = Math.max(0, batchNanos) * (1 - share) / share;
        return (long) Math.ceil(pauseNanos / 1e6);
    }

    /**
     * How long a background worker that must still pause waits before it looks at the load again: the rest of its
     * pause, but at most {@code lookMillis}, so that a long pause ({@link #busyPauseMillis} of a small share) does
     * not outlast the load it was computed under; once the service is quiet the worker resumes within
     * {@code lookMillis} instead of after the whole pause.
     *
     * @param remainingNanos what is left of the pause, ns (≤ 0 when it is over)
     * @param lookMillis     the longest wait before looking again, ms (≥ 1)
     * @return the wait in ms, from 1 to {@code lookMillis}
     * @throws IllegalArgumentException if {@code lookMillis} is below 1
     */
    public static long lookAgainMillis(long remainingNanos, long lookMillis) {
        if (lookMillis < 1) {
            throw new IllegalArgumentException("lookMillis must be >= 1: " + lookMillis);
        }
        long remainingMillis = remainingNanos <= 0 ? 1 : (long) Math.ceil(remainingNanos / 1e6);
        return Math.max(1, Math.min(lookMillis, remainingMillis));
    }
}

package org.agentmemory.health;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Bounds how many requests with a large body are read and processed at once, server-wide: parsing, normalising
 * and storing a body takes many times its size in heap, and a few concurrent large turns could run a small server
 * out of memory. The web module takes a {@link Permit} around each such request and closes it in a {@code finally}
 * block, so a slot is given back on every path: completion, error, a client that closes its socket mid-body, a
 * read timeout (issue 31 item 7). {@link LargeBodyReadiness} reports a limiter that stays saturated.
 *
 * <p>One instance per application (it lives in the EAR's {@code lib/}, seen by the web module and the health
 * checks alike). Thread-safe.
 */
@ApplicationScoped
public class LargeBodyLimiter {

    /** Requests with a large body processed at once. */
    public static final int PERMITS = 2;

    private final Semaphore slots;
    private final int permits;
    private final Clock clock;
    private final ConcurrentHashMap<Permit, Instant> held = new ConcurrentHashMap<>();

    /** The application's limiter: {@value #PERMITS} slots, the system clock. */
    public LargeBodyLimiter() {
        this(PERMITS, Clock.systemUTC());
    }

    /**
     * @param permits slots, ≥ 1
     * @param clock   the clock that times how long a slot is held
     * @throws IllegalArgumentException if {@code permits} is below 1
     */
    public LargeBodyLimiter(int permits, Clock clock) {
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be >= 1, was " + permits);
        }
        this.permits = permits;
        this.slots = new Semaphore(permits, true);
        this.clock = clock;
    }

    /**
     * Waits for a slot.
     *
     * @param wait the longest wait, not negative
     * @return the slot, to be closed when the request ends; empty when none was free in time (or the thread was
     *     interrupted, whose flag is then set again)
     */
    public Optional<Permit> acquire(Duration wait) {
        try {
            if (!slots.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS)) {
                return Optional.empty();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        Permit permit = new Permit();
        held.put(permit, clock.instant());
        return Optional.of(permit);
    }

    /** @return the limiter's state now */
    public Usage usage() {
        Instant now = clock.instant();
        long oldest = held.values().stream()
                .mapToLong(since -> Duration.between(since, now).toMillis())
                .max()
                .orElse(0);
        return new Usage(permits, slots.availablePermits(), held.size(), oldest);
    }

    /**
     * A snapshot of the limiter.
     *
     * @param permits      slots in all
     * @param free         slots free now
     * @param held         slots held now
     * @param oldestHeldMs how long the longest-held slot has been held, ms; 0 when none is
     */
    public record Usage(int permits, int free, int held, long oldestHeldMs) {

        /**
         * @param limit how long a full limiter may stay full
         * @return whether every slot is taken and one of them has been held longer than {@code limit}
         */
        public boolean stalled(Duration limit) {
            return free == 0 && oldestHeldMs > limit.toMillis();
        }
    }

    /** One held slot; closing it gives the slot back, once, however often it is closed. */
    public final class Permit implements AutoCloseable {
        private final AtomicBoolean open = new AtomicBoolean(true);

        private Permit() {}

        @Override
        public void close() {
            if (open.compareAndSet(true, false)) {
                held.remove(this);
                slots.release();
            }
        }
    }
}

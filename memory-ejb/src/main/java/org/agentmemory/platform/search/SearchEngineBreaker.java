package org.agentmemory.platform.search;

/**
 * A circuit breaker in front of the search cluster (issue 36 item 3): after a call found the cluster unreachable,
 * calls fail at once for {@code openMillis} instead of each waiting for the connection's timeouts; then one call is
 * let through to try the cluster again (half open), which closes the breaker when it succeeds or opens it again
 * when it fails. Thread-safe; time is passed in (milliseconds of any monotonic clock), so it is tested without
 * waiting.
 */
public final class SearchEngineBreaker {

    private final long openMillis;
    private long openUntil = Long.MIN_VALUE;
    private boolean probing;

    /** @param openMillis how long the breaker stays open after a failure, milliseconds (at least 1) */
    public SearchEngineBreaker(long openMillis) {
        this.openMillis = Math.max(1, openMillis);
    }

    /**
     * @param now the current time, milliseconds
     * @return 0 when a call may go to the cluster now, otherwise the milliseconds until one may
     */
    public synchronized long waitMillis(long now) {
        if (now >= openUntil) {
            if (openUntil == Long.MIN_VALUE) {
                return 0; // closed
            }
            if (!probing) {
                probing = true; // half open: this call tries the cluster
                return 0;
            }
            return Math.max(1, openMillis / 4); // another call is trying it
        }
        return openUntil - now;
    }

    /** A call reached the cluster: the breaker closes. */
    public synchronized void succeeded() {
        openUntil = Long.MIN_VALUE;
        probing = false;
    }

    /**
     * A call found the cluster unreachable: the breaker opens for {@code openMillis}.
     *
     * @param now the current time, milliseconds
     */
    public synchronized void failed(long now) {
        openUntil = now + openMillis;
        probing = false;
    }

    /** @return whether calls currently fail at once (open, not yet half open) */
    public synchronized boolean open(long now) {
        return openUntil != Long.MIN_VALUE && now < openUntil;
    }
}

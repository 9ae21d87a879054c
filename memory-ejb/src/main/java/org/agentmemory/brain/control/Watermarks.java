package org.agentmemory.brain.control;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;

/**
 * Where the next cycle starts collecting (spec §12.2 step 10): the newest creation time among the episodes this
 * cycle consolidated, but never past an episode left pending (a deferred or skipped group's): then one microsecond
 * before the oldest pending one, so the next cycle collects it again. Never {@code now()}; unchanged when nothing was
 * consolidated.
 */
public final class Watermarks {

    private Watermarks() {}

    /**
     * @param current      the watermark before the cycle, or {@code null} (never run)
     * @param consolidated creation times of the episodes consolidated this cycle
     * @param pending      creation times of the episodes left for a later cycle
     * @return the watermark after the cycle
     */
    public static Instant next(Instant current, Collection<Instant> consolidated, Collection<Instant> pending) {
        Instant newest = consolidated.stream().max(Instant::compareTo).orElse(null);
        if (newest == null) {
            return current;
        }
        Instant oldestPending = pending.stream()
                .filter(p -> !p.isAfter(newest))
                .min(Instant::compareTo)
                .orElse(null);
        Instant next = oldestPending == null ? newest : oldestPending.minus(1, ChronoUnit.MICROS);
        return current != null && current.isAfter(next) ? current : next;
    }
}

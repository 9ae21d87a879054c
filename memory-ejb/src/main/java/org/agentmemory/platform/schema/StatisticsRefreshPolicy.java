package org.agentmemory.platform.schema;

/**
 * When to refresh the database's planner statistics of the conversation tables ({@code memory.db.analyze-growth}):
 * after the turns written since the last refresh reach {@code max(minTurns, growth × turns at the last refresh)}, like
 * autovacuum's analyze threshold, but counted by the writer itself, so that a bulk import does not run minutes on
 * plans made for the tables it started from. One refresh at a time; a failed one doubles the threshold's base so
 * that a refresh the database keeps refusing is not retried after every batch. Thread-safe; no container types.
 */
public final class StatisticsRefreshPolicy {

    private final double growth;
    private final long minTurns;
    /** Turns in the table at the last refresh (0 before the first). */
    private long base;
    /** Turns written since the last refresh began. */
    private long written;

    private boolean running;

    /**
     * @param growth   the fraction of {@code base} to write before a refresh, ≥ 0; {@code 0} never refreshes
     * @param minTurns the fewest turns written between two refreshes, ≥ 1
     * @throws IllegalArgumentException when {@code growth} is negative or not finite, or {@code minTurns < 1}
     */
    public StatisticsRefreshPolicy(double growth, long minTurns) {
        if (!(growth >= 0) || Double.isInfinite(growth)) {
            throw new IllegalArgumentException("growth must be a finite number ≥ 0 but was " + growth);
        }
        if (minTurns < 1) {
            throw new IllegalArgumentException("minTurns must be ≥ 1 but was " + minTurns);
        }
        this.growth = growth;
        this.minTurns = minTurns;
    }

    /**
     * Counts turns written and says whether the caller should start a refresh now; when it answers {@code true},
     * the refresh counts as running until {@link #refreshed} or {@link #failed}.
     *
     * @param turns turns just written, ≥ 0
     * @return whether to refresh now
     */
    public synchronized boolean written(long turns) {
        written += Math.max(0, turns);
        if (growth == 0 || running || written < threshold()) {
            return false;
        }
        running = true;
        written = 0;
        return true;
    }

    /**
     * A refresh completed.
     *
     * @param turnsInTable the turn table's row count as the refresh saw it (an estimate is fine), ≥ 0
     */
    public synchronized void refreshed(long turnsInTable) {
        base = Math.max(0, turnsInTable);
        running = false;
    }

    /**
     * The refresh granted by the last {@link #written} that answered {@code true} was not started, because the
     * writes that asked for it rolled back: nothing is counted against the database, and the next refresh waits for
     * the threshold again.
     */
    public synchronized void cancelled() {
        running = false;
    }

    /** A refresh failed: the next one waits for twice the growth. */
    public synchronized void failed() {
        base = Math.max(base * 2, minTurns);
        running = false;
    }

    /** @return the turns to write before the next refresh */
    public synchronized long threshold() {
        return Math.max(minTurns, (long) Math.ceil(growth * base));
    }

    /** @return whether a refresh is running */
    public synchronized boolean running() {
        return running;
    }
}

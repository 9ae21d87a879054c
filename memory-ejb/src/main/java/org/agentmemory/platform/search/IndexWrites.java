package org.agentmemory.platform.search;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Counts the documents written to this server's search indexes (episodes and conversation messages inserted,
 * updated or deleted) since the last merge, and when the last one was written, so that the indexes can be merged
 * into one segment once a bulk write has ended ({@code memory.search.quiet-merge-writes}).
 *
 * <p>Why: every refresh during a bulk write flushes a small segment, and k-NN search walks one HNSW graph per
 * segment (docs/decisions/0007-index-merges.md). Without this, the index waits for the nightly merge
 * ({@code memory.search.merge-hour}). Thread-safe; no container types.
 */
public final class IndexWrites {

    /**
     * The deployment's counter, fed by {@link IndexWritesListener}. Static because the JPA provider, not CDI,
     * instantiates entity listeners; this class owns it, and its class loader is the deployment's.
     */
    public static final IndexWrites DEPLOYMENT = new IndexWrites(System::nanoTime);

    private final LongSupplier nanoClock;
    private final AtomicLong sinceMerge = new AtomicLong();
    private final AtomicLong lastWrite;

    /**
     * @param nanoClock a monotonic clock in nanoseconds ({@code System::nanoTime})
     */
    public IndexWrites(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.lastWrite = new AtomicLong(nanoClock.getAsLong());
    }

    /** Records one document written (inserted, updated or deleted). */
    public void record() {
        lastWrite.set(nanoClock.getAsLong());
        sinceMerge.incrementAndGet();
    }

    /** @return documents written since the last merge began (or since start-up) */
    public long sinceMerge() {
        return sinceMerge.get();
    }

    /**
     * Decides whether a merge is due and, when it is, starts counting again from zero.
     *
     * @param threshold  documents written since the last merge that make a merge worthwhile, ≥ 1
     * @param quietMillis how long no document may have been written, ms, ≥ 0
     * @return the documents counted when a merge is due (they are taken: the next call counts anew), or 0
     * @throws IllegalArgumentException when {@code threshold} &lt; 1 or {@code quietMillis} &lt; 0
     */
    public long takeIfDue(long threshold, long quietMillis) {
        if (threshold < 1 || quietMillis < 0) {
            throw new IllegalArgumentException(
                    "threshold " + threshold + " must be >= 1 and quiet time " + quietMillis + " ms >= 0");
        }
        long written = sinceMerge.get();
        if (written < threshold
                || nanoClock.getAsLong() - lastWrite.get() < TimeUnit.MILLISECONDS.toNanos(quietMillis)) {
            return 0;
        }
        // Writes recorded meanwhile stay counted for the next merge.
        sinceMerge.addAndGet(-written);
        return written;
    }

    /**
     * Gives documents back after a merge that could not start or failed, so that the next check counts them.
     *
     * @param written what {@link #takeIfDue} returned
     */
    public void giveBack(long written) {
        sinceMerge.addAndGet(written);
    }

    /** Forgets the count: a merge started by other means (an operator, the nightly timer, a reindex) covers it. */
    public void reset() {
        sinceMerge.set(0);
    }
}

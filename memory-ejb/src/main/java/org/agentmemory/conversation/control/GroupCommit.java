package org.agentmemory.conversation.control;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Group commit of concurrent writes: callers that arrive while a batch is being written queue up, and the next
 * of them to get a turn writes everything queued so far in one batch (one transaction, one set of statements, one
 * commit) for all of them. A caller that arrives when no batch is in progress writes its own item at once, so a
 * lone write waits for nothing; batches form only under concurrency, and grow with it. No thread of its own: the
 * callers take turns as writers (leader/follower). Thread-safe; no container types.
 *
 * <p>Further batches beside the one in progress (up to {@code maxWriters} at a time) start only once at least
 * {@code minExtraBatch} items are queued. A second writer overlaps its statements with the first one's waits for
 * the database (its commit above all); but every batch costs a transaction, a lock statement, a lookup and a
 * commit whatever its size, and a second writer that starts for every single item that arrives keeps batches at
 * one or two items (docs/decisions/0002-group-commit.md).
 *
 * <p>Commits overlap the next batch's statements: a writer that has sent all of its batch's statements says so
 * ({@link BatchWriter#write}'s {@code committing} callback), and from then on its batch, which only waits for the
 * database's answer to its commit, no longer counts against {@code maxWriters}; it still counts as a batch in
 * progress, so further batches still wait for {@code minExtraBatch} items and keep their size.
 *
 * <p>Waking: each caller waits on a condition of its own. A finished batch wakes the callers whose items it
 * wrote, and the caller at the head of the queue when a further batch may start (it writes the queue); a caller
 * whose item is still queued behind others sleeps on.
 *
 * <p>Failure isolation: when a batch fails as a whole, each of its items is written again on its own, so that
 * one bad item fails only its own caller and the others still get their results.
 *
 * @param <T> an item to write
 * @param <R> the result of writing one item
 */
public final class GroupCommit<T, R> {

    /**
     * Writes a batch in one unit of work.
     *
     * @param <T> item
     * @param <R> result
     */
    @FunctionalInterface
    public interface BatchWriter<T, R> {
        /**
         * @param batch      the items, in arrival order (1 to the batch limit)
         * @param committing to run once every statement of the batch has been sent and only its commit remains (the
         *                   next batch may then start beside it); optional, and harmless to run twice
         * @return one result per item, in the same order
         * @throws Exception when nothing of the batch was written
         */
        List<R> write(List<T> batch, Runnable committing) throws Exception;
    }

    private final int maxBatch;
    private final int maxWriters;
    private final int minExtraBatch;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Slot<T, R>> queue = new ArrayDeque<>();
    private int writers;
    /** Batches whose writer has said that only their commit remains ({@link BatchWriter#write}'s callback). */
    private int committingBatches;

    private long batches;
    private long items;

    /**
     * A group where every further batch starts as soon as one item is queued ({@code minExtraBatch} 1).
     *
     * @param maxBatch   the most items written in one batch, ≥ 1
     * @param maxWriters the most batches sending statements at the same time, ≥ 1 (1: one after the other; batches
     *                   that only wait for their commit are not counted)
     */
    public GroupCommit(int maxBatch, int maxWriters) {
        this(maxBatch, maxWriters, 1);
    }

    /**
     * @param maxBatch      the most items written in one batch, ≥ 1
     * @param maxWriters    the most batches sending statements at the same time, ≥ 1 (1: one after the other;
     *                      batches that only wait for their commit are not counted)
     * @param minExtraBatch the fewest queued items for which a batch starts while another one is in progress,
     *                      1 to {@code maxBatch}; with none in progress a single item is written at once
     * @throws IllegalArgumentException when a limit is out of its range
     */
    public GroupCommit(int maxBatch, int maxWriters, int minExtraBatch) {
        if (maxBatch < 1 || maxWriters < 1) {
            throw new IllegalArgumentException("maxBatch and maxWriters must be >= 1: " + maxBatch + ", " + maxWriters);
        }
        if (minExtraBatch < 1 || minExtraBatch > maxBatch) {
            throw new IllegalArgumentException("minExtraBatch must be in 1.." + maxBatch + ": " + minExtraBatch);
        }
        this.maxBatch = maxBatch;
        this.maxWriters = maxWriters;
        this.minExtraBatch = minExtraBatch;
    }

    /**
     * Writes an item, alone or in a batch with items of concurrent callers, and returns its result once the batch
     * that holds it is written. Waiting is not interruptible (it lasts at most one batch write); an interrupt
     * received meanwhile is kept as the thread's interrupt status.
     *
     * @param item   the item
     * @param writer writes a batch; every caller of one instance should pass an equivalent writer, since whichever
     *               caller is the writer at the time writes the items of the others with its own
     * @return the item's result
     * @throws Exception what writing the item alone threw, when its batch failed and so did the item on its own
     */
    public R submit(T item, BatchWriter<T, R> writer) throws Exception {
        Slot<T, R> slot = new Slot<>(item, lock.newCondition());
        lock.lock();
        try {
            queue.add(slot);
            while (!slot.done) {
                if (!mayStartBatch()) {
                    // Woken only when this item's batch is written, or when this item heads the queue and a batch
                    // may start ({@link #wakeNextWriter}); never by batches that hold neither.
                    slot.wake.awaitUninterruptibly();
                    continue;
                }
                writers++;
                List<Slot<T, R>> batch = new ArrayList<>(Math.min(queue.size(), maxBatch));
                while (!queue.isEmpty() && batch.size() < maxBatch) {
                    batch.add(queue.poll());
                }
                batches++;
                items += batch.size();
                // More than one batch's worth may have been queued: another writer can start at once.
                wakeNextWriter();
                lock.unlock();
                Commit commit = new Commit();
                try {
                    write(batch, writer, commit);
                } finally {
                    lock.lock();
                    if (commit.started) {
                        committingBatches--;
                    } else {
                        writers--;
                    }
                    for (Slot<T, R> written : batch) {
                        written.wake.signal();
                    }
                    wakeNextWriter();
                }
            }
        } finally {
            lock.unlock();
        }
        if (slot.failure != null) {
            throw slot.failure;
        }
        return slot.result;
    }

    /**
     * Whether a caller may start a batch now (under the lock): items are queued, fewer than {@code maxWriters}
     * batches are sending statements, and with any batch in progress (sending statements or committing), at least
     * {@code minExtraBatch} items wait.
     */
    private boolean mayStartBatch() {
        return !queue.isEmpty()
                && writers < maxWriters
                && (writers + committingBatches == 0 || queue.size() >= minExtraBatch);
    }

    /**
     * Wakes the caller whose item heads the queue when a batch may start (under the lock). One thread, not every
     * waiting caller: the others would wake, find nothing to do and sleep again, on cores the database's commit and
     * the next batch are waiting for.
     */
    private void wakeNextWriter() {
        if (mayStartBatch()) {
            queue.peek().wake.signal();
        }
    }

    /** @return how many items wait for a batch now (not counting the batch being written) */
    public int queued() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    /** @return {batches written, items written} since creation */
    public long[] counts() {
        lock.lock();
        try {
            return new long[] {batches, items};
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes a batch, and each item alone when the batch fails. The writing caller's interrupt status (its own
     * call's timeout, say) is cleared before each attempt and restored at the end: the items of the others it writes
     * must not fail because its own call was interrupted, whatever step of the write reacts to interrupts (waiting
     * for a pooled connection does).
     */
    private void write(List<Slot<T, R>> batch, BatchWriter<T, R> writer, Runnable committing) {
        boolean interrupted = Thread.interrupted();
        try {
            writeOrRetry(batch, writer, committing);
        } finally {
            if (interrupted || Thread.interrupted()) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void writeOrRetry(List<Slot<T, R>> batch, BatchWriter<T, R> writer, Runnable committing) {
        boolean interrupted = false;
        List<T> batchItems = new ArrayList<>(batch.size());
        batch.forEach(s -> batchItems.add(s.item));
        try {
            List<R> results = writer.write(batchItems, committing);
            if (results.size() != batch.size()) {
                throw new IllegalStateException(
                        "The writer returned " + results.size() + " results for " + batch.size() + " items");
            }
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).succeed(results.get(i));
            }
        } catch (Exception | Error batchFailed) {
            if (batch.size() == 1) {
                batch.get(0).fail(batchFailed);
                return;
            }
            for (Slot<T, R> slot : batch) {
                interrupted |= Thread.interrupted();
                try {
                    List<R> one = writer.write(List.of(slot.item), committing);
                    if (one.size() != 1) {
                        throw new IllegalStateException("The writer returned " + one.size() + " results for 1 item");
                    }
                    slot.succeed(one.get(0));
                } catch (Exception | Error alone) {
                    slot.fail(alone);
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The callback a batch's writer runs once only the batch's commit remains: from then on the batch waits for its
     * commit outside the {@code maxWriters} limit (it still counts as in progress for {@code minExtraBatch}), so that
     * the next batch can send its statements meanwhile. Takes effect once per batch; later runs do nothing. The items
     * of a failed batch, written again one by one, share it: the first of them to reach its commit gives the place
     * back.
     */
    private final class Commit implements Runnable {
        /** Guarded by the lock. */
        boolean started;

        @Override
        public void run() {
            lock.lock();
            try {
                if (!started) {
                    started = true;
                    writers--;
                    committingBatches++;
                    wakeNextWriter();
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * One caller's item, the condition its caller waits on, and, once written, its outcome (read under the lock
     * after {@code done}).
     */
    private static final class Slot<T, R> {
        final T item;
        final Condition wake;
        R result;
        Exception failure;
        volatile boolean done;

        Slot(T item, Condition wake) {
            this.item = item;
            this.wake = wake;
        }

        void succeed(R r) {
            result = r;
            done = true;
        }

        void fail(Throwable t) {
            failure = t instanceof Exception e ? e : new IllegalStateException(t.getMessage(), t);
            done = true;
        }
    }
}

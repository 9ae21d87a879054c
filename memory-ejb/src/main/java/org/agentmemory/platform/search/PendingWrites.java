package org.agentmemory.platform.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * Index writes that were submitted without waiting for them (deferred indexing of bulk imports), so that a
 * later call can wait for exactly the writes submitted before it. Pure: no container or search types.
 *
 * <p>A write counts as failed when its future completes exceptionally, when its result is reported as failed
 * by the predicate given to {@link #track}, or when it is still running at the end of {@link #awaitAll}'s
 * time limit. Thread-safe.
 */
public final class PendingWrites {

    private final Set<CompletableFuture<Boolean>> running = ConcurrentHashMap.newKeySet();

    /**
     * @param write  the future of one submitted write
     * @param failed tells whether a completed write's result reports a failure
     * @param <T>    the result type
     */
    public <T> void track(CompletableFuture<? extends T> write, Predicate<? super T> failed) {
        CompletableFuture<Boolean> ok = write.handle((result, error) -> error == null && !failed.test(result));
        running.add(ok);
        // Completed writes leave the set at once; a write completed before this line removes itself here.
        ok.whenComplete((r, e) -> running.remove(ok));
    }

    /** @return how many tracked writes have not completed yet */
    public int pending() {
        return running.size();
    }

    /**
     * Waits for every write tracked before this call (later ones are not waited for).
     *
     * @param timeoutMs the longest wait in total, in milliseconds (at least 0)
     * @return how many of the awaited writes failed or were still running when the time was up
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public int awaitAll(long timeoutMs) throws InterruptedException {
        if (timeoutMs < 0) {
            throw new IllegalArgumentException("timeoutMs must be >= 0: " + timeoutMs);
        }
        List<CompletableFuture<Boolean>> snapshot = new ArrayList<>(running);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        int failures = 0;
        for (CompletableFuture<Boolean> write : snapshot) {
            long left = Math.max(0, deadline - System.nanoTime());
            try {
                if (!write.get(left, TimeUnit.NANOSECONDS)) {
                    failures++;
                }
            } catch (TimeoutException | ExecutionException e) {
                failures++;
            }
        }
        return failures;
    }
}

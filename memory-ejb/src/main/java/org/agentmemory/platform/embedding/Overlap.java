package org.agentmemory.platform.embedding;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Runs a piece of work on another thread while the caller does something else, without ever waiting for a
 * busy pool: whoever gets to the work first runs it, the pool's thread or the caller at {@link #join()}. Pure.
 *
 * <p>Hybrid recall uses it to embed the query (CPU-bound, several ms) while the full-text leg runs: the
 * recall's latency becomes the longer of the two instead of their sum when a core is free, and stays the sum
 * (never worse) when the pool is saturated, because a task still queued at {@code join()} runs inline and
 * its queued copy finds nothing to do.
 *
 * @param <T> the result type
 */
public final class Overlap<T> {

    private final Supplier<T> work;
    private final AtomicBoolean claimed = new AtomicBoolean();
    private final CompletableFuture<T> result = new CompletableFuture<>();

    private Overlap(Supplier<T> work) {
        this.work = work;
    }

    /**
     * @param work     what to compute; must not need the caller's thread (no entity manager, no transaction)
     * @param executor where to start it; a rejection is not an error (the caller runs it at {@link #join()})
     * @param <T>      the result type
     * @return the started overlap
     */
    public static <T> Overlap<T> start(Supplier<T> work, Executor executor) {
        Overlap<T> overlap = new Overlap<>(work);
        if (executor != null) {
            try {
                executor.execute(overlap::runIfUnclaimed);
            } catch (RejectedExecutionException busy) {
                // join() runs it
            }
        }
        return overlap;
    }

    private void runIfUnclaimed() {
        if (claimed.compareAndSet(false, true)) {
            try {
                result.complete(work.get());
            } catch (RuntimeException | Error e) {
                result.completeExceptionally(e);
            }
        }
    }

    /**
     * @return the result, computed on the caller's thread now if no pool thread has started it
     * @throws RuntimeException what the work threw, unwrapped
     */
    public T join() {
        runIfUnclaimed();
        try {
            return result.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }
}

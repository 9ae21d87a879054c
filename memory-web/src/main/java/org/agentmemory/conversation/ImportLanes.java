package org.agentmemory.conversation;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * Splits a stream of import lines into lanes that are stored in parallel, in batches. Every line of one
 * conversation goes to the same lane (the caller passes the conversation key's hash), and a lane stores its
 * batches one after the other, so the turns of a conversation keep their line order; different lanes hold
 * different conversations, so their transactions never wait for each other's row locks.
 *
 * <p>Memory is bounded: a lane has at most one batch being stored while the next one fills; a full batch waits
 * for its lane's previous batch before it is handed to the executor. With one lane and a direct executor the
 * batches are stored by the calling thread, as a plain loop would. Pure: no container types. Not thread-safe
 * (one reader thread adds lines); {@code store} runs on the executor's threads and must be thread-safe.
 *
 * @param <T> the line type
 */
final class ImportLanes<T> {

    private final int batchSize;
    private final long batchWeight;
    private final long[] weights;
    private final Executor executor;
    private final Consumer<List<T>> store;
    private final List<List<T>> filling = new ArrayList<>();
    private final List<CompletableFuture<Void>> storing = new ArrayList<>();

    /**
     * @param lanes     how many batches may be stored at once (1–64)
     * @param batchSize lines per batch (at least 1)
     * @param executor  runs {@code store}
     * @param store     stores one batch, in a transaction of its own
     */
    ImportLanes(int lanes, int batchSize, Executor executor, Consumer<List<T>> store) {
        this(lanes, batchSize, Long.MAX_VALUE, executor, store);
    }

    /**
     * @param lanes       how many batches may be stored at once (1–64)
     * @param batchSize   lines per batch (at least 1)
     * @param batchWeight a batch is handed over as soon as its lines weigh this much (bytes, say), even with
     *                    fewer than {@code batchSize} lines; at least 1
     * @param executor    runs {@code store}
     * @param store       stores one batch, in a transaction of its own
     */
    ImportLanes(int lanes, int batchSize, long batchWeight, Executor executor, Consumer<List<T>> store) {
        if (lanes < 1 || lanes > 64) {
            throw new IllegalArgumentException("lanes must be between 1 and 64: " + lanes);
        }
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be at least 1: " + batchSize);
        }
        if (batchWeight < 1) {
            throw new IllegalArgumentException("batchWeight must be at least 1: " + batchWeight);
        }
        this.batchSize = batchSize;
        this.batchWeight = batchWeight;
        this.weights = new long[lanes];
        this.executor = executor;
        this.store = store;
        for (int i = 0; i < lanes; i++) {
            filling.add(new ArrayList<>());
            storing.add(CompletableFuture.completedFuture(null));
        }
    }

    /**
     * Adds a line to its lane; hands the lane's batch over when it is full (waiting first for the lane's previous
     * batch).
     *
     * @param conversationHash the hash of the line's conversation key: equal keys, equal lanes
     * @param line             the line
     * @throws RuntimeException what an earlier batch of this lane threw while being stored
     */
    void add(int conversationHash, T line) {
        add(conversationHash, line, 0);
    }

    /**
     * As {@link #add(int, Object)}, with the line's weight counted against the batch weight.
     *
     * @param conversationHash the hash of the line's conversation key
     * @param line             the line
     * @param weight           its weight (bytes of its text, say), ≥ 0
     */
    void add(int conversationHash, T line, long weight) {
        int lane = Math.floorMod(conversationHash, filling.size());
        List<T> batch = filling.get(lane);
        batch.add(line);
        weights[lane] += weight;
        if (batch.size() >= batchSize || weights[lane] >= batchWeight) {
            submit(lane);
        }
    }

    /**
     * Hands over every partly filled batch and waits until all batches are stored.
     *
     * @throws RuntimeException the first failure of a batch, unwrapped
     */
    void finish() {
        for (int lane = 0; lane < filling.size(); lane++) {
            if (!filling.get(lane).isEmpty()) {
                submit(lane);
            }
        }
        for (int lane = 0; lane < storing.size(); lane++) {
            join(storing.get(lane));
        }
    }

    private void submit(int lane) {
        List<T> batch = List.copyOf(filling.get(lane));
        filling.get(lane).clear();
        weights[lane] = 0;
        join(storing.get(lane));
        storing.set(lane, CompletableFuture.runAsync(() -> store.accept(batch), executor));
    }

    private static void join(CompletableFuture<Void> future) {
        try {
            future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }
}

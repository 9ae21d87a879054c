package org.agentmemory.conversation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ImportLanesTest {

    /** A line of conversation {@code conversation}, number {@code n} in the input. */
    private record Line(int conversation, int n) {}

    @Test
    void everyLineIsStoredOnceAndEachConversationKeepsItsOrder() {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            Map<Integer, List<Integer>> stored = new ConcurrentHashMap<>();
            List<Integer> batchSizes = new CopyOnWriteArrayList<>();
            ImportLanes<Line> lanes = new ImportLanes<>(3, 7, pool, batch -> {
                batchSizes.add(batch.size());
                sleep(1);
                for (Line line : batch) {
                    stored.computeIfAbsent(line.conversation(), c -> Collections.synchronizedList(new ArrayList<>()))
                            .add(line.n());
                }
            });
            for (int n = 0; n < 1_000; n++) {
                int conversation = (n * 31) % 23;
                lanes.add(Integer.hashCode(conversation), new Line(conversation, n));
            }
            lanes.finish();
            assertThat(stored.values().stream().mapToInt(List::size).sum()).isEqualTo(1_000);
            stored.forEach((conversation, ns) ->
                    assertThat(ns).as("conversation %d", conversation).isSorted());
            assertThat(batchSizes).allSatisfy(size -> assertThat(size).isBetween(1, 7));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aLaneNeverStoresTwoBatchesAtOnceAndLanesRunInParallel() {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            int lanesCount = 2;
            AtomicInteger[] running = {new AtomicInteger(), new AtomicInteger()};
            AtomicInteger mostAtOnce = new AtomicInteger();
            AtomicInteger total = new AtomicInteger();
            AtomicInteger overlapWithinLane = new AtomicInteger();
            ImportLanes<Line> lanes = new ImportLanes<>(lanesCount, 5, pool, batch -> {
                int lane = Math.floorMod(batch.get(0).conversation(), lanesCount);
                if (running[lane].incrementAndGet() > 1) {
                    overlapWithinLane.incrementAndGet();
                }
                mostAtOnce.accumulateAndGet(running[0].get() + running[1].get(), Math::max);
                sleep(5);
                total.addAndGet(batch.size());
                running[lane].decrementAndGet();
            });
            for (int n = 0; n < 400; n++) {
                lanes.add(n % 2, new Line(n % 2, n));
            }
            lanes.finish();
            assertThat(total.get()).isEqualTo(400);
            assertThat(overlapWithinLane.get()).isZero();
            assertThat(mostAtOnce.get()).isEqualTo(2);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void oneLaneWithADirectExecutorStoresOnTheCallingThreadInOrder() {
        List<Integer> stored = new ArrayList<>();
        Thread caller = Thread.currentThread();
        ImportLanes<Line> lanes = new ImportLanes<>(1, 3, Runnable::run, batch -> {
            assertThat(Thread.currentThread()).isSameAs(caller);
            batch.forEach(line -> stored.add(line.n()));
        });
        for (int n = 0; n < 10; n++) {
            lanes.add(n * 7919, new Line(n, n));
        }
        assertThat(stored).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8);
        lanes.finish();
        assertThat(stored).hasSize(10).isSorted();
    }

    @Test
    void aHeavyBatchIsHandedOverBeforeItHasAllItsLines() {
        List<List<Integer>> batches = new ArrayList<>();
        ImportLanes<Integer> lanes = new ImportLanes<>(1, 100, 10, Runnable::run, batches::add);
        for (int i = 0; i < 7; i++) {
            lanes.add(0, i, i == 2 || i == 5 ? 6 : 1);
        }
        lanes.finish();
        // 1+1+6 = 8 < 10 … +1 = 9, +1 = 10 → handed over at line 4; then 6+1 = 7 with line 6 left for finish().
        assertThat(batches).containsExactly(List.of(0, 1, 2, 3, 4), List.of(5, 6));
    }

    @Test
    void aFailedBatchSurfacesUnwrapped() {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            ImportLanes<Line> lanes = new ImportLanes<>(2, 2, pool, batch -> {
                if (batch.get(0).n() >= 4) {
                    throw new IllegalStateException("database gone");
                }
            });
            assertThatThrownBy(() -> {
                        for (int n = 0; n < 20; n++) {
                            lanes.add(0, new Line(0, n));
                        }
                        lanes.finish();
                    })
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("database gone");
            assertThatThrownBy(() -> new ImportLanes<Line>(0, 1, pool, b -> {}))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> new ImportLanes<Line>(1, 0, pool, b -> {}))
                    .isInstanceOf(IllegalArgumentException.class);
        } finally {
            pool.shutdownNow();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

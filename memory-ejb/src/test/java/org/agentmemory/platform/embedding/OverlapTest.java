package org.agentmemory.platform.embedding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class OverlapTest {

    @Test
    void runsOnThePoolWhileTheCallerWorks() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            CountDownLatch started = new CountDownLatch(1);
            Overlap<String> overlap = Overlap.start(
                    () -> {
                        started.countDown();
                        return Thread.currentThread().getName();
                    },
                    pool);
            assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(overlap.join()).isNotEqualTo(Thread.currentThread().getName());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aTaskStillQueuedRunsOnceInlineAndItsQueuedCopyDoesNothing() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            CountDownLatch release = new CountDownLatch(1);
            pool.execute(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            AtomicInteger runs = new AtomicInteger();
            Overlap<String> overlap = Overlap.start(
                    () -> {
                        runs.incrementAndGet();
                        return Thread.currentThread().getName();
                    },
                    pool);
            assertThat(overlap.join()).isEqualTo(Thread.currentThread().getName());
            release.countDown();
            pool.shutdown();
            assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
            assertThat(runs).hasValue(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void withoutAnExecutorOrWhenRejectedItRunsInline() {
        assertThat(Overlap.start(() -> 42, null).join()).isEqualTo(42);
        assertThat(Overlap.start(() -> 7, command -> {
                            throw new java.util.concurrent.RejectedExecutionException("full");
                        })
                        .join())
                .isEqualTo(7);
    }

    @Test
    void failuresReachTheCallerUnwrapped() {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Overlap<String> overlap = Overlap.start(
                    () -> {
                        throw new IllegalStateException("model failed");
                    },
                    pool);
            assertThatThrownBy(overlap::join)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("model failed");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void manyConcurrentOverlapsEachRunExactlyOnce() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        ExecutorService callers = Executors.newFixedThreadPool(4);
        try {
            AtomicInteger runs = new AtomicInteger();
            List<java.util.concurrent.Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                int value = i;
                results.add(callers.submit(() -> Overlap.start(
                                () -> {
                                    runs.incrementAndGet();
                                    return value;
                                },
                                pool)
                        .join()));
            }
            for (int i = 0; i < results.size(); i++) {
                assertThat(results.get(i).get(10, TimeUnit.SECONDS)).isEqualTo(i);
            }
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(runs).hasValue(2_000);
        } finally {
            pool.shutdownNow();
            callers.shutdownNow();
        }
    }
}

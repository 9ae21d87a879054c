package org.agentmemory.platform.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PendingWritesTest {

    @Test
    void waitsForEveryWriteTrackedBeforeTheCallAndCountsFailures() throws Exception {
        PendingWrites writes = new PendingWrites();
        CompletableFuture<String> ok = new CompletableFuture<>();
        CompletableFuture<String> reportedFailed = new CompletableFuture<>();
        CompletableFuture<String> thrown = new CompletableFuture<>();
        writes.track(ok, "failed"::equals);
        writes.track(reportedFailed, "failed"::equals);
        writes.track(thrown, "failed"::equals);
        assertThat(writes.pending()).isEqualTo(3);

        ExecutorService completer = Executors.newSingleThreadExecutor();
        try {
            completer.submit(() -> {
                sleep(100);
                ok.complete("ok");
                reportedFailed.complete("failed");
                thrown.completeExceptionally(new IllegalStateException("index down"));
            });
            long start = System.nanoTime();
            assertThat(writes.awaitAll(10_000)).isEqualTo(2);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(90);
            assertThat(writes.pending()).isZero();
        } finally {
            completer.shutdownNow();
        }
    }

    @Test
    void writesTrackedAfterTheCallAreNotWaitedFor() throws Exception {
        PendingWrites writes = new PendingWrites();
        CompletableFuture<String> first = new CompletableFuture<>();
        writes.track(first, s -> false);
        CountDownLatch waiting = new CountDownLatch(1);
        AtomicInteger result = new AtomicInteger(-1);
        Thread waiter = new Thread(() -> {
            waiting.countDown();
            try {
                result.set(writes.awaitAll(10_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        waiter.start();
        waiting.await();
        sleep(50);
        CompletableFuture<String> later = new CompletableFuture<>();
        writes.track(later, s -> false);
        first.complete("ok");
        waiter.join(5_000);
        assertThat(waiter.isAlive()).isFalse();
        assertThat(result.get()).isZero();
        assertThat(writes.pending()).isEqualTo(1);
        later.complete("ok");
        assertThat(writes.pending()).isZero();
    }

    @Test
    void aWriteStillRunningWhenTheTimeIsUpCountsAsFailed() throws Exception {
        PendingWrites writes = new PendingWrites();
        writes.track(new CompletableFuture<String>(), s -> false);
        CompletableFuture<String> done = CompletableFuture.completedFuture("ok");
        writes.track(done, s -> false);
        assertThat(writes.pending()).isEqualTo(1);
        assertThat(writes.awaitAll(50)).isEqualTo(1);
        assertThatThrownBy(() -> writes.awaitAll(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void concurrentTrackingAndCompletionLeavesNothingBehind() throws Exception {
        PendingWrites writes = new PendingWrites();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<CompletableFuture<Integer>> all = new ArrayList<>();
        try {
            for (int i = 0; i < 8_000; i++) {
                CompletableFuture<Integer> f = new CompletableFuture<>();
                all.add(f);
                int n = i;
                pool.submit(() -> {
                    writes.track(f, v -> v % 100 == 0);
                    f.complete(n);
                });
            }
            pool.shutdown();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            assertThat(writes.pending()).isZero();
            assertThat(writes.awaitAll(1_000)).isZero();
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

package org.agentmemory.platform.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BackgroundPriorityTest {

    @Test
    void threadIdsAreReadFromProcThreadSelf() {
        assertThat(BackgroundPriority.threadId("4711/task/4720")).hasValue(4720);
        assertThat(BackgroundPriority.threadId("4711")).isEmpty();
        assertThat(BackgroundPriority.threadId("4711/fd/3")).isEmpty();
        assertThat(BackgroundPriority.threadId("4711/task/x")).isEmpty();
        assertThat(BackgroundPriority.threadId("4711/task/-3")).isEmpty();
    }

    /**
     * Where there is no Linux thread id (another OS), nothing can be lowered: the call says so and the pool's
     * threads still run their tasks at their normal priority.
     */
    @Test
    void withoutLinuxThreadIdsNothingIsLoweredAndTasksStillRun() throws Exception {
        if (BackgroundPriority.currentThreadId().isPresent()) {
            assertThat(BackgroundPriority.niceOf(
                            BackgroundPriority.currentThreadId().getAsInt()))
                    .isPresent();
            return; // Linux: covered by the two tests below
        }
        ExecutorService pool =
                Executors.newFixedThreadPool(1, BackgroundPriority.lowered(Executors.defaultThreadFactory()));
        try {
            assertThat(CompletableFuture.supplyAsync(BackgroundPriority::lowerCurrentThread, pool)
                            .get(10, TimeUnit.SECONDS))
                    .isFalse();
            assertThat(CompletableFuture.supplyAsync(() -> 6 * 7, pool).get(10, TimeUnit.SECONDS))
                    .isEqualTo(42);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void loweredThreadsRunAtNiceNineteenAndOthersKeepTheirPriority() throws Exception {
        OptionalInt self = BackgroundPriority.currentThreadId();
        if (self.isEmpty()) {
            assertThat(BackgroundPriority.lowerCurrentThread())
                    .as("nothing to lower outside Linux")
                    .isFalse();
            return;
        }
        int before = BackgroundPriority.niceOf(self.getAsInt()).orElseThrow();
        ExecutorService pool =
                Executors.newFixedThreadPool(2, BackgroundPriority.lowered(Executors.defaultThreadFactory()));
        try {
            for (int i = 0; i < 4; i++) {
                CompletableFuture<int[]> seen = CompletableFuture.supplyAsync(
                        () -> {
                            int tid = BackgroundPriority.currentThreadId().orElseThrow();
                            return new int[] {
                                tid, BackgroundPriority.niceOf(tid).orElseThrow()
                            };
                        },
                        pool);
                int[] tidAndNice = seen.get(10, TimeUnit.SECONDS);
                assertThat(tidAndNice[0]).isNotEqualTo(self.getAsInt());
                assertThat(tidAndNice[1])
                        .as("nice value of a lowered pool thread")
                        .isEqualTo(BackgroundPriority.NICE);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(BackgroundPriority.niceOf(self.getAsInt()))
                .as("the caller's own priority")
                .hasValue(before);
    }

    @Test
    void aThreadLowersOnlyItself() throws Exception {
        OptionalInt self = BackgroundPriority.currentThreadId();
        if (self.isEmpty()) {
            assertThat(BackgroundPriority.lowerCurrentThread())
                    .as("nothing to lower outside Linux")
                    .isFalse();
            return;
        }
        int before = BackgroundPriority.niceOf(self.getAsInt()).orElseThrow();
        int[] other = new int[2];
        Thread t = new Thread(() -> {
            boolean lowered = BackgroundPriority.lowerCurrentThread();
            int tid = BackgroundPriority.currentThreadId().orElseThrow();
            other[0] = lowered ? 1 : 0;
            other[1] = BackgroundPriority.niceOf(tid).orElseThrow();
        });
        t.start();
        t.join(10_000);
        assertThat(other[0]).isEqualTo(1);
        assertThat(other[1]).isEqualTo(BackgroundPriority.NICE);
        assertThat(BackgroundPriority.niceOf(self.getAsInt())).hasValue(before);
    }
}

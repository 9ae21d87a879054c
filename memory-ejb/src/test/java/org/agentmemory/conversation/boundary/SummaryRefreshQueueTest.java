package org.agentmemory.conversation.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.agentmemory.conversation.control.TurnsDropped;
import org.junit.jupiter.api.Test;

/** One Stage 2 refresh per conversation at a time, and no event lost (issue 35 item 4). */
class SummaryRefreshQueueTest {

    private static TurnsDropped event(long conversation, String turn) {
        return new TurnsDropped("t", conversation, turn, 1);
    }

    @Test
    void aRunningRefreshTakesTheNewestEventLeftMeanwhile() {
        SummaryRefreshQueue queue = new SummaryRefreshQueue();
        assertThat(queue.offer(event(1, "a"))).isTrue();
        assertThat(queue.offer(event(1, "b"))).as("runs already").isFalse();
        assertThat(queue.offer(event(1, "c"))).isFalse();
        assertThat(queue.offer(event(2, "x"))).as("another conversation").isTrue();

        assertThat(queue.next(1).turnId()).isEqualTo("c");
        assertThat(queue.next(1)).isNull();
        assertThat(queue.offer(event(1, "d"))).as("released").isTrue();
        assertThat(queue.next(1).turnId()).isEqualTo("d");
        assertThat(queue.next(1)).isNull();
        assertThat(queue.next(2).turnId()).isEqualTo("x");
    }

    @Test
    void underConcurrentOffersEveryEventIsRunOrSupersededAndNeverTwoRunnersAtOnce() throws Exception {
        SummaryRefreshQueue queue = new SummaryRefreshQueue();
        AtomicInteger runners = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<String> ran = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch start = new CountDownLatch(1);
        int offers = 2_000;
        for (int i = 0; i < offers; i++) {
            String turn = "t" + i;
            pool.submit(() -> {
                start.await();
                if (queue.offer(event(7, turn))) {
                    for (TurnsDropped next = queue.next(7); next != null; next = queue.next(7)) {
                        most.accumulateAndGet(runners.incrementAndGet(), Math::max);
                        ran.add(next.turnId());
                        runners.decrementAndGet();
                    }
                }
                return null;
            });
        }
        start.countDown();
        pool.shutdown();
        assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();

        assertThat(most).hasValue(1);
        assertThat(ran).isNotEmpty().hasSizeLessThanOrEqualTo(offers);
        // nothing is left behind: the conversation is free and holds no event
        assertThat(queue.offer(event(7, "last"))).isTrue();
        assertThat(queue.next(7).turnId()).isEqualTo("last");
        assertThat(queue.next(7)).isNull();
    }
}

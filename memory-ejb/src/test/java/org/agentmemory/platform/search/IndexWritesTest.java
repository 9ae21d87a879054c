package org.agentmemory.platform.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class IndexWritesTest {

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final IndexWrites writes = new IndexWrites(clock::get);

    private void advanceMillis(long ms) {
        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
    }

    @Test
    void aMergeIsDueOnlyAfterEnoughWritesAndAQuietPeriod() {
        for (int i = 0; i < 99; i++) {
            writes.record();
        }
        advanceMillis(120_000);
        assertThat(writes.takeIfDue(100, 60_000)).as("too few writes").isZero();

        writes.record();
        advanceMillis(59_999);
        assertThat(writes.takeIfDue(100, 60_000)).as("not quiet long enough").isZero();
        advanceMillis(1);
        assertThat(writes.takeIfDue(100, 60_000)).isEqualTo(100);

        assertThat(writes.sinceMerge()).as("taken: counting starts anew").isZero();
        advanceMillis(600_000);
        assertThat(writes.takeIfDue(100, 60_000)).isZero();
    }

    @Test
    void aMergeThatDidNotRunGivesItsWritesBack() {
        for (int i = 0; i < 10; i++) {
            writes.record();
        }
        advanceMillis(1_000);
        long taken = writes.takeIfDue(10, 1_000);
        assertThat(taken).isEqualTo(10);
        writes.record(); // written while the merge was being started
        writes.giveBack(taken);
        assertThat(writes.sinceMerge()).isEqualTo(11);
        writes.reset();
        assertThat(writes.sinceMerge()).isZero();
    }

    @Test
    void concurrentWritesAreAllCounted() throws InterruptedException {
        Thread[] threads = new Thread[8];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 10_000; i++) {
                    writes.record();
                }
            });
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(writes.sinceMerge()).isEqualTo(80_000);
    }

    @Test
    void badArgumentsAreRejected() {
        assertThatThrownBy(() -> writes.takeIfDue(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> writes.takeIfDue(1, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}

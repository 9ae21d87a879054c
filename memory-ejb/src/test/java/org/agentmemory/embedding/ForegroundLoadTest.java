package org.agentmemory.embedding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class ForegroundLoadTest {

    private static final long MS = 1_000_000L;

    @Test
    void quietAtStartBusyWhileInFlightAndForTheQuietPeriodAfter() {
        AtomicLong clock = new AtomicLong(-5_000 * MS); // nanoTime may be negative
        ForegroundLoad load = new ForegroundLoad(clock::get);
        assertThat(load.busy()).isFalse();

        load.begin();
        clock.addAndGet(10_000 * MS); // a long request is still busy however long it takes
        assertThat(load.busy()).isTrue();
        assertThat(load.inFlight()).isEqualTo(1);
        load.end();
        assertThat(load.inFlight()).isZero();

        clock.addAndGet((ForegroundLoad.QUIET_MS - 1) * MS);
        assertThat(load.busy()).isTrue();
        clock.addAndGet(1 * MS);
        assertThat(load.busy()).isFalse();
    }

    @Test
    void overlappingRequestsStayBusyUntilTheLastEnds() {
        AtomicLong clock = new AtomicLong();
        ForegroundLoad load = new ForegroundLoad(clock::get);
        load.begin();
        load.begin();
        load.end();
        clock.addAndGet(ForegroundLoad.QUIET_MS * 10 * MS);
        assertThat(load.busy()).isTrue();
        load.end();
        clock.addAndGet(ForegroundLoad.QUIET_MS * MS);
        assertThat(load.busy()).isFalse();
    }

    @Test
    void concurrentRequestsBalanceToZero() throws Exception {
        ForegroundLoad load = new ForegroundLoad(System::nanoTime);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            Thread thread = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < 10_000; i++) {
                    load.begin();
                    load.end();
                }
            });
            threads.add(thread);
            thread.start();
        }
        go.countDown();
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertThat(load.inFlight()).isZero();
    }

    @Test
    void pauseKeepsTheBatchAtItsShareOfTheTime() {
        // 80 ms of work at a quarter of a core: 240 ms pause, so 80 / (80 + 240) = 25 %.
        assertThat(ForegroundLoad.busyPauseMillis(80 * MS, 0.25)).isEqualTo(240);
        assertThat(ForegroundLoad.busyPauseMillis(80 * MS, 0.5)).isEqualTo(80);
        assertThat(ForegroundLoad.busyPauseMillis(80 * MS, 1.0)).isZero();
        assertThat(ForegroundLoad.busyPauseMillis(0, 0.25)).isZero();
        assertThat(ForegroundLoad.busyPauseMillis(-1, 0.25)).isZero();
        assertThat(ForegroundLoad.busyPauseMillis(1, 0.25)).isEqualTo(1); // rounds up, never a busy loop of 0 ms
    }

    @Test
    void shareOutsideItsRangeIsRefused() {
        assertThatThrownBy(() -> ForegroundLoad.busyPauseMillis(MS, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ForegroundLoad.busyPauseMillis(MS, 1.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ForegroundLoad.busyPauseMillis(MS, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aLongBusyPauseIsWaitedOutInShortLooksSoThatQuietCatchUpStartsSoon() {
        // 49 s left of a pause (a 1 s batch at a share of 0.02): look again after 500 ms, not 49 s.
        assertThat(ForegroundLoad.lookAgainMillis(49_000_000_000L, 500)).isEqualTo(500);
        assertThat(ForegroundLoad.lookAgainMillis(120_400_000L, 500)).isEqualTo(121);
        assertThat(ForegroundLoad.lookAgainMillis(1, 500)).isEqualTo(1);
        assertThat(ForegroundLoad.lookAgainMillis(0, 500)).isEqualTo(1);
        assertThat(ForegroundLoad.lookAgainMillis(-5_000_000L, 500)).isEqualTo(1);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ForegroundLoad.lookAgainMillis(10, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lookMillis");
    }
}

package org.agentmemory.platform.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

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

        long started = load.begin();
        clock.addAndGet(10_000 * MS); // a long request is still busy however long it takes
        assertThat(load.busy()).isTrue();
        assertThat(load.inFlight()).isEqualTo(1);
        load.end(started);
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
        long first = load.begin();
        long second = load.begin();
        load.end(first);
        clock.addAndGet(ForegroundLoad.QUIET_MS * 10 * MS);
        assertThat(load.busy()).isTrue();
        load.end(second);
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
                    load.end(load.begin());
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
    void concurrencyIsTheRequestTimeEndedBetweenTwoSamplesOverTheTimeBetweenThem() {
        AtomicLong clock = new AtomicLong(-1_000 * MS);
        ForegroundLoad load = new ForegroundLoad(clock::get);
        ForegroundLoad.Sample start = load.sample();
        // 1 s: four clients back to back, 100 ms per request, always 4 in flight.
        for (int round = 0; round < 10; round++) {
            long[] started = {load.begin(), load.begin(), load.begin(), load.begin()};
            clock.addAndGet(100 * MS);
            for (long s : started) {
                load.end(s);
            }
        }
        ForegroundLoad.Sample busy = load.sample();
        assertThat(ForegroundLoad.concurrency(start, busy)).isCloseTo(4.0, within(1e-9));

        // 1 s with one request of 50 ms: 0.05 in flight on average.
        long one = load.begin();
        clock.addAndGet(50 * MS);
        load.end(one);
        clock.addAndGet(950 * MS);
        ForegroundLoad.Sample light = load.sample();
        assertThat(ForegroundLoad.concurrency(busy, light)).isCloseTo(0.05, within(1e-9));
        assertThat(ForegroundLoad.concurrency(start, light)).isCloseTo(2.025, within(1e-9));

        // No time between the samples: 0, not a division by zero.
        assertThat(ForegroundLoad.concurrency(light, light)).isZero();
    }

    @Test
    void theShareShrinksToAFifthOnlyWhileRequestsSaturateTheCores() {
        assertThat(ForegroundLoad.busyShare(0.25, 0.05, 2)).isEqualTo(0.25);
        assertThat(ForegroundLoad.busyShare(0.25, 1.99, 2)).isEqualTo(0.25);
        assertThat(ForegroundLoad.busyShare(0.25, 2.0, 2)).isCloseTo(0.05, within(1e-12));
        assertThat(ForegroundLoad.busyShare(0.25, 7.6, 2)).isCloseTo(0.05, within(1e-12));
        assertThat(ForegroundLoad.busyShare(0.25, 7.6, 8)).isEqualTo(0.25);
        // Still a share in (0, 1], so the pause stays finite.
        assertThat(ForegroundLoad.busyPauseMillis(80 * MS, ForegroundLoad.busyShare(1, 9, 2)))
                .isEqualTo(320);
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
        assertThatThrownBy(() -> ForegroundLoad.busyPauseMillis(MS, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class);
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
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lookMillis");
    }
}

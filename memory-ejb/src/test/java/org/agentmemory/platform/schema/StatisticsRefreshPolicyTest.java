package org.agentmemory.platform.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StatisticsRefreshPolicyTest {

    @Test
    void theFirstRefreshComesAfterTheMinimumThenAfterTheGrowthOfTheTable() {
        StatisticsRefreshPolicy policy = new StatisticsRefreshPolicy(0.2, 1000);
        assertThat(policy.written(999)).isFalse();
        assertThat(policy.written(1)).isTrue();
        policy.refreshed(50_000);
        assertThat(policy.threshold()).isEqualTo(10_000);
        assertThat(policy.written(9_999)).isFalse();
        assertThat(policy.written(1)).isTrue();
        policy.refreshed(100);
        assertThat(policy.threshold()).as("never below the minimum").isEqualTo(1000);
    }

    @Test
    void oneRefreshAtATimeAndWritesDuringItCountTowardsTheNext() {
        StatisticsRefreshPolicy policy = new StatisticsRefreshPolicy(0.2, 1000);
        assertThat(policy.written(5000)).isTrue();
        assertThat(policy.running()).isTrue();
        assertThat(policy.written(5000)).as("a refresh is running").isFalse();
        policy.refreshed(10_000);
        assertThat(policy.running()).isFalse();
        assertThat(policy.written(0))
                .as("the 5,000 written meanwhile reach the threshold of 2,000")
                .isTrue();
    }

    @Test
    void aFailedRefreshDoublesTheWaitBeforeTheNext() {
        StatisticsRefreshPolicy policy = new StatisticsRefreshPolicy(0.5, 1000);
        assertThat(policy.written(1000)).isTrue();
        policy.failed();
        assertThat(policy.running()).isFalse();
        assertThat(policy.threshold())
                .as("base 1,000 (the minimum) × 0.5, raised to the minimum")
                .isEqualTo(1000);
        policy.written(0);
        assertThat(policy.written(1000)).isTrue();
        policy.refreshed(8000);
        assertThat(policy.threshold()).isEqualTo(4000);
        assertThat(policy.written(4000)).isTrue();
        policy.failed();
        assertThat(policy.threshold()).as("base doubled to 16,000").isEqualTo(8000);
        assertThat(policy.written(7999)).isFalse();
        assertThat(policy.written(1)).isTrue();
    }

    @Test
    void growthZeroNeverRefreshes() {
        StatisticsRefreshPolicy policy = new StatisticsRefreshPolicy(0, 1000);
        assertThat(policy.written(Long.MAX_VALUE / 2)).isFalse();
        assertThat(policy.written(-5)).as("negative counts are ignored").isFalse();
    }

    @Test
    void concurrentWritersStartOneRefreshWhileItRuns() throws InterruptedException {
        StatisticsRefreshPolicy policy = new StatisticsRefreshPolicy(0.2, 1000);
        AtomicInteger started = new AtomicInteger();
        Thread[] writers = new Thread[8];
        for (int i = 0; i < writers.length; i++) {
            writers[i] = new Thread(() -> {
                for (int n = 0; n < 1000; n++) {
                    if (policy.written(1)) {
                        started.incrementAndGet();
                    }
                }
            });
            writers[i].start();
        }
        for (Thread t : writers) {
            t.join();
        }
        assertThat(started).as("8,000 turns while the first refresh never ends").hasValue(1);
    }

    @Test
    void badArgumentsAreRejected() {
        assertThatThrownBy(() -> new StatisticsRefreshPolicy(-0.1, 1000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("growth");
        assertThatThrownBy(() -> new StatisticsRefreshPolicy(Double.NaN, 1000))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StatisticsRefreshPolicy(Double.POSITIVE_INFINITY, 1000))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StatisticsRefreshPolicy(0.2, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("minTurns");
    }

    @Test
    void aRefreshCancelledBecauseItsWritesRolledBackLeavesTheThresholdAsItWas() {
        StatisticsRefreshPolicy policy = new StatisticsRefreshPolicy(0.2, 1000);
        policy.refreshed(50_000);
        assertThat(policy.written(10_000)).isTrue();
        policy.cancelled();
        assertThat(policy.running()).isFalse();
        assertThat(policy.threshold()).as("not doubled as after a failure").isEqualTo(10_000);
        assertThat(policy.written(9_999))
                .as("the rolled-back writes do not count")
                .isFalse();
        assertThat(policy.written(1)).isTrue();
    }
}

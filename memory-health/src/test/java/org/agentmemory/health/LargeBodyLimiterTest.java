package org.agentmemory.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LargeBodyLimiterTest {

    /** A clock the test moves by hand. */
    private static final class ManualClock extends Clock {
        private Instant now = Instant.parse("2026-12-04T10:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void aFullLimiterRefusesAfterItsWaitAndAClosedSlotComesBackOnce() {
        LargeBodyLimiter limiter = new LargeBodyLimiter(2, Clock.systemUTC());
        LargeBodyLimiter.Permit first = limiter.acquire(Duration.ZERO).orElseThrow();
        LargeBodyLimiter.Permit second = limiter.acquire(Duration.ZERO).orElseThrow();

        assertThat(limiter.acquire(Duration.ofMillis(20))).isEmpty();
        assertThat(limiter.usage().free()).isZero();

        first.close();
        first.close();
        assertThat(limiter.usage().free()).isEqualTo(1);
        assertThat(limiter.usage().held()).isEqualTo(1);
        Optional<LargeBodyLimiter.Permit> third = limiter.acquire(Duration.ZERO);
        assertThat(third).isPresent();
        assertThat(limiter.acquire(Duration.ZERO)).isEmpty();

        second.close();
        third.get().close();
        assertThat(limiter.usage()).isEqualTo(new LargeBodyLimiter.Usage(2, 2, 0, 0));
    }

    @Test
    void aLimiterIsStalledOnlyWhenFullForLongerThanTheLimit() {
        ManualClock clock = new ManualClock();
        LargeBodyLimiter limiter = new LargeBodyLimiter(2, clock);
        Duration limit = Duration.ofSeconds(60);

        LargeBodyLimiter.Permit old = limiter.acquire(Duration.ZERO).orElseThrow();
        clock.advance(Duration.ofSeconds(61));
        assertThat(limiter.usage().stalled(limit)).as("one slot still free").isFalse();

        LargeBodyLimiter.Permit recent = limiter.acquire(Duration.ZERO).orElseThrow();
        assertThat(limiter.usage().oldestHeldMs()).isEqualTo(61_000);
        assertThat(limiter.usage().stalled(limit)).isTrue();

        old.close();
        clock.advance(Duration.ofSeconds(120));
        assertThat(limiter.usage().stalled(limit)).as("one slot free again").isFalse();
        recent.close();
    }

    @Test
    void anInterruptedWaitRefusesAndKeepsTheFlag() {
        LargeBodyLimiter limiter = new LargeBodyLimiter(1, Clock.systemUTC());
        LargeBodyLimiter.Permit only = limiter.acquire(Duration.ZERO).orElseThrow();
        Thread.currentThread().interrupt();
        try {
            assertThat(limiter.acquire(Duration.ofSeconds(5))).isEmpty();
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
            only.close();
        }
    }
}

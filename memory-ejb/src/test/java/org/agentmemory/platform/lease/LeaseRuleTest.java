package org.agentmemory.platform.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** When a lease may be taken, what taking it writes, and when aligned timers fire. */
class LeaseRuleTest {

    private static final Duration TEN_MINUTES = Duration.ofMinutes(10);
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    @Test
    void anAttemptWritesALeaseOfOnePeriodAndAsksForHalfAPeriodSinceTheLastStart() {
        LeaseRule.Attempt attempt = LeaseRule.attempt(T0.plusNanos(1_234_567), TEN_MINUTES);

        assertThat(attempt.now()).isEqualTo(T0.plusNanos(1_234_000)); // microseconds, as the database stores them
        assertThat(attempt.leaseUntil()).isEqualTo(attempt.now().plus(TEN_MINUTES));
        assertThat(attempt.startedBefore()).isEqualTo(attempt.now().minus(Duration.ofMinutes(5)));
    }

    @Test
    void aNewRowMayBeTaken() {
        assertThat(LeaseRule.mayTake(new LeaseRule.Row(null, null, null), "b", LeaseRule.attempt(T0, TEN_MINUTES)))
                .isTrue();
    }

    @Test
    void aSecondServerWhoseTimerFiredJustAfterTheFirstFinishedDoesNotRunAgain() {
        // server a started at T0, finished 100 ms later (lease freed); b's timer fires 200 ms after T0
        LeaseRule.Row row = new LeaseRule.Row("a", null, T0);

        assertThat(LeaseRule.mayTake(row, "b", LeaseRule.attempt(T0.plusMillis(200), TEN_MINUTES)))
                .isFalse();
        assertThat(LeaseRule.mayTake(row, "b", LeaseRule.attempt(T0.plus(Duration.ofMinutes(5)), TEN_MINUTES)))
                .isTrue();
        assertThat(LeaseRule.mayTake(row, "b", LeaseRule.attempt(T0.plus(TEN_MINUTES), TEN_MINUTES)))
                .isTrue();
    }

    @Test
    void aHeldLeaseIsTakenByNoOneUntilItExpiresNotEvenByItsHolder() {
        LeaseRule.Row running = new LeaseRule.Row("a", T0.plus(TEN_MINUTES), T0);

        assertThat(LeaseRule.mayTake(running, "b", LeaseRule.attempt(T0.plus(Duration.ofMinutes(9)), TEN_MINUTES)))
                .isFalse();
        assertThat(LeaseRule.mayTake(running, "a", LeaseRule.attempt(T0.plus(Duration.ofMinutes(9)), TEN_MINUTES)))
                .isFalse();
        // a holder that died: its lease expires after one period, then another server runs
        assertThat(LeaseRule.mayTake(running, "b", LeaseRule.attempt(T0.plus(TEN_MINUTES), TEN_MINUTES)))
                .isTrue();
    }

    @Test
    void theServerThatRanLastIsNotHeldBackByHalfAPeriod() {
        LeaseRule.Row row = new LeaseRule.Row("a", null, T0);

        assertThat(LeaseRule.mayTake(row, "a", LeaseRule.attempt(T0.plusSeconds(1), TEN_MINUTES)))
                .isTrue();
        assertThat(LeaseRule.mayTake(row, "a/restarted", LeaseRule.attempt(T0.plusSeconds(1), TEN_MINUTES)))
                .isFalse();
    }

    @Test
    void timersFireAtTheMultiplesOfThePeriodPlusTheOffset() {
        Instant now = Instant.parse("2026-03-01T10:03:20Z");

        assertThat(LeaseRule.firstDelay(now, TEN_MINUTES, Duration.ZERO)).isEqualTo(Duration.ofSeconds(400));
        assertThat(LeaseRule.firstDelay(
                        now, Duration.ofDays(1), Duration.ofHours(3).plusMinutes(17)))
                .isEqualTo(Duration.ofHours(17).plusMinutes(13).plusSeconds(40));
        // an offset beyond the period counts modulo the period
        assertThat(LeaseRule.firstDelay(now, Duration.ofSeconds(5), Duration.ofHours(3)))
                .isEqualTo(Duration.ofSeconds(5));
        assertThat(LeaseRule.firstDelay(now.plusMillis(1), Duration.ofSeconds(5), Duration.ZERO))
                .isEqualTo(Duration.ofMillis(4_999));
    }

    @Test
    void aPeriodMustBePositive() {
        assertThatThrownBy(() -> LeaseRule.attempt(T0, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LeaseRule.firstDelay(T0, TEN_MINUTES, Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

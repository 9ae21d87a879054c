package org.agentmemory.platform.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;

class SearchEngineBreakerTest {

    @Test
    void aClosedBreakerLetsEveryCallThrough() {
        SearchEngineBreaker breaker = new SearchEngineBreaker(5_000);
        assertThat(breaker.waitMillis(0)).isZero();
        assertThat(breaker.waitMillis(1_000_000)).isZero();
        assertThat(breaker.open(0)).isFalse();
    }

    @Test
    void aFailureOpensItForTheGivenTimeThenOneCallProbes() {
        SearchEngineBreaker breaker = new SearchEngineBreaker(5_000);
        breaker.failed(1_000);
        assertThat(breaker.open(1_000)).isTrue();
        assertThat(breaker.waitMillis(1_000)).isEqualTo(5_000);
        assertThat(breaker.waitMillis(4_000)).isEqualTo(2_000);
        // Half open: the first call after the pause tries the cluster, the others still wait.
        assertThat(breaker.waitMillis(6_000)).isZero();
        assertThat(breaker.waitMillis(6_001)).isPositive();
        breaker.succeeded();
        assertThat(breaker.waitMillis(6_002)).isZero();
        assertThat(breaker.open(6_002)).isFalse();
    }

    @Test
    void aFailedProbeOpensItAgain() {
        SearchEngineBreaker breaker = new SearchEngineBreaker(1_000);
        breaker.failed(0);
        assertThat(breaker.waitMillis(1_000)).isZero();
        breaker.failed(1_000);
        assertThat(breaker.waitMillis(1_500)).isEqualTo(500);
        assertThat(breaker.waitMillis(2_000)).isZero();
    }

    @Test
    void connectionFailuresAnywhereInTheCausesMeanUnreachable() {
        RuntimeException refused = new IllegalStateException(
                "HSEARCH400007: Elasticsearch request failed", new ConnectException("Connection refused"));
        assertThat(SearchEngineGuard.unreachable(new RuntimeException("wrapped", refused)))
                .isTrue();
        assertThat(SearchEngineGuard.unreachable(new RuntimeException(new IOException("reset"))))
                .isTrue();
        assertThat(SearchEngineGuard.unreachable(new RuntimeException("HSEARCH400588: Request execution exceeded")))
                .isTrue();
        assertThat(SearchEngineGuard.unreachable(new IllegalArgumentException("bad query")))
                .isFalse();
    }
}

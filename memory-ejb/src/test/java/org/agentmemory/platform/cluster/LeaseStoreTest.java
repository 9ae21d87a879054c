package org.agentmemory.platform.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.agentmemory.platform.lease.LeaseRule;
import org.agentmemory.testsupport.Databases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code cluster_lease} rows on real H2 and PostgreSQL databases: creation, taking, releasing, a dead holder's
 * expiry, and several servers (threads with server ids of their own) racing for the same period.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LeaseStoreTest {

    private static final Duration PERIOD = Duration.ofMinutes(10);
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private EntityManagerFactory h2;
    private EntityManagerFactory postgres;
    private EntityManagerFactory eclipseLinkH2;
    private EntityManagerFactory eclipseLinkPostgres;

    @BeforeAll
    void start() {
        h2 = Databases.unit("memory-hibernate", Databases.freshH2());
        postgres = Databases.unit("memory-hibernate", Databases.freshPostgres("agent_memory_cluster_lease_test"));
        eclipseLinkH2 = Databases.unit("memory-eclipselink", Databases.freshH2());
        eclipseLinkPostgres =
                Databases.unit("memory-eclipselink", Databases.freshPostgres("agent_memory_cluster_lease_el_test"));
    }

    @AfterAll
    void stop() {
        h2.close();
        postgres.close();
        eclipseLinkH2.close();
        eclipseLinkPostgres.close();
    }

    Stream<Arguments> units() {
        return Stream.of(
                Arguments.of("h2", h2, false),
                Arguments.of("postgresql", postgres, true),
                Arguments.of("eclipselink-h2", eclipseLinkH2, false),
                Arguments.of("eclipselink-postgresql", eclipseLinkPostgres, true));
    }

    private static <T> T inTx(EntityManagerFactory emf, Function<EntityManager, T> work) {
        return Databases.inTransaction(emf, work);
    }

    private static boolean take(EntityManagerFactory emf, boolean pg, String task, String server, Instant now) {
        return inTx(emf, em -> new LeaseStore(em, pg).take(task, server, LeaseRule.attempt(now, PERIOD)));
    }

    private static ClusterLease row(EntityManagerFactory emf, boolean pg, String task) {
        return inTx(emf, em -> new LeaseStore(em, pg).find(task));
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void aRowIsCreatedOnceFreeAndNeverRun(String name, EntityManagerFactory emf, boolean pg) {
        assertThat(take(emf, pg, "absent", "a/1", T0))
                .as("no row, nothing taken")
                .isFalse();

        assertThat((boolean) inTx(emf, em -> new LeaseStore(em, pg).create("created")))
                .isTrue();
        assertThat((boolean) inTx(emf, em -> new LeaseStore(em, pg).create("created")))
                .isFalse();

        ClusterLease row = row(emf, pg, "created");
        assertThat(row.getRunCount()).isZero();
        assertThat(row.getHolder()).isNull();
        assertThat(row.getLeaseUntil()).isNull();
        assertThat(row.getLastStarted()).isNull();
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void oneServerRunsPerPeriodAndTheRowTellsWhoAndWhat(String name, EntityManagerFactory emf, boolean pg) {
        String task = "purge";
        inTx(emf, em -> new LeaseStore(em, pg).create(task));

        assertThat(take(emf, pg, task, "a/1", T0)).isTrue();
        assertThat(take(emf, pg, task, "b/2", T0.plusMillis(50))).as("held").isFalse();
        Instant started = LeaseRule.attempt(T0, PERIOD).now();
        assertThat((boolean) inTx(
                        emf, em -> new LeaseStore(em, pg).release(task, "a/1", started, T0.plusMillis(100), 7L, "ok")))
                .isTrue();
        // b's timer fired at the same minute, 200 ms later: the run is not repeated
        assertThat(take(emf, pg, task, "b/2", T0.plusMillis(200))).isFalse();

        ClusterLease row = row(emf, pg, task);
        assertThat(row.getRunCount()).isEqualTo(1);
        assertThat(row.getHolder()).isEqualTo("a/1");
        assertThat(row.getLeaseUntil()).isNull();
        assertThat(row.getLastStarted()).isEqualTo(T0);
        assertThat(row.getLastFinished()).isEqualTo(T0.plusMillis(100));
        assertThat(row.getLastRows()).isEqualTo(7L);
        assertThat(row.getLastResult()).isEqualTo("ok");

        // the next period: whichever server fires first runs
        assertThat(take(emf, pg, task, "b/2", T0.plus(PERIOD))).isTrue();
        assertThat(take(emf, pg, task, "a/1", T0.plus(PERIOD).plusMillis(10))).isFalse();
        assertThat(row(emf, pg, task).getRunCount()).isEqualTo(2);
        assertThat(row(emf, pg, task).getHolder()).isEqualTo("b/2");
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void aDeadHoldersLeaseExpiresAndItsLateReleaseChangesNothing(String name, EntityManagerFactory emf, boolean pg) {
        String task = "expiry";
        inTx(emf, em -> new LeaseStore(em, pg).create(task));
        assertThat(take(emf, pg, task, "a/1", T0)).isTrue();

        assertThat(take(emf, pg, task, "b/2", T0.plus(PERIOD).minusMillis(1))).isFalse();
        assertThat(take(emf, pg, task, "b/2", T0.plus(PERIOD))).isTrue();
        assertThat((boolean) inTx(
                        emf,
                        em -> new LeaseStore(em, pg)
                                .release(task, "a/1", T0, T0.plus(PERIOD).plusSeconds(1), null, "x".repeat(2_000))))
                .as("a's lease was taken over")
                .isFalse();

        ClusterLease row = row(emf, pg, task);
        assertThat(row.getHolder()).isEqualTo("b/2");
        assertThat(row.getLeaseUntil()).isEqualTo(T0.plus(PERIOD).plus(PERIOD));
        assertThat(row.getLastResult()).isNull();
        // b's failure is recorded, cut to the column's length
        Instant started = LeaseRule.attempt(T0.plus(PERIOD), PERIOD).now();
        assertThat((boolean) inTx(
                        emf,
                        em -> new LeaseStore(em, pg)
                                .release(
                                        task,
                                        "b/2",
                                        started,
                                        started.plusSeconds(1),
                                        null,
                                        "failed: " + "y".repeat(2_000))))
                .isTrue();
        assertThat(row(emf, pg, task).getLastResult())
                .hasSize(LeaseStore.MAX_RESULT)
                .startsWith("failed: y");
        assertThat(row(emf, pg, task).getLastRows()).isNull();
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void ofServersRacingForTheSamePeriodExactlyOneRuns(String name, EntityManagerFactory emf, boolean pg)
            throws Exception {
        int servers = 4;
        int periods = 15;
        ExecutorService pool = Executors.newFixedThreadPool(servers);
        CyclicBarrier together = new CyclicBarrier(servers);
        try {
            List<Future<Integer>> wins = new ArrayList<>();
            for (int s = 0; s < servers; s++) {
                String server = "node" + s + "/" + s;
                int offsetMs = s; // timers that fire within a few ms of each other
                wins.add(pool.submit(() -> {
                    int won = 0;
                    for (int p = 0; p < periods; p++) {
                        String task = p % 3 == 0 ? "race-new-" + p : "race"; // a row nobody created yet, or the same
                        together.await(1, TimeUnit.MINUTES);
                        try {
                            inTx(emf, em -> new LeaseStore(em, pg).create(task));
                        } catch (RuntimeException lostTheCreationRaceOnH2) {
                            // the row exists: another server created it
                        }
                        Instant now = T0.plus(PERIOD.multipliedBy(p)).plusMillis(offsetMs);
                        if (take(emf, pg, task, server, now)) {
                            won++;
                            Instant started = LeaseRule.attempt(now, PERIOD).now();
                            inTx(
                                    emf,
                                    em -> new LeaseStore(em, pg)
                                            .release(task, server, started, started.plusMillis(100), 0L, "ok"));
                        }
                    }
                    return won;
                }));
            }
            int total = 0;
            for (Future<Integer> f : wins) {
                total += f.get(2, TimeUnit.MINUTES);
            }
            assertThat(total)
                    .as("one run per period across %d servers", servers)
                    .isEqualTo(periods);
        } finally {
            pool.shutdownNow();
        }
        assertThat(row(emf, pg, "race").getRunCount()).isEqualTo(periods - (periods + 2) / 3);
    }
}

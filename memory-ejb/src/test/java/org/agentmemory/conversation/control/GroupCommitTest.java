package org.agentmemory.conversation.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Group commit: lone writes go at once, concurrent ones are batched, one bad item fails only its caller. */
class GroupCommitTest {

    private final ExecutorService pool = Executors.newFixedThreadPool(12);

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    @Test
    void aLoneCallIsWrittenAtOnceInABatchOfItsOwn() throws Exception {
        List<List<Integer>> batches = Collections.synchronizedList(new ArrayList<>());
        GroupCommit<Integer, String> group = new GroupCommit<>(8, 1);

        assertThat(group.submit(7, (batch, committing) -> record(batches, batch)))
                .isEqualTo("r7");
        assertThat(group.submit(8, (batch, committing) -> record(batches, batch)))
                .isEqualTo("r8");

        assertThat(batches).containsExactly(List.of(7), List.of(8));
        assertThat(group.counts()).containsExactly(2, 2);
    }

    @Test
    void callsArrivingDuringAWriteAreWrittenTogetherInArrivalOrderAndEachGetsItsOwnResult() throws Exception {
        HeldFirstWrite held = new HeldFirstWrite(8);
        List<List<Integer>> batches = held.batches;
        GroupCommit<Integer, String> group = held.group;
        Future<String> first = held.first;
        List<Future<String>> waiting = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            int item = i;
            waiting.add(held.submit(item));
            awaitQueued(group, batches, i);
        }
        held.release.countDown();

        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("r0");
        for (int i = 1; i <= 5; i++) {
            assertThat(waiting.get(i - 1).get(10, TimeUnit.SECONDS)).isEqualTo("r" + i);
        }
        assertThat(batches).containsExactly(List.of(0), List.of(1, 2, 3, 4, 5));
        assertThat(group.counts()).containsExactly(2, 6);
    }

    @Test
    void aBatchNeverHoldsMoreThanTheLimit() throws Exception {
        HeldFirstWrite held = new HeldFirstWrite(3);
        List<List<Integer>> batches = held.batches;
        GroupCommit<Integer, String> group = held.group;
        Future<String> first = held.first;
        List<Future<String>> waiting = new ArrayList<>();
        for (int i = 1; i <= 7; i++) {
            int item = i;
            waiting.add(held.submit(item));
        }
        awaitQueued(group, batches, 7);
        held.release.countDown();

        first.get(10, TimeUnit.SECONDS);
        for (Future<String> f : waiting) {
            f.get(10, TimeUnit.SECONDS);
        }
        assertThat(batches).allSatisfy(b -> assertThat(b).hasSizeLessThanOrEqualTo(3));
        assertThat(batches.stream().mapToInt(List::size).sum()).isEqualTo(8);
        assertThat(batches.stream().flatMap(List::stream).sorted().toList()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    }

    @Test
    void whenABatchFailsEachItemIsWrittenAloneAndOnlyTheBadOneFails() throws Exception {
        HeldFirstWrite held = new HeldFirstWrite(8);
        List<List<Integer>> batches = held.batches;
        GroupCommit<Integer, String> group = held.group;
        Future<String> first = held.first;
        Future<String> good1 = held.submit(1);
        awaitQueued(group, batches, 1);
        Future<String> bad = held.submit(-1);
        awaitQueued(group, batches, 2);
        Future<String> good2 = held.submit(2);
        awaitQueued(group, batches, 3);
        held.release.countDown();

        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("r0");
        assertThat(good1.get(10, TimeUnit.SECONDS)).isEqualTo("r1");
        assertThat(good2.get(10, TimeUnit.SECONDS)).isEqualTo("r2");
        assertThatThrownBy(() -> bad.get(10, TimeUnit.SECONDS))
                .hasRootCauseInstanceOf(IllegalStateException.class)
                .hasStackTraceContaining("the database rejected -1");
        assertThat(batches).containsExactly(List.of(0), List.of(1, -1, 2), List.of(1), List.of(-1), List.of(2));
    }

    @Test
    void anInterruptOfTheWritingCallerFailsNoneOfTheItemsItWritesAndIsKept() throws Exception {
        List<List<Integer>> attempts = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean interruptedOnce = new java.util.concurrent.atomic.AtomicBoolean();
        GroupCommit<Integer, String> group = new GroupCommit<>(8, 1);
        GroupCommit.BatchWriter<Integer, String> writer = (batch, committing) -> {
            attempts.add(List.copyOf(batch));
            if (batch.contains(0)) {
                started.countDown();
                release.await(10, TimeUnit.SECONDS);
            }
            if (batch.size() > 1 && interruptedOnce.compareAndSet(false, true)) {
                // The writing caller's own timeout fires while it writes the batch of three.
                Thread.currentThread().interrupt();
            }
            if (Thread.currentThread().isInterrupted()) {
                // A step that reacts to interrupts, as waiting for a pooled connection does.
                throw new IllegalStateException("interrupted while writing " + batch);
            }
            return batch.stream().map(i -> "r" + i).toList();
        };
        java.util.function.IntFunction<Future<String>> call = item -> pool.submit(() -> {
            String result = group.submit(item, writer);
            return Thread.interrupted() ? result + " (interrupt kept)" : result;
        });
        Future<String> first = call.apply(0);
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        List<Future<String>> waiting = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            waiting.add(call.apply(i));
            awaitQueued(group, attempts, i);
        }
        release.countDown();

        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("r0");
        List<String> results = new ArrayList<>();
        for (Future<String> f : waiting) {
            results.add(f.get(10, TimeUnit.SECONDS));
        }
        assertThat(results).hasSize(3).allSatisfy(r -> assertThat(r).startsWith("r"));
        assertThat(results.stream().map(r -> r.substring(0, 2)).toList()).containsExactly("r1", "r2", "r3");
        assertThat(results).filteredOn(r -> r.endsWith("(interrupt kept)")).hasSize(1);
        assertThat(attempts).containsExactly(List.of(0), List.of(1, 2, 3), List.of(1), List.of(2), List.of(3));
    }

    @Test
    void aWriterThatLosesResultsFailsLoudly() {
        GroupCommit<Integer, String> group = new GroupCommit<>(4, 1);
        assertThatThrownBy(() -> group.submit(1, (batch, committing) -> List.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("0 results for 1 item");
    }

    @Test
    void upToMaxWritersBatchesAreWrittenAtTheSameTimeAndLaterCallsWaitForOne() throws Exception {
        List<List<Integer>> batches = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch bothWriting = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        GroupCommit<Integer, String> group = new GroupCommit<>(8, 2);
        GroupCommit.BatchWriter<Integer, String> writer = holding(batches, bothWriting, release, 0, 1);
        Future<String> first = pool.submit(() -> group.submit(0, writer));
        Future<String> second = pool.submit(() -> group.submit(1, writer));
        assertThat(bothWriting.await(10, TimeUnit.SECONDS))
                .as("two lone calls write at the same time")
                .isTrue();
        // Queued one after the other, so that their batch has a known order.
        Future<String> third = pool.submit(() -> group.submit(2, writer));
        awaitQueued(group, batches, 1);
        Future<String> fourth = pool.submit(() -> group.submit(3, writer));
        awaitQueued(group, batches, 2);
        release.countDown();

        assertThat(List.of(
                        first.get(10, TimeUnit.SECONDS),
                        second.get(10, TimeUnit.SECONDS),
                        third.get(10, TimeUnit.SECONDS),
                        fourth.get(10, TimeUnit.SECONDS)))
                .containsExactly("r0", "r1", "r2", "r3");
        assertThat(batches).hasSize(3).contains(List.of(2, 3));
    }

    @Test
    void aFurtherBatchWaitsUntilEnoughItemsAreQueued() throws Exception {
        List<List<Integer>> batches = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch firstWriting = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch secondWriting = new CountDownLatch(1);
        CountDownLatch releaseSecond = new CountDownLatch(1);
        GroupCommit<Integer, String> group = new GroupCommit<>(8, 2, 3);
        GroupCommit.BatchWriter<Integer, String> writer = (batch, committing) -> {
            if (batch.contains(0)) {
                firstWriting.countDown();
                release.await(10, TimeUnit.SECONDS);
            } else if (batch.contains(1)) {
                secondWriting.countDown();
                releaseSecond.await(10, TimeUnit.SECONDS);
            }
            return record(batches, batch);
        };
        Future<String> first = pool.submit(() -> group.submit(0, writer));
        assertThat(firstWriting.await(10, TimeUnit.SECONDS)).isTrue();
        List<Future<String>> later = queueInOrder(group, writer, batches, 2);
        // Two queued items are fewer than 3: no second batch starts while the first is held.
        assertThat(secondWriting.await(300, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(group.queued()).isEqualTo(2);

        later.add(pool.submit(() -> group.submit(3, writer)));
        assertThat(secondWriting.await(10, TimeUnit.SECONDS))
                .as("a third queued item starts a second batch beside" + " the first")
                .isTrue();
        releaseSecond.countDown();
        for (int i = 1; i <= 3; i++) {
            assertThat(later.get(i - 1).get(10, TimeUnit.SECONDS)).isEqualTo("r" + i);
        }
        assertThat(first.isDone()).as("the first batch is still held").isFalse();
        release.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("r0");
        assertThat(batches).containsExactly(List.of(1, 2, 3), List.of(0));
    }

    @Test
    void aBatchThatOnlyWaitsForItsCommitLetsTheNextBatchWriteAndStillGetsItsResult() throws Exception {
        List<List<Integer>> batches = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch committing = new CountDownLatch(1);
        CountDownLatch commitAnswered = new CountDownLatch(1);
        GroupCommit<Integer, String> group = new GroupCommit<>(8, 1);
        GroupCommit.BatchWriter<Integer, String> writer = committingFirst(batches, committing, commitAnswered, 2);
        Future<String> first = pool.submit(() -> group.submit(0, writer));
        assertThat(committing.await(10, TimeUnit.SECONDS)).isTrue();

        // One writer at most, yet the first batch only waits for its commit: the next one is written meanwhile.
        assertThat(pool.submit(() -> group.submit(1, writer)).get(10, TimeUnit.SECONDS))
                .isEqualTo("r1");
        assertThat(first.isDone()).isFalse();
        commitAnswered.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("r0");
        assertThat(batches).containsExactly(List.of(0), List.of(1));

        // The writer's place was given back once, not once per run: the single writer limit still holds.
        HeldFirstWrite held = new HeldFirstWrite(8);
        Future<String> second = held.submit(1);
        awaitQueued(held.group, held.batches, 1);
        assertThat(second.isDone()).isFalse();
        held.release.countDown();
        assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("r1");
    }

    @Test
    void aBatchWaitingForItsCommitStillCountsAsInProgressForTheThreshold() throws Exception {
        List<List<Integer>> batches = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch committing = new CountDownLatch(1);
        CountDownLatch commitAnswered = new CountDownLatch(1);
        GroupCommit<Integer, String> group = new GroupCommit<>(8, 2, 3);
        GroupCommit.BatchWriter<Integer, String> writer = committingFirst(batches, committing, commitAnswered, 1);
        Future<String> first = pool.submit(() -> group.submit(0, writer));
        assertThat(committing.await(10, TimeUnit.SECONDS)).isTrue();
        List<Future<String>> later = queueInOrder(group, writer, batches, 2);
        // Two queued items are fewer than 3: they wait for the committing batch rather than start a small one.
        Thread.sleep(200);
        assertThat(group.queued()).isEqualTo(2);

        later.add(pool.submit(() -> group.submit(3, writer)));
        for (int i = 1; i <= 3; i++) {
            assertThat(later.get(i - 1).get(10, TimeUnit.SECONDS)).isEqualTo("r" + i);
        }
        assertThat(first.isDone())
                .as("the first batch still waits for its commit")
                .isFalse();
        commitAnswered.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("r0");
        assertThat(batches).containsExactly(List.of(0), List.of(1, 2, 3));
    }

    @Test
    void withNoBatchInProgressOneItemIsWrittenAtOnceWhateverTheThreshold() throws Exception {
        List<List<Integer>> batches = Collections.synchronizedList(new ArrayList<>());
        GroupCommit<Integer, String> group = new GroupCommit<>(8, 2, 8);

        assertThat(group.submit(5, (batch, committing) -> record(batches, batch)))
                .isEqualTo("r5");

        assertThat(batches).containsExactly(List.of(5));
    }

    @Test
    void itemsBelowTheThresholdAreWrittenByTheNextTurnOnceTheBatchInProgressEnds() throws Exception {
        HeldFirstWrite held = new HeldFirstWrite(8, 2, 4);
        Future<String> second = held.submit(1);
        awaitQueued(held.group, held.batches, 1);
        held.release.countDown();

        assertThat(held.first.get(10, TimeUnit.SECONDS)).isEqualTo("r0");
        assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("r1");
        assertThat(held.batches).containsExactly(List.of(0), List.of(1));
    }

    @Test
    void underContentionEveryItemIsWrittenOnceAndEveryCallerWokenWithItsOwnResult() throws Exception {
        // Callers wait on their own slot and only the head of the queue is woken to write: a lost wake-up would leave
        // a caller waiting for ever (the get below would time out), a double write would show in the counts.
        int threads = 12;
        int perThread = 300;
        GroupCommit<Integer, String> group = new GroupCommit<>(4, 2, 3);
        java.util.concurrent.ConcurrentHashMap<Integer, Integer> writes =
                new java.util.concurrent.ConcurrentHashMap<>();
        java.util.concurrent.atomic.AtomicInteger inProgress = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger mostInProgress = new java.util.concurrent.atomic.AtomicInteger();
        GroupCommit.BatchWriter<Integer, String> writer = (batch, committing) -> {
            mostInProgress.accumulateAndGet(inProgress.incrementAndGet(), Math::max);
            try {
                assertThat(batch.size()).isBetween(1, 4);
                batch.forEach(i -> writes.merge(i, 1, Integer::sum));
                if ((batch.get(0) & 3) == 0) {
                    Thread.sleep(0, 200_000);
                }
                return batch.stream().map(i -> "r" + i).toList();
            } finally {
                inProgress.decrementAndGet();
            }
        };
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<String>>> callers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int base = t * perThread;
            callers.add(pool.submit(() -> {
                start.await();
                List<String> results = new ArrayList<>();
                for (int i = base; i < base + perThread; i++) {
                    String r = group.submit(i, writer);
                    assertThat(r).isEqualTo("r" + i);
                    results.add(r);
                }
                return results;
            }));
        }
        start.countDown();
        for (Future<List<String>> caller : callers) {
            assertThat(caller.get(60, TimeUnit.SECONDS)).hasSize(perThread);
        }

        assertThat(writes).hasSize(threads * perThread);
        assertThat(writes.values()).containsOnly(1);
        long[] counts = group.counts();
        assertThat(counts[1]).isEqualTo(threads * perThread);
        assertThat(counts[0]).as("concurrent callers were batched").isLessThan(threads * perThread);
        assertThat(mostInProgress.get()).isBetween(1, 2);
        assertThat(group.queued()).isZero();
    }

    @Test
    void theLimitMustBePositive() {
        assertThatThrownBy(() -> new GroupCommit<Integer, String>(1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new GroupCommit<Integer, String>(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new GroupCommit<Integer, String>(4, 2, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new GroupCommit<Integer, String>(4, 2, 5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1..4");
    }

    /** A group with one writer whose first write, of item 0, has started and is held until {@link #release}. */
    private final class HeldFirstWrite {
        final List<List<Integer>> batches = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch release = new CountDownLatch(1);
        final GroupCommit<Integer, String> group;
        final GroupCommit.BatchWriter<Integer, String> writer;
        final Future<String> first;

        HeldFirstWrite(int maxBatch) throws InterruptedException {
            this(maxBatch, 1, 1);
        }

        HeldFirstWrite(int maxBatch, int maxWriters, int minExtraBatch) throws InterruptedException {
            CountDownLatch started = new CountDownLatch(1);
            group = new GroupCommit<>(maxBatch, maxWriters, minExtraBatch);
            writer = holding(batches, started, release, 0);
            first = pool.submit(() -> group.submit(0, writer));
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        }

        Future<String> submit(int item) {
            return pool.submit(() -> group.submit(item, writer));
        }
    }

    /**
     * A writer that records each batch and holds the batches containing any of {@code held} until released; the
     * latch counts down once per held batch that started.
     */
    private static GroupCommit.BatchWriter<Integer, String> holding(
            List<List<Integer>> batches, CountDownLatch started, CountDownLatch release, Integer... held) {
        return (batch, committing) -> {
            if (batch.stream().anyMatch(List.of(held)::contains)) {
                started.countDown();
                release.await(10, TimeUnit.SECONDS);
            }
            if (batch.contains(-1)) {
                batches.add(List.copyOf(batch));
                throw new IllegalStateException("the database rejected -1");
            }
            return record(batches, batch);
        };
    }

    /**
     * A writer that records each batch; the batch holding item 0 runs its {@code committing} callback {@code runs}
     * times, counts {@code committing} down and then waits, as if for the database's answer to its commit, until
     * {@code commitAnswered} is counted down.
     */
    private static GroupCommit.BatchWriter<Integer, String> committingFirst(
            List<List<Integer>> batches, CountDownLatch committing, CountDownLatch commitAnswered, int runs) {
        return (batch, commit) -> {
            List<String> results = record(batches, batch);
            if (batch.contains(0)) {
                for (int i = 0; i < runs; i++) {
                    commit.run();
                }
                committing.countDown();
                commitAnswered.await(10, TimeUnit.SECONDS);
            }
            return results;
        };
    }

    private static List<String> record(List<List<Integer>> batches, List<Integer> batch) {
        batches.add(List.copyOf(batch));
        return batch.stream().map(i -> "r" + i).toList();
    }

    /**
     * Submits items 1 to {@code n} one after the other, each once the one before waits in the queue, so that their
     * order in the queue is known (the writer holds item 0).
     *
     * @return their callers' futures, in item order (a mutable list)
     */
    private List<Future<String>> queueInOrder(
            GroupCommit<Integer, String> group,
            GroupCommit.BatchWriter<Integer, String> writer,
            List<List<Integer>> batches,
            int n)
            throws InterruptedException {
        List<Future<String>> queued = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            int item = i;
            queued.add(pool.submit(() -> group.submit(item, writer)));
            awaitQueued(group, batches, i);
        }
        return queued;
    }

    /** Waits until {@code n} callers besides the writer wait in the queue (the writer holds item 0). */
    private static void awaitQueued(GroupCommit<Integer, String> group, List<List<Integer>> batches, int n)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (group.queued() < n && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        assertThat(group.queued()).isEqualTo(n);
    }
}

package org.agentmemory.platform.embedding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SplitEmbeddingTest {

    private final ExecutorService executor = Executors.newFixedThreadPool(4);

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    /** A model whose vector of a text is its number, and that records the threads and the calls it served. */
    private static final class Recording implements EmbeddingModel {
        final Set<Thread> threads = ConcurrentHashMap.newKeySet();
        final List<Integer> callSizes = Collections.synchronizedList(new ArrayList<>());
        volatile CountDownLatch together;
        volatile String failOn;

        @Override
        public String name() {
            return "recording";
        }

        @Override
        public int dimension() {
            return 1;
        }

        @Override
        public float[] embed(String text) {
            return new float[] {Float.parseFloat(text)};
        }

        @Override
        public List<float[]> embedAll(List<String> texts) {
            threads.add(Thread.currentThread());
            callSizes.add(texts.size());
            if (together != null) {
                together.countDown();
                try {
                    // Every part must be in flight at once: a serial split would wait here for nothing.
                    assertThat(together.await(10, TimeUnit.SECONDS)).isTrue();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
            if (failOn != null && texts.contains(failOn)) {
                throw new IllegalArgumentException("cannot embed " + failOn);
            }
            return texts.stream().map(this::embed).toList();
        }
    }

    private static List<String> texts(int n) {
        return IntStream.range(0, n).mapToObj(Integer::toString).toList();
    }

    @Test
    void partsRunAtTheSameTimeAndVectorsComeBackInInputOrder() {
        Recording model = new Recording();
        model.together = new CountDownLatch(3);
        List<float[]> vectors = new SplitEmbedding(model, executor, 3).embedAll(texts(128));
        assertThat(vectors).hasSize(128);
        for (int i = 0; i < 128; i++) {
            assertThat(vectors.get(i)[0]).isEqualTo(i);
        }
        assertThat(model.threads).hasSize(3).contains(Thread.currentThread());
        assertThat(model.callSizes).containsExactlyInAnyOrder(42, 43, 43);
    }

    @Test
    void smallBatchesStayOnTheCallingThread() {
        Recording model = new Recording();
        SplitEmbedding split = new SplitEmbedding(model, executor, 2);
        assertThat(split.embedAll(texts(7))).hasSize(7);
        assertThat(split.embedAll(List.of())).isEmpty();
        assertThat(model.threads).containsExactly(Thread.currentThread());
        assertThat(new SplitEmbedding(model, executor, 1).embedAll(texts(100))).hasSize(100);
        assertThat(model.threads).containsExactly(Thread.currentThread());
        // 8 texts: two parts of the fewest texts worth a part.
        model.callSizes.clear();
        split.embedAll(texts(2 * SplitEmbedding.MIN_PER_PART));
        assertThat(model.callSizes).containsExactly(SplitEmbedding.MIN_PER_PART, SplitEmbedding.MIN_PER_PART);
    }

    @Test
    void withoutTheCallerEveryPartRunsOnTheExecutorInInputOrder() {
        Recording model = new Recording();
        model.together = new CountDownLatch(2);
        List<float[]> vectors = new SplitEmbedding(model, executor, 2, false).embedAll(texts(100));
        assertThat(vectors).hasSize(100);
        for (int i = 0; i < 100; i++) {
            assertThat(vectors.get(i)[0]).isEqualTo(i);
        }
        assertThat(model.threads).hasSize(2).doesNotContain(Thread.currentThread());
        assertThat(model.callSizes).containsExactlyInAnyOrder(50, 50);
        // One part, and small batches: still on the executor, never on the caller.
        model.together = null;
        model.threads.clear();
        assertThat(new SplitEmbedding(model, executor, 1, false).embedAll(texts(16)))
                .hasSize(16);
        assertThat(new SplitEmbedding(model, executor, 2, false).embedAll(texts(3)))
                .hasSize(3);
        assertThat(model.threads).isNotEmpty().doesNotContain(Thread.currentThread());
        model.failOn = "60";
        assertThatThrownBy(() -> new SplitEmbedding(model, executor, 2, false).embedAll(texts(100)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cannot embed 60");
    }

    @Test
    void aFailingPartFailsTheCallAfterEveryPartEnded() {
        Recording model = new Recording();
        model.failOn = "90";
        SplitEmbedding split = new SplitEmbedding(model, executor, 2);
        assertThatThrownBy(() -> split.embedAll(texts(100)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cannot embed 90");
        model.failOn = "3";
        assertThatThrownBy(() -> split.embedAll(texts(100)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cannot embed 3");
        assertThat(model.callSizes).hasSize(4);
    }

    @Test
    void callersFillTheCoresWithoutOversubscribingThem() {
        assertThat(SplitEmbedding.callers(2, 1)).isEqualTo(2);
        assertThat(SplitEmbedding.callers(8, 2)).isEqualTo(4);
        assertThat(SplitEmbedding.callers(2, 4)).isEqualTo(1);
        assertThat(SplitEmbedding.callers(16, 0))
                .as("0 = ONNX Runtime's default, one thread per core")
                .isEqualTo(1);
        assertThat(SplitEmbedding.callers(1, 1)).isEqualTo(1);
        assertThatThrownBy(() -> new SplitEmbedding(new Recording(), executor, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everythingButEmbedAllIsTheWrappedModels() {
        SplitEmbedding split = new SplitEmbedding(new Recording(), executor, 2);
        assertThat(split.name()).isEqualTo("recording");
        assertThat(split.dimension()).isEqualTo(1);
        assertThat(split.embed("5")).containsExactly(5f);
        assertThat(split.embedQuery("6")).containsExactly(6f);
        assertThat(split.defaultScoreThreshold()).isEqualTo(0.3);
    }
}

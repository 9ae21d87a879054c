package org.agentmemory.platform.embedding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Runs the real ONNX models shipped in the Maven jars (about a second to load each). */
class InProcessEmbeddingModelTest {

    private static final String[] TOPICS = {
        "The database connection pool ran out of connections during the nightly import.",
        "Retrying the import with a smaller batch size fixed the exhausted connection pool.",
        "Each batch of the import job now holds at most one database connection at a time.",
        "The import job logs how long every batch waits for a free database connection.",
        "Operators raised the pool size after measuring the connection wait times of the import."
    };

    @ParameterizedTest
    @ValueSource(strings = {"all-minilm-l6-v2", "all-minilm-l6-v2-q", "bge-small-en-v1.5-q"})
    void vectorsHave384UnitLengthDimensions(String name) {
        EmbeddingModel model = Embeddings.forName(name);
        float[] vector = model.embed("The invoice API returned HTTP 429.");
        assertThat(model.name()).isEqualTo(name);
        assertThat(model.dimension()).isEqualTo(384);
        assertThat(vector).hasSize(384);
        assertThat(Vectors.norm(vector)).isCloseTo(1.0, offset(1e-5));
    }

    @ParameterizedTest
    @ValueSource(strings = {"all-minilm-l6-v2", "all-minilm-l6-v2-q", "bge-small-en-v1.5-q"})
    void paraphrasesAreCloserThanUnrelatedTexts(String name) {
        EmbeddingModel model = Embeddings.forName(name);
        List<float[]> v = model.embedAll(List.of(
                "The payment service rejected the request because the API key had expired.",
                "Our call to the billing API failed since its access token was no longer valid.",
                "Tomatoes grow best in warm weather with plenty of sunshine."));
        double paraphrase = Vectors.cosine(v.get(0), v.get(1));
        double unrelated = Vectors.cosine(v.get(0), v.get(2));
        assertThat(paraphrase).isGreaterThan(unrelated + 0.2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"all-minilm-l6-v2", "all-minilm-l6-v2-q", "bge-small-en-v1.5-q"})
    void aQueryFindsThePassageThatAnswersIt(String name) {
        EmbeddingModel model = Embeddings.forName(name);
        float[] query = model.embedQuery("What is the name of the dog Mia adopted?");
        List<float[]> passages = model.embedAll(List.of(
                "Mia: We called him Biscuit and he loves the beach.",
                "Mia: My pottery class starts on Tuesday evenings."));
        assertThat(Vectors.cosine(query, passages.get(0))).isGreaterThan(Vectors.cosine(query, passages.get(1)));
    }

    @Test
    void onlyBgeQueriesCarryTheModelsInstruction() {
        EmbeddingModel bge = Embeddings.forName("bge-small-en-v1.5-q");
        String q = "when did the import fail?";
        assertThat(bge.embedQuery(q)).containsExactly(bge.embed(InProcessEmbeddingModel.BGE_QUERY_INSTRUCTION + q));
        assertThat(bge.embedQuery(q)).isNotEqualTo(bge.embed(q));
        EmbeddingModel minilm = Embeddings.forName("all-minilm-l6-v2-q");
        assertThat(minilm.embedQuery(q)).containsExactly(minilm.embed(q));
    }

    @Test
    void theThreadCountDoesNotChangeTheVectors() {
        float[] one = InProcessEmbeddingModel.BGE_SMALL_QUANTIZED.withThreads(1).embed(TOPICS[0]);
        float[] two = InProcessEmbeddingModel.BGE_SMALL_QUANTIZED.withThreads(2).embed(TOPICS[0]);
        assertThat(InProcessEmbeddingModel.BGE_SMALL_QUANTIZED.withThreads(1).threads())
                .isEqualTo(1);
        assertThat(Vectors.cosine(one, two)).isCloseTo(1.0, offset(1e-5));
        assertThatThrownBy(() -> InProcessEmbeddingModel.MINILM.withThreads(-1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void closedSessionsAreReloadedAndNeverClosedUnderARunningInference() throws Exception {
        InProcessEmbeddingModel model = InProcessEmbeddingModel.MINILM_QUANTIZED.withThreads(1);
        float[] before = model.embed(TOPICS[1]);
        assertThat(InProcessEmbeddingModel.openSessions()).isPositive();
        assertThat(InProcessEmbeddingModel.closeSessions()).isPositive();
        assertThat(InProcessEmbeddingModel.openSessions()).isZero();
        assertThat(model.embed(TOPICS[1])).containsExactly(before);

        // Inferences on another thread while the sessions are closed again and again: each one either ran before a
        // close or after a reload, always with the same vector, and the JVM is still here to say so.
        java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicReference<Throwable> failure =
                new java.util.concurrent.atomic.AtomicReference<>();
        Thread embedder = new Thread(() -> {
            try {
                for (int i = 0; i < 40; i++) {
                    assertThat(model.embed(TOPICS[1])).containsExactly(before);
                    runs.incrementAndGet();
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        embedder.start();
        int closed = 0;
        while (embedder.isAlive()) {
            closed += InProcessEmbeddingModel.closeSessions();
            Thread.sleep(5);
        }
        embedder.join();
        assertThat(failure.get()).isNull();
        assertThat(runs.get()).isEqualTo(40);
        assertThat(closed).isPositive();
    }

    @Test
    void canonicallyEquivalentTextsGiveIdenticalVectors() {
        EmbeddingModel model = Embeddings.defaultModel();
        float[] composed = model.embed("Le caf\u00e9 a refus\u00e9 la commande");
        float[] decomposed = model.embed("Le cafe\u0301 a refuse\u0301 la commande");
        assertThat(decomposed).containsExactly(composed);
    }

    @Test
    void embedAllMatchesEmbedOneByOne() {
        EmbeddingModel model = Embeddings.defaultModel();
        List<float[]> batch = model.embedAll(List.of("first text", "second text"));
        assertThat(batch.get(0)).containsExactly(model.embed("first text"));
        assertThat(batch.get(1)).containsExactly(model.embed("second text"));
        assertThat(model.embedAll(List.of())).isEmpty();
    }

    @Test
    void aLongTextEmbedsInChunksAndStaysCloseToItsFirstPart() {
        EmbeddingModel model = Embeddings.defaultModel();
        StringBuilder text = new StringBuilder();
        int words = 0;
        for (int i = 0; words < 5000; i++) {
            String sentence = TOPICS[i % TOPICS.length];
            text.append(sentence).append(' ');
            words += sentence.split(" ").length;
        }
        String firstPart = String.join(" ", TOPICS);
        assertThat(InProcessEmbeddingModel.wordPieces(text.toString())).isGreaterThan(5000);

        float[] whole = model.embed(text.toString());

        assertThat(whole).hasSize(384);
        assertThat(Vectors.norm(whole)).isCloseTo(1.0, offset(1e-5));
        double first = Vectors.cosine(whole, model.embed(firstPart));
        assertThat(first).isGreaterThan(0.9);
        // bge's cosines of unrelated texts sit near 0.5 (MiniLM's near 0.1): compare, don't fix a level.
        assertThat(Vectors.cosine(whole, model.embed("Tomatoes grow best in warm weather.")))
                .isLessThan(first - 0.3);
    }

    @Test
    void theTailOfALongTextStillCounts() {
        // Truncation at the window would ignore the second topic entirely; averaging keeps it.
        EmbeddingModel model = Embeddings.defaultModel();
        String first = "The nightly database import failed because the connection pool was exhausted. ".repeat(40);
        String second = "Tomatoes and peppers grow best in warm greenhouses with plenty of sunshine. ".repeat(40);
        float[] whole = model.embed(first + second);
        float[] tailOnly = model.embed(second);
        assertThat(Vectors.cosine(whole, tailOnly)).isGreaterThan(0.5);
    }

    @Test
    void aQueryIsEmbeddedByItsFirstWindowOnly() {
        // Documents average every window; a query embeds its first QUERY_WINDOW pieces, so a 50,000-word query costs
        // one short inference.
        EmbeddingModel model = Embeddings.defaultModel();
        String head = "The nightly database import failed because the connection pool was exhausted. ".repeat(60);
        String tomatoes = "Tomatoes and peppers grow best in warm greenhouses with plenty of sunshine. ".repeat(40);
        String invoices = "Quarterly invoices are printed in triplicate and filed in the red cabinet. ".repeat(40);
        assertThat(InProcessEmbeddingModel.wordPieces(head)).isGreaterThan(600);

        assertThat(model.embedQuery(head + tomatoes)).containsExactly(model.embedQuery(head + invoices));
        assertThat(model.embed(head + tomatoes)).isNotEqualTo(model.embed(head + invoices));
    }

    @Test
    void onlyTheHeadOfAHugeTextIsEmbedded() {
        // A 4 MB one-word text once aborted the JVM inside the native tokenizer; now only its head is embedded.
        EmbeddingModel model = Embeddings.defaultModel();
        String word = "x".repeat(4_000_000);
        assertThat(model.embed(word))
                .containsExactly(model.embed(word.substring(0, InProcessEmbeddingModel.MAX_EMBEDDED_CODE_POINTS)));
        String emoji = "\uD83D\uDE00".repeat(InProcessEmbeddingModel.MAX_EMBEDDED_CODE_POINTS + 10);
        String head = InProcessEmbeddingModel.head(emoji);
        assertThat(head.codePointCount(0, head.length())).isEqualTo(InProcessEmbeddingModel.MAX_EMBEDDED_CODE_POINTS);
        assertThat(Character.isHighSurrogate(head.charAt(head.length() - 1))).isFalse();
        assertThat(InProcessEmbeddingModel.head("short")).isEqualTo("short");
    }

    @Test
    void aQueryTheModelCannotReadIsUnreadableNotAFailure() {
        // U+FFFD (what undecodable bytes become) and format characters are dropped by the tokenizer.
        for (String query : List.of("\uFFFD\uFFFD", "\u200B\uFEFF", "  ")) {
            assertThatThrownBy(() -> Embeddings.defaultModel().embedQuery(query))
                    .isInstanceOf(UnreadableTextException.class);
            assertThat(QueryVectors.unlessUnreadable(Embeddings.defaultModel(), query))
                    .isNull();
        }
        assertThat(QueryVectors.unlessUnreadable(Embeddings.defaultModel(), "deploy failed"))
                .hasSize(384);
    }

    @Test
    void blankTextIsRejected() {
        assertThatThrownBy(() -> Embeddings.defaultModel().embed("  "))
                .hasMessage("text #0 is blank; only non-blank text can be embedded");
        assertThatThrownBy(() -> Embeddings.defaultModel().embedAll(java.util.Arrays.asList("a", null)))
                .hasMessage("text #1 is missing; only non-blank text can be embedded");
    }

    @Test
    void concurrentCallsGiveTheSameVectors() throws Exception {
        EmbeddingModel model = Embeddings.forName("all-minilm-l6-v2-q");
        float[] expected = model.embed("thread safety check");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<float[]>> futures = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                futures.add(pool.submit(() -> model.embed("thread safety check")));
            }
            for (Future<float[]> future : futures) {
                assertThat(future.get()).containsExactly(expected);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void djlIsKeptOffline() {
        Embeddings.defaultModel().embed("load it");
        assertThat(System.getProperty("ai.djl.offline")).isEqualTo("true");
        assertThat(System.getProperty("OPT_OUT_TRACKING")).isEqualTo("true");
    }
}

package org.agentmemory.platform.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.agentmemory.platform.embedding.InProcessEmbeddingModel;
import org.agentmemory.platform.ranking.ReciprocalRankFusion;
import org.agentmemory.platform.ranking.WeightedScoreFusion;
import org.junit.jupiter.api.Test;

class SettingsTest {

    private static Settings read(Map<String, String> values) {
        return TestSettings.of(values);
    }

    @Test
    void episodicDefaults() {
        Settings settings = read(Map.of("memory.tokenizer", "heuristic"));
        assertThat(settings.embeddingModel()).isEqualTo(InProcessEmbeddingModel.MINILM_QUANTIZED.withThreads(1));
        assertThat(settings.messageEmbeddingModel())
                .isEqualTo(InProcessEmbeddingModel.BGE_SMALL_QUANTIZED.withThreads(1));
        assertThat(settings.episodicDefaultTtlDays()).isEqualTo(90);
        assertThat(settings.recallFusion())
                .isInstanceOfSatisfying(
                        ReciprocalRankFusion.class, rrf -> assertThat(rrf.k()).isEqualTo(10));
        assertThat(settings.recallNeighborWeight()).isEqualTo(0.4);
        assertThat(settings.embeddingBusyShare()).isEqualTo(0.25);
        assertThat(read(Map.of("memory.tokenizer", "heuristic", "memory.embedding.busy-share", "1"))
                        .embeddingBusyShare())
                .isEqualTo(1.0);
        assertThat(settings.searchMergeHour()).isEqualTo(3);
        assertThat(read(Map.of("memory.tokenizer", "heuristic", "memory.search.merge-hour", "-1"))
                        .searchMergeHour())
                .isEqualTo(-1);
        assertThatThrownBy(() -> read(Map.of("memory.tokenizer", "heuristic", "memory.search.merge-hour", "24")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("memory.search.merge-hour is 24");
        assertThat(settings.dbAnalyzeGrowth()).isEqualTo(0.2);
        assertThat(read(Map.of("memory.tokenizer", "heuristic", "memory.db.analyze-growth", "0"))
                        .dbAnalyzeGrowth())
                .isZero();
        assertThatThrownBy(() -> read(Map.of("memory.tokenizer", "heuristic", "memory.db.analyze-growth", "-1")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(
                        "memory.db.analyze-growth is -1.0; it must be a finite number ≥ 0 (0 = never). Default: 0.2");
        assertThat(settings.searchQuietMergeWrites()).isEqualTo(10_000);
        assertThat(settings.searchQuietMergeSeconds()).isEqualTo(60);
        Settings quiet = read(Map.of(
                "memory.tokenizer",
                "heuristic",
                "memory.search.quiet-merge-writes",
                "0",
                "memory.search.quiet-merge-seconds",
                "5"));
        assertThat(quiet.searchQuietMergeWrites()).isZero();
        assertThat(quiet.searchQuietMergeSeconds()).isEqualTo(5);
        assertThatThrownBy(
                        () -> read(Map.of("memory.tokenizer", "heuristic", "memory.search.quiet-merge-writes", "-1")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(
                        "memory.search.quiet-merge-writes is -1; it must be a count ≥ 0 (0 = never). Default: 10000");
        assertThatThrownBy(
                        () -> read(Map.of("memory.tokenizer", "heuristic", "memory.search.quiet-merge-seconds", "0")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("memory.search.quiet-merge-seconds is 0; it must be an integer ≥ 1 (seconds). Default: 60");
    }

    @Test
    void conversationIdleTimeToLiveIsOffByDefaultAndReadInSeconds() {
        assertThat(read(Map.of("memory.tokenizer", "heuristic")).conversationIdleTtl())
                .isNull();
        assertThat(read(Map.of("memory.tokenizer", "heuristic", "memory.conversation.idle-ttl-seconds", "0"))
                        .conversationIdleTtl())
                .isNull();
        assertThat(read(Map.of("memory.tokenizer", "heuristic", "memory.conversation.idle-ttl-seconds", "86400"))
                        .conversationIdleTtl())
                .isEqualTo(java.time.Duration.ofDays(1));
        assertThatThrownBy(() ->
                        read(Map.of("memory.tokenizer", "heuristic", "memory.conversation.idle-ttl-seconds", "-5")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("memory.conversation.idle-ttl-seconds is -5");
    }

    @Test
    void episodicValuesAreRead() {
        Settings settings = read(Map.of(
                "memory.tokenizer",
                "heuristic",
                "memory.embedding.model",
                "all-minilm-l6-v2-q",
                "memory.embedding.threads",
                "0",
                "memory.episodic.default-ttl-days",
                "0",
                "memory.recall.fusion",
                "Weighted",
                "memory.recall.vector-weight",
                "0.7",
                "memory.recall.full-text-weight",
                "0.3"));
        assertThat(settings.embeddingModel()).isEqualTo(InProcessEmbeddingModel.MINILM_QUANTIZED);
        assertThat(settings.messageEmbeddingModel()).isEqualTo(InProcessEmbeddingModel.BGE_SMALL_QUANTIZED);
        Settings swapped = read(Map.of(
                "memory.tokenizer",
                "heuristic",
                "memory.embedding.model",
                "bge-small-en-v1.5-q",
                "memory.embedding.message-model",
                "All-MiniLM-L6-v2",
                "memory.embedding.threads",
                "2"));
        assertThat(swapped.embeddingModel()).isEqualTo(InProcessEmbeddingModel.BGE_SMALL_QUANTIZED.withThreads(2));
        assertThat(swapped.messageEmbeddingModel()).isEqualTo(InProcessEmbeddingModel.MINILM.withThreads(2));
        assertThat(settings.episodicDefaultTtlDays()).isZero();
        assertThatThrownBy(() -> read(Map.of("memory.tokenizer", "heuristic", "memory.embedding.threads", "-1")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("memory.embedding.threads is -1");
        assertThat(settings.recallFusion())
                .isInstanceOfSatisfying(
                        WeightedScoreFusion.class,
                        w -> assertThat(w.weights())
                                .containsEntry("vector", 0.7)
                                .containsEntry("full_text", 0.3));
        assertThat(read(Map.of("memory.tokenizer", "heuristic", "memory.recall.rrf-k", "10"))
                        .recallFusion())
                .isInstanceOfSatisfying(
                        ReciprocalRankFusion.class, rrf -> assertThat(rrf.k()).isEqualTo(10));
    }

    @Test
    void badEpisodicValuesNameTheKey() {
        assertThatThrownBy(() -> read(Map.of("memory.tokenizer", "heuristic", "memory.embedding.model", "bert")))
                .hasMessageStartingWith("memory.embedding.model: Unknown embedding model 'bert'; valid values are");
        assertThatThrownBy(() -> read(Map.of("memory.tokenizer", "heuristic", "memory.embedding.message-model", "bge")))
                .hasMessageStartingWith(
                        "memory.embedding.message-model: Unknown embedding model 'bge'; valid values are");
        assertThatThrownBy(
                        () -> read(Map.of("memory.tokenizer", "heuristic", "memory.episodic.default-ttl-days", "-1")))
                .hasMessage(
                        "memory.episodic.default-ttl-days is -1; it must be an integer ≥ 0 (days; 0 = never). Default: 90");
        assertThatThrownBy(() -> read(Map.of("memory.tokenizer", "heuristic", "memory.recall.fusion", "max")))
                .hasMessage("memory.recall.fusion is 'max'; it must be rrf or weighted. Default: rrf");
        assertThatThrownBy(() -> read(Map.of("memory.tokenizer", "heuristic", "memory.recall.neighbor-weight", "1.5")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("memory.recall.neighbor-weight is 1.5");
        assertThatThrownBy(() -> read(Map.of("memory.tokenizer", "heuristic", "memory.embedding.busy-share", "0")))
                .hasMessage(
                        "memory.embedding.busy-share is 0.0; it must be a number above 0, at most 1. Default: 0.25");
        assertThatThrownBy(() -> read(Map.of("memory.tokenizer", "heuristic", "memory.embedding.busy-share", "1.01")))
                .hasMessageStartingWith("memory.embedding.busy-share is 1.01");
        assertThatThrownBy(() -> read(Map.of("memory.tokenizer", "heuristic", "memory.recall.rrf-k", "0")))
                .hasMessageStartingWith("memory.recall.rrf-k is 0");
        assertThatThrownBy(() -> read(Map.of(
                        "memory.tokenizer",
                        "heuristic",
                        "memory.recall.fusion",
                        "weighted",
                        "memory.recall.vector-weight",
                        "NaN")))
                .hasMessage("memory.recall.vector-weight is NaN; it must be a finite number ≥ 0. Default: 0.6");
    }

    @Test
    void engineHybridFollowsTheFusionSettingsAndCanBeTurnedOff() {
        assertThat(read(Map.of("memory.tokenizer", "heuristic")).engineHybridPipeline())
                .isEqualTo(org.agentmemory.platform.ranking.HybridPipeline.rrf(10));
        assertThat(read(Map.of("memory.tokenizer", "heuristic", "memory.recall.rrf-k", "60"))
                        .engineHybridPipeline()
                        .rankConstant())
                .isEqualTo(60);
        var weighted = read(Map.of(
                        "memory.tokenizer", "heuristic",
                        "memory.recall.fusion", "weighted",
                        "memory.recall.full-text-weight", "1",
                        "memory.recall.vector-weight", "3"))
                .engineHybridPipeline();
        assertThat(weighted.technique()).isEqualTo("weighted");
        assertThat(weighted.fullTextWeight()).isEqualTo(0.25);
        assertThat(weighted.vectorWeight()).isEqualTo(0.75);
        assertThat(read(Map.of("memory.tokenizer", "heuristic", "memory.search.engine-hybrid", " OFF "))
                        .engineHybridPipeline())
                .isNull();
        assertThatThrownBy(() -> read(Map.of("memory.tokenizer", "heuristic", "memory.search.engine-hybrid", "on")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("memory.search.engine-hybrid is 'on'; it must be auto or off. Default: auto");
    }
}

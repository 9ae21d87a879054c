package org.agentmemory.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.agentmemory.embedding.InProcessEmbeddingModel;
import org.agentmemory.recall.control.ReciprocalRankFusion;
import org.agentmemory.recall.control.WeightedScoreFusion;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.Converter;
import org.junit.jupiter.api.Test;

class SettingsTest {

    /** A config over a map, converting the few types Settings reads. */
    private record MapConfig(Map<String, String> values) implements Config {

        @Override
        public <T> T getValue(String name, Class<T> type) {
            return getOptionalValue(name, type).orElseThrow();
        }

        @Override
        public ConfigValue getConfigValue(String name) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <T> Optional<T> getOptionalValue(String name, Class<T> type) {
            String raw = values.get(name);
            if (raw == null) {
                return Optional.empty();
            }
            Object value = type == Integer.class ? Integer.valueOf(raw)
                    : type == Double.class ? Double.valueOf(raw)
                    : type == Boolean.class ? Boolean.valueOf(raw)
                    : raw;
            return Optional.of(type.cast(value));
        }

        @Override
        public Iterable<String> getPropertyNames() {
            return values.keySet();
        }

        @Override
        public Iterable<ConfigSource> getConfigSources() {
            return List.of();
        }

        @Override
        public <T> Optional<Converter<T>> getConverter(Class<T> type) {
            return Optional.empty();
        }

        @Override
        public <T> T unwrap(Class<T> type) {
            throw new IllegalArgumentException();
        }
    }

    private static Settings read(Map<String, String> values) {
        Settings settings = new Settings();
        settings.config = new MapConfig(values);
        settings.read();
        return settings;
    }

    @Test
    void episodicDefaults() {
        Settings settings = read(Map.of("memory.tokenizer", "heuristic"));
        assertThat(settings.embeddingModel()).isEqualTo(InProcessEmbeddingModel.BGE_SMALL_QUANTIZED.withThreads(1));
        assertThat(settings.episodicDefaultTtlDays()).isEqualTo(90);
        assertThat(settings.recallFusion()).isInstanceOfSatisfying(ReciprocalRankFusion.class,
                rrf -> assertThat(rrf.k()).isEqualTo(10));
        assertThat(settings.recallNeighborWeight()).isEqualTo(0.4);
        assertThat(settings.searchMergeHour()).isEqualTo(3);
        assertThat(read(Map.of("memory.tokenizer", "heuristic", "memory.search.merge-hour", "-1")).searchMergeHour())
                .isEqualTo(-1);
        assertThatThrownBy(() -> read(Map.of("memory.tokenizer", "heuristic", "memory.search.merge-hour", "24")))
                .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("memory.search.merge-hour is 24");
    }

    @Test
    void episodicValuesAreRead() {
        Settings settings = read(Map.of("memory.tokenizer", "heuristic", "memory.embedding.model", "all-minilm-l6-v2-q",
                "memory.embedding.threads", "0",
                "memory.episodic.default-ttl-days", "0", "memory.recall.fusion", "Weighted",
                "memory.recall.vector-weight", "0.7", "memory.recall.full-text-weight", "0.3"));
        assertThat(settings.embeddingModel()).isEqualTo(InProcessEmbeddingModel.MINILM_QUANTIZED);
        assertThat(settings.episodicDefaultTtlDays()).isZero();
        assertThatThrownBy(() -> read(Map.of("memory.tokenizer", "heuristic", "memory.embedding.threads", "-1")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("memory.embedding.threads is -1");
        assertThat(settings.recallFusion()).isInstanceOfSatisfying(WeightedScoreFusion.class,
                w -> assertThat(w.weights()).containsEntry("vector", 0.7).containsEntry("full_text", 0.3));
        assertThat(read(Map.of("memory.tokenizer", "heuristic", "memory.recall.rrf-k", "10")).recallFusion())
                .isInstanceOfSatisfying(ReciprocalRankFusion.class, rrf -> assertThat(rrf.k()).isEqualTo(10));
    }

    @Test
    void badEpisodicValuesNameTheKey() {
        assertThatThrownBy(() -> read(Map.of("memory.tokenizer", "heuristic", "memory.embedding.model", "bert")))
                .hasMessageStartingWith("memory.embedding.model: Unknown embedding model 'bert'; valid values are");
        assertThatThrownBy(() -> read(Map.of("memory.tokenizer", "heuristic", "memory.episodic.default-ttl-days", "-1")))
                .hasMessage("memory.episodic.default-ttl-days is -1; it must be an integer ≥ 0 (days; 0 = never). Default: 90");
        assertThatThrownBy(() -> read(Map.of("memory.tokenizer", "heuristic", "memory.recall.fusion", "max")))
                .hasMessage("memory.recall.fusion is 'max'; it must be rrf or weighted. Default: rrf");
        assertThatThrownBy(() -> read(Map.of("memory.tokenizer", "heuristic", "memory.recall.neighbor-weight", "1.5")))
                .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("memory.recall.neighbor-weight is 1.5");
        assertThatThrownBy(() -> read(Map.of("memory.tokenizer", "heuristic", "memory.recall.rrf-k", "0")))
                .hasMessageStartingWith("memory.recall.rrf-k is 0");
        assertThatThrownBy(() -> read(Map.of("memory.tokenizer", "heuristic", "memory.recall.fusion", "weighted",
                "memory.recall.vector-weight", "NaN")))
                .hasMessage("memory.recall.vector-weight is NaN; it must be a finite number ≥ 0. Default: 0.6");
    }
}

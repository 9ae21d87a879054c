package org.agentmemory.embedding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EmbeddingsTest {

    @Test
    void resolvesNamesCaseInsensitivelyWithoutLoading() {
        assertThat(Embeddings.forName(" All-MiniLM-L6-v2 ")).isSameAs(MiniLmEmbeddingModel.FLOAT);
        assertThat(Embeddings.forName("all-minilm-l6-v2-q")).isSameAs(MiniLmEmbeddingModel.QUANTIZED);
        assertThat(Embeddings.forName(null)).isSameAs(Embeddings.defaultModel());
        assertThat(Embeddings.NAMES).containsExactly("all-minilm-l6-v2", "all-minilm-l6-v2-q");
        assertThat(Embeddings.forName("ALL-MINILM-L6-V2-Q").dimension()).isEqualTo(384);
    }

    @Test
    void anUnknownNameListsTheValidOnes() {
        assertThatThrownBy(() -> Embeddings.forName("bge-small"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Unknown embedding model 'bge-small'; valid values are all-minilm-l6-v2 (default, float32) "
                        + "and all-minilm-l6-v2-q (int8 quantized)");
    }
}

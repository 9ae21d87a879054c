package org.agentmemory.platform.embedding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EmbeddingsTest {

    @Test
    void resolvesNamesCaseInsensitivelyWithoutLoading() {
        assertThat(Embeddings.forName(" All-MiniLM-L6-v2 ")).isEqualTo(InProcessEmbeddingModel.MINILM);
        assertThat(Embeddings.forName("all-minilm-l6-v2-q")).isEqualTo(InProcessEmbeddingModel.MINILM_QUANTIZED);
        assertThat(Embeddings.forName(null)).isEqualTo(Embeddings.defaultModel());
        assertThat(Embeddings.forName(" BGE-small-en-v1.5-Q")).isEqualTo(InProcessEmbeddingModel.BGE_SMALL_QUANTIZED);
        assertThat(Embeddings.defaultModel()).isEqualTo(InProcessEmbeddingModel.MINILM_QUANTIZED);
        assertThat(Embeddings.messageDefaultModel()).isEqualTo(InProcessEmbeddingModel.BGE_SMALL_QUANTIZED);
        assertThat(Embeddings.NAMES).containsExactly("all-minilm-l6-v2", "all-minilm-l6-v2-q", "bge-small-en-v1.5-q");
        assertThat(Embeddings.forName("all-minilm-l6-v2", 1))
                .isEqualTo(InProcessEmbeddingModel.MINILM.withThreads(1))
                .isNotEqualTo(InProcessEmbeddingModel.MINILM);
        assertThatThrownBy(() -> Embeddings.forName("all-minilm-l6-v2", -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("intraOpThreads must be >= 0");
        assertThat(Embeddings.forName("ALL-MINILM-L6-V2-Q").dimension()).isEqualTo(384);
    }

    @Test
    void anUnknownNameListsTheValidOnes() {
        assertThatThrownBy(() -> Embeddings.forName("bge-small"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Unknown embedding model 'bge-small'; valid values are all-minilm-l6-v2, all-minilm-l6-v2-q,"
                                + " bge-small-en-v1.5-q (default all-minilm-l6-v2-q)");
    }
}

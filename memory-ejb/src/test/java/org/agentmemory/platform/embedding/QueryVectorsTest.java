package org.agentmemory.platform.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class QueryVectorsTest {

    private static EmbeddingModel failing(Throwable failure) {
        return new EmbeddingModel() {
            @Override
            public String name() {
                return "broken";
            }

            @Override
            public int dimension() {
                return 384;
            }

            @Override
            public float[] embed(String text) {
                if (failure instanceof Error error) {
                    throw error;
                }
                throw (RuntimeException) failure;
            }

            @Override
            public List<float[]> embedAll(List<String> texts) {
                return texts.stream().map(this::embed).toList();
            }
        };
    }

    @Test
    void aFailingModelGivesNoVectorInsteadOfAnError() {
        assertThat(QueryVectors.orNull(failing(new IllegalStateException("session closed")), "q"))
                .isNull();
        assertThat(QueryVectors.orNull(failing(new UnsatisfiedLinkError("libtokenizers.so already loaded")), "q"))
                .isNull();
        assertThat(QueryVectors.orNull(Embeddings.forName("all-minilm-l6-v2-q"), "a working model"))
                .hasSize(384);
    }
}

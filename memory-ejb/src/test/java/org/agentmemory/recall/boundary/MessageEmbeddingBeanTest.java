package org.agentmemory.recall.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MessageEmbeddingBeanTest {

    @Test
    void failedRunsBackOffByDoublingUpToAMinute() {
        assertThat(MessageEmbeddingBean.failureDelayMillis(1)).isEqualTo(1_000);
        assertThat(MessageEmbeddingBean.failureDelayMillis(2)).isEqualTo(2_000);
        assertThat(MessageEmbeddingBean.failureDelayMillis(6)).isEqualTo(32_000);
        assertThat(MessageEmbeddingBean.failureDelayMillis(7)).isEqualTo(60_000);
        assertThat(MessageEmbeddingBean.failureDelayMillis(10_000)).isEqualTo(60_000);
        assertThat(MessageEmbeddingBean.failureDelayMillis(0)).isEqualTo(1_000);
    }
}

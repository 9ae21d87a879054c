package org.agentmemory.platform.embedding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.util.List;
import org.junit.jupiter.api.Test;

class VectorsTest {

    @Test
    void cosineFollowsTheReferenceEdgeCases() {
        assertThat(Vectors.cosine(new float[] {1, 0}, new float[] {1, 0})).isCloseTo(1.0, offset(1e-12));
        assertThat(Vectors.cosine(new float[] {1, 0}, new float[] {0, 2})).isZero();
        assertThat(Vectors.cosine(new float[] {1, 1}, new float[] {-1, -1})).isCloseTo(-1.0, offset(1e-12));
        assertThat(Vectors.cosine(new float[] {1, 0}, new float[] {1, 0, 0})).isZero();
        assertThat(Vectors.cosine(new float[] {0, 0}, new float[] {1, 0})).isZero();
    }

    @Test
    void normalizeAndWeightedMean() {
        assertThat(Vectors.normalize(new float[] {3, 4})).containsExactly(0.6f, 0.8f);
        assertThat(Vectors.normalize(new float[] {0, 0})).containsExactly(0f, 0f);
        // (1·[1,0] + 3·[0,1]) / 4 = [0.25, 0.75] → normalised [1, 3]/√10
        float[] mean = Vectors.weightedMeanNormalized(List.of(new float[] {1, 0}, new float[] {0, 1}), List.of(1, 3));
        assertThat(mean[0]).isCloseTo((float) (1 / Math.sqrt(10)), offset(1e-6f));
        assertThat(mean[1]).isCloseTo((float) (3 / Math.sqrt(10)), offset(1e-6f));
        assertThat(Vectors.norm(mean)).isCloseTo(1.0, offset(1e-6));
    }
}

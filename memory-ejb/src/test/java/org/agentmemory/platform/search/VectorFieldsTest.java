package org.agentmemory.platform.search;

import static org.assertj.core.api.Assertions.assertThat;

import org.hibernate.search.engine.backend.types.VectorSimilarity;
import org.junit.jupiter.api.Test;

class VectorFieldsTest {

    @Test
    void luceneComparesByDotProductAndClustersByCosine() {
        assertThat(VectorFields.similarityFor(null)).isEqualTo(VectorSimilarity.DOT_PRODUCT);
        assertThat(VectorFields.similarityFor("")).isEqualTo(VectorSimilarity.DOT_PRODUCT);
        assertThat(VectorFields.similarityFor(" Lucene ")).isEqualTo(VectorSimilarity.DOT_PRODUCT);
        assertThat(VectorFields.similarityFor("elasticsearch")).isEqualTo(VectorSimilarity.COSINE);
    }

    @Test
    void forUnitVectorsLuceneScoresDotProductAsCosine() {
        float[] a = org.agentmemory.platform.embedding.Vectors.normalize(new float[] {0.3f, -1.2f, 0.5f, 2.0f});
        float[] b = org.agentmemory.platform.embedding.Vectors.normalize(new float[] {-0.7f, 0.1f, 1.5f, 0.2f});
        assertThat(org.apache.lucene.index.VectorSimilarityFunction.DOT_PRODUCT.compare(a, b))
                .isCloseTo(
                        org.apache.lucene.index.VectorSimilarityFunction.COSINE.compare(a, b),
                        org.assertj.core.api.Assertions.within(1e-6f));
    }
}

package org.agentmemory.platform.search;

import java.util.Locale;
import org.hibernate.search.engine.backend.types.VectorSimilarity;
import org.hibernate.search.mapper.orm.mapping.HibernateOrmMappingConfigurationContext;
import org.hibernate.search.mapper.pojo.mapping.definition.programmatic.ProgrammaticMappingConfigurationContext;

/**
 * Maps a 384-dimension {@code embedding} vector field with the similarity that suits the backend
 * ({@link #similarityFor(String)}): each component that indexes vectors registers its entities through a mapping
 * configurer of its own ({@code hibernate.search.mapping.configurer} in {@code persistence.xml} lists them) that calls
 * {@link #map}. The backend is read from the same system property ({@code memory.search.backend}, default
 * {@code lucene}) that selects {@code hibernate.search.backend.type}.
 *
 * <p>Every stored and query vector has unit length (the embedding models normalise, and so does
 * {@code Vectors.weightedMeanNormalized}), so cosine similarity equals the dot product, and Lucene scores both
 * alike: {@code (1 + similarity) / 2}. The embedded Lucene backend therefore uses {@code DOT_PRODUCT}: on
 * Java 17 Lucene's cosine costs more than twice its dot product (it also computes both norms on every
 * comparison), and comparisons are most of the CPU of building
 * and merging HNSW graphs and of k-NN search. OpenSearch keeps {@code COSINE}: it scores inner products on
 * another scale ({@code 1 + dot}), which the recall thresholds do not expect.
 *
 * <p>Changing the similarity of an existing index is not possible: the Lucene index directory was renamed
 * with this change ({@code agent-memory/search-v2}), so an index built before it is left alone and
 * {@code POST /api/v1/admin/reindex} builds the new one from the database.
 */
public final class VectorFields {

    private VectorFields() {}

    /** Dimension of every vector field (all embedding models in use). */
    public static final int DIMENSION = org.agentmemory.platform.embedding.InProcessEmbeddingModel.DIMENSION;

    /**
     * What an index holds as {@code embeddingModel} for a row still waiting for its vector (a value no model name can
     * take; the entity maps its {@code embeddingModel} with {@code indexNullAs} this).
     */
    public static final String PENDING = "_pending";

    /** The system property naming the backend, as in {@code persistence.xml}. */
    public static final String BACKEND_PROPERTY = "memory.search.backend";

    /**
     * @return the configured backend's type ({@value #BACKEND_PROPERTY}, as {@code persistence.xml} reads it):
     *         {@code lucene} (the default) or {@code elasticsearch}
     */
    public static String configuredBackend() {
        return System.getProperty(BACKEND_PROPERTY, "lucene");
    }

    /**
     * Maps an entity's {@code embedding} property ({@code float[]}, {@value #DIMENSION} dimensions, unit length) as a
     * vector field with the configured backend's similarity.
     *
     * @param context the mapping configuration
     * @param entity  the indexed entity that has the property
     */
    public static void map(HibernateOrmMappingConfigurationContext context, Class<?> entity) {
        ProgrammaticMappingConfigurationContext mapping = context.programmaticMapping();
        mapping.type(entity)
                .property("embedding")
                .vectorField(DIMENSION)
                .vectorSimilarity(similarityFor(configuredBackend()));
    }

    /**
     * @param backend the backend type ({@code lucene}, {@code elasticsearch}), {@code null} meaning lucene
     * @return {@code DOT_PRODUCT} for Lucene, {@code COSINE} for any other backend
     */
    public static VectorSimilarity similarityFor(String backend) {
        String type = backend == null || backend.isBlank()
                ? "lucene"
                : backend.strip().toLowerCase(Locale.ROOT);
        return type.equals("lucene") ? VectorSimilarity.DOT_PRODUCT : VectorSimilarity.COSINE;
    }
}

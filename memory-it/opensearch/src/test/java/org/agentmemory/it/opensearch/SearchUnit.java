package org.agentmemory.it.opensearch;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import javax.sql.DataSource;
import org.agentmemory.conversation.entity.TurnMessage;
import org.agentmemory.episodic.entity.Episode;
import org.agentmemory.platform.schema.SchemaMigration;
import org.h2.jdbcx.JdbcDataSource;
import org.hibernate.search.mapper.orm.Search;

/**
 * The product's persistence unit on a fresh in-memory H2 database migrated by the product's Flyway migrations
 * ({@code sql/h2}, as {@code SchemaMigrationBean} applies them), with Hibernate Search on its Elasticsearch backend
 * against an {@link OpenSearchNode}. Test-only index settings: indexes dropped and created at start and dropped at
 * close, and {@code sync} indexing (a committed write is searchable when the commit returns).
 */
public final class SearchUnit implements AutoCloseable {

    private static final AtomicInteger DATABASES = new AtomicInteger();

    private final EntityManagerFactory emf;

    private SearchUnit(EntityManagerFactory emf) {
        this.emf = emf;
    }

    /**
     * @param node the OpenSearch node
     * @return a started unit
     */
    public static SearchUnit start(OpenSearchNode node) {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:opensearch-it" + DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1");
        ds.setUser("sa");
        SchemaMigration.migrate(ds, SearchUnit.class.getClassLoader());
        Map<String, Object> props = new HashMap<>();
        props.put("jakarta.persistence.nonJtaDataSource", (DataSource) ds);
        props.put("hibernate.search.backend.uris", node.uri());
        // What memory.search.analysis must say for OpenSearch: no configurer (its "english" analyzer is built in).
        props.put("hibernate.search.backend.analysis.configurer", "");
        props.put("hibernate.search.schema_management.strategy", "drop-and-create-and-drop");
        props.put("hibernate.search.indexing.plan.synchronization.strategy", "sync");
        EntityManagerFactory emf = Persistence.createEntityManagerFactory("memory-opensearch", props);
        SchemaMigration.validate(emf);
        return new SearchUnit(emf);
    }

    /** @return the persistence unit */
    public EntityManagerFactory emf() {
        return emf;
    }

    /**
     * @param work what to do in a resource-local transaction (committed when it returns)
     * @param <T>  the result type
     * @return what {@code work} returned
     */
    public <T> T inTransaction(Function<EntityManager, T> work) {
        return org.agentmemory.testsupport.Databases.inTransaction(emf, work);
    }

    /**
     * @param work what to read, with an entity manager outside any transaction
     * @param <T>  the result type
     * @return what {@code work} returned
     */
    public <T> T read(Function<EntityManager, T> work) {
        EntityManager em = emf.createEntityManager();
        try {
            return work.apply(em);
        } finally {
            em.close();
        }
    }

    /** @return how many documents the two indexes hold, episodes then messages */
    public long[] documentCounts() {
        return read(em -> new long[] {
            Search.session(em).search(Episode.class).where(f -> f.matchAll()).fetchTotalHitCount(),
            Search.session(em)
                    .search(TurnMessage.class)
                    .where(f -> f.matchAll())
                    .fetchTotalHitCount()
        });
    }

    /** @return the indexed entity types */
    public static List<Class<?>> indexed() {
        return List.of(Episode.class, TurnMessage.class);
    }

    /**
     * @param node  the node
     * @param index a Hibernate Search index name ({@code episode}, {@code turn_message})
     * @return how many searchable segments the index's primary shards hold on the node
     */
    public static int searchableSegments(OpenSearchNode node, String index) {
        var response = node.runner()
                .client()
                .admin()
                .indices()
                .prepareSegments(index + "-read")
                .get();
        int segments = 0;
        for (var indexSegments : response.getIndices().values()) {
            for (var shardGroup : indexSegments.getShards().values()) {
                for (var shard : shardGroup.getShards()) {
                    if (shard.getShardRouting().primary()) {
                        segments += (int) shard.getSegments().stream()
                                .filter(s -> s.isSearch())
                                .count();
                    }
                }
            }
        }
        return segments;
    }

    @Override
    public void close() {
        emf.close();
    }
}

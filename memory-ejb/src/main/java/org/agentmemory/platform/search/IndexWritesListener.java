package org.agentmemory.platform.search;

import jakarta.persistence.PostPersist;
import jakarta.persistence.PostRemove;
import jakarta.persistence.PostUpdate;

/**
 * JPA entity listener of the indexed entities (episodes, conversation messages): each insert, update and delete
 * is one document written to the search index, counted by {@link IndexWrites#DEPLOYMENT}. Portable JPA (runs
 * under EclipseLink as under Hibernate); bulk JPQL updates and deletes are not seen, which only delays a merge.
 */
public class IndexWritesListener {

    @PostPersist
    @PostUpdate
    @PostRemove
    void written(Object entity) {
        IndexWrites.DEPLOYMENT.record();
    }
}

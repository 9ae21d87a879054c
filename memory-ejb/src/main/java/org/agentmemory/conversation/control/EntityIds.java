package org.agentmemory.conversation.control;

import java.util.HashMap;
import java.util.Map;

import jakarta.persistence.EntityManager;

import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;

/**
 * Ids for rows written without the persistence context ({@link TurnRows}), taken from the entities' own id
 * generators (Hibernate's pooled sequence optimizer, 50 ids per {@code nextval}): they share the blocks the
 * persistence context uses, so the two kinds of write never give the same id. Hibernate only; one instance per
 * transaction.
 */
public final class EntityIds implements TurnRows.Ids {

    private final SharedSessionContractImplementor session;
    private final Map<Class<?>, BeforeExecutionGenerator> generators = new HashMap<>();

    /** @param em the entity manager of the current transaction (Hibernate) */
    public EntityIds(EntityManager em) {
        this.session = em.unwrap(SharedSessionContractImplementor.class);
    }

    @Override
    public long next(Object entity) {
        BeforeExecutionGenerator generator = generators.computeIfAbsent(entity.getClass(), type ->
                (BeforeExecutionGenerator) session.getFactory().getMappingMetamodel().getEntityDescriptor(type)
                        .getGenerator());
        return ((Number) generator.generate(session, entity, null, EventType.INSERT)).longValue();
    }
}

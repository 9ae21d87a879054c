package org.agentmemory.conversation.control;

import jakarta.persistence.EntityManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.agentmemory.conversation.entity.Turn;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.metamodel.mapping.JdbcMapping;
import org.hibernate.type.descriptor.ValueBinder;

/**
 * What {@link TurnRows} takes from the entities' Hibernate mappings, so that rows it writes are exactly those the
 * persistence context would write:
 * <ul>
 *   <li>ids from the entities' own generators (the pooled sequence optimizer, 50 ids per {@code nextval}): they
 *       share the blocks the persistence context uses, so the two kinds of write never give the same id;</li>
 *   <li>instants bound the way the mapping binds {@code Turn.occurredAt} for this database (its attribute converter
 *       and JDBC type; on PostgreSQL a {@code java.sql.Timestamp} in UTC), so that they read back unchanged,
 *       before the Gregorian reform too; {@link #read} reads them back the same way. The conversation's
 *       {@code created_at} and {@code updated_at} have the same converter and column type, so
 *       {@link LockedConversations} reads and binds them with the same mapping.</li>
 * </ul>
 * Hibernate only; one instance per transaction.
 */
public final class EntityMappings implements TurnRows.Ids, TurnRows.InstantColumn, LockedConversations.InstantReader {

    private final SharedSessionContractImplementor session;
    private final Map<Class<?>, BeforeExecutionGenerator> generators = new HashMap<>();
    private final JdbcMapping instantMapping;

    /** @param em the entity manager of the current transaction (Hibernate) */
    public EntityMappings(EntityManager em) {
        this.session = em.unwrap(SharedSessionContractImplementor.class);
        this.instantMapping = session.getFactory()
                .getMappingMetamodel()
                .getEntityDescriptor(Turn.class)
                .findAttributeMapping("occurredAt")
                .getSingleJdbcMapping();
    }

    @Override
    public long next(Object entity) {
        BeforeExecutionGenerator generator =
                generators.computeIfAbsent(entity.getClass(), type -> (BeforeExecutionGenerator) session.getFactory()
                        .getMappingMetamodel()
                        .getEntityDescriptor(type)
                        .getGenerator());
        return ((Number) generator.generate(session, entity, null, EventType.INSERT)).longValue();
    }

    /**
     * Reads an instant column ({@code occurred_at}) the way the mapping reads {@code Turn.occurredAt}, the
     * inverse of {@link #bind}.
     *
     * @param rs    a result set on its current row
     * @param index the column index
     * @return the instant, or {@code null} for SQL {@code NULL}
     * @throws SQLException as the driver reports it
     */
    @Override
    public Instant read(java.sql.ResultSet rs, int index) throws SQLException {
        Object relational = instantMapping.getJdbcValueExtractor().extract(rs, index, session);
        return relational == null ? null : (Instant) instantMapping.convertToDomainValue(relational);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void bind(PreparedStatement ps, int index, Instant value) throws SQLException {
        ((ValueBinder<Object>) instantMapping.getJdbcValueBinder())
                .bind(ps, instantMapping.convertToRelationalValue(value), index, session);
    }
}

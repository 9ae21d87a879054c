package org.agentmemory.conversation.control;

import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.conversation.entity.ToolInvocation;
import org.agentmemory.conversation.entity.Turn;

/**
 * Reads a conversation's turns with their tool invocations as records, over a caller-supplied
 * {@link EntityManager}.
 */
final class TurnReads {

    private final EntityManager em;

    TurnReads(EntityManager em) {
        this.em = em;
    }

    /** @return the Hibernate session of the entity manager, or {@code null} under another provider */
    private org.hibernate.Session hibernate() {
        try {
            return em.unwrap(org.hibernate.Session.class);
        } catch (jakarta.persistence.PersistenceException e) {
            return null;
        }
    }

    /** The columns of a turn read by {@link #turns}, in the order {@link TurnMapper#turn} expects them. */
    private static final String TURN_COLUMNS = "t.id, t.seq, t.turn_id, t.user_id, t.chatbot_id, t.user_message,"
            + " t.assistant_response, t.context_used, t.tools_used, t.occurred_at, t.metadata, t.error, t.tokens_user,"
            + " t.tokens_assistant, t.tokens_tools, t.tokens_total, t.tokenizer, t.state, t.schema_version,"
            + " t.norm_version";

    /**
     * Reads turns in sequence order with their invocations, in two queries whatever the number of turns.
     * Under Hibernate the queries run on the transaction's connection in plain JDBC (after flushing pending entity
     * changes, as a query through the persistence context would), decoding columns as the entities' mappings do
     * (their JSON converters, {@link EntityMappings#read} for the instant): nothing is registered in the
     * persistence context, and the rows skip the ORM's result processing (docs/benchmarks.md, getHistory). Other providers select
     * the same columns in JPQL.
     *
     * @param conversationId the conversation
     * @param afterSequence  only turns with a greater sequence
     * @param limit          at most this many, or {@code Integer.MAX_VALUE}
     * @return the records
     */
    List<TurnRecord> turns(long conversationId, long afterSequence, int limit) {
        org.hibernate.Session session = hibernate();
        if (session == null) {
            return turnsByQuery(conversationId, afterSequence, limit);
        }
        if (session.isDirty()) {
            session.flush();
        }
        EntityMappings mappings = new EntityMappings(em);
        return session.doReturningWork(con -> {
            List<Object[]> turns = new ArrayList<>();
            try (java.sql.PreparedStatement ps = con.prepareStatement("SELECT " + TURN_COLUMNS
                    + " FROM turn t WHERE t.conversation_id = ? AND t.seq > ? ORDER BY t.seq")) {
                ps.setLong(1, conversationId);
                ps.setLong(2, afterSequence);
                if (limit != Integer.MAX_VALUE) {
                    ps.setMaxRows(limit);
                }
                try (java.sql.ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        turns.add(turnRow(rs, mappings));
                    }
                }
            }
            if (turns.isEmpty()) {
                return List.of();
            }
            // The invocations of exactly the turns read, by their primary keys: one index scan of
            // (turn_pk, ordinal) in key order, with no join back to the turn table and no sort (a join on
            // (conversation_id, seq) was planned as a nested loop and an incremental sort, or a parallel plan).
            Long[] turnPks = new Long[turns.size()];
            for (int i = 0; i < turnPks.length; i++) {
                turnPks[i] = (Long) turns.get(i)[0];
            }
            Map<Long, List<ToolInvocationRecord>> byTurn = new HashMap<>();
            java.sql.Array pks = con.createArrayOf("BIGINT", turnPks);
            try (java.sql.PreparedStatement ps = con.prepareStatement("SELECT i.turn_pk, i.tool_name, i.input,"
                    + " i.output, i.status, i.error, i.elapsed_ms, i.output_chars, i.omitted, i.wm_key"
                    + " FROM tool_invocation i WHERE i.turn_pk = ANY(?) ORDER BY i.turn_pk, i.ordinal")) {
                ps.setArray(1, pks);
                try (java.sql.ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Object[] row = invocationRow(rs);
                        byTurn.computeIfAbsent((Long) row[0], k -> new ArrayList<>())
                                .add(TurnMapper.invocation(row));
                    }
                }
            } finally {
                pks.free();
            }
            return records(turns, byTurn);
        });
    }

    /** {@link #turns} through the persistence context: the same columns selected in JPQL (any provider). */
    private List<TurnRecord> turnsByQuery(long conversationId, long afterSequence, int limit) {
        TypedQuery<Object[]> q = em.createQuery(
                        "SELECT t.id, t.seq, t.turnId, t.userId, t.chatbotId, t.userMessage,"
                                + " t.assistantResponse, t.contextUsed, t.toolsUsed, t.occurredAt, t.metadata, t.error, t.tokensUser,"
                                + " t.tokensAssistant, t.tokensTools, t.tokensTotal, t.tokenizer, t.state, t.schemaVersion, t.normVersion"
                                + " FROM Turn t WHERE t.conversation.id = :c AND t.seq > :after ORDER BY t.seq",
                        Object[].class)
                .setParameter("c", conversationId)
                .setParameter("after", afterSequence);
        if (limit != Integer.MAX_VALUE) {
            q.setMaxResults(limit);
        }
        List<Object[]> turns = q.getResultList();
        if (turns.isEmpty()) {
            return List.of();
        }
        long first = (Long) turns.get(0)[1];
        long last = (Long) turns.get(turns.size() - 1)[1];
        List<Object[]> invocations = em.createQuery(
                        "SELECT t.id, i.toolName, i.input, i.output, i.status, i.error,"
                                + " i.elapsedMs, i.outputChars, i.omitted, i.wmKey FROM ToolInvocation i JOIN i.turn t"
                                + " WHERE t.conversation.id = :c AND t.seq BETWEEN :first AND :last ORDER BY t.seq, i.ordinal",
                        Object[].class)
                .setParameter("c", conversationId)
                .setParameter("first", first)
                .setParameter("last", last)
                .getResultList();
        Map<Long, List<ToolInvocationRecord>> byTurn = new HashMap<>();
        for (Object[] row : invocations) {
            byTurn.computeIfAbsent((Long) row[0], k -> new ArrayList<>()).add(TurnMapper.invocation(row));
        }
        return records(turns, byTurn);
    }

    private static List<TurnRecord> records(List<Object[]> turns, Map<Long, List<ToolInvocationRecord>> byTurn) {
        List<TurnRecord> records = new ArrayList<>(turns.size());
        for (Object[] row : turns) {
            records.add(TurnMapper.turn(row, byTurn.getOrDefault((Long) row[0], List.of())));
        }
        return records;
    }

    /** @return the current row of {@link #TURN_COLUMNS}, converted as the {@link Turn} mapping converts them */
    private static Object[] turnRow(java.sql.ResultSet rs, EntityMappings mappings) throws java.sql.SQLException {
        return new Object[] {
            rs.getLong(1),
            rs.getLong(2),
            rs.getString(3),
            rs.getString(4),
            rs.getString(5),
            rs.getString(6),
            rs.getString(7),
            rs.getString(8),
            TurnRows.STRING_LIST.convertToEntityAttribute(rs.getString(9)),
            mappings.read(rs, 10),
            TurnRows.OBJECT.convertToEntityAttribute(rs.getString(11)),
            rs.getString(12),
            rs.getInt(13),
            rs.getInt(14),
            rs.getInt(15),
            rs.getInt(16),
            rs.getString(17),
            rs.getString(18),
            rs.getInt(19),
            rs.getString(20)
        };
    }

    /** @return the current invocation row of {@link #turns}, converted as the {@link ToolInvocation} mapping does */
    private static Object[] invocationRow(java.sql.ResultSet rs) throws java.sql.SQLException {
        long elapsed = rs.getLong(7);
        Long elapsedMs = rs.wasNull() ? null : elapsed;
        int chars = rs.getInt(8);
        Integer outputChars = rs.wasNull() ? null : chars;
        return new Object[] {
            rs.getLong(1),
            rs.getString(2),
            rs.getString(3),
            rs.getString(4),
            rs.getString(5),
            rs.getString(6),
            elapsedMs,
            outputChars,
            TurnRows.STRING_MAP.convertToEntityAttribute(rs.getString(9)),
            rs.getString(10)
        };
    }
}

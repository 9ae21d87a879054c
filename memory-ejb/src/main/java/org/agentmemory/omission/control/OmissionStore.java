package org.agentmemory.omission.control;

import jakarta.persistence.EntityManager;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.agentmemory.omission.entity.Omission;
import org.agentmemory.omission.entity.OmissionTurn;
import org.agentmemory.platform.text.CodePoints;

/**
 * The omission store (spec §7.2) over JPA, scoped by conversation (the spec's session key
 * {@code (tenant, chatbot-or-_default, user, session)} is exactly one conversation row, so no string key can
 * collide). The caller owns the transaction and, for writes, holds the conversation's row lock, which makes
 * {@link #put} idempotent under concurrency: same content, same id, one row, no duplicate index entries.
 */
public class OmissionStore {

    private final EntityManager em;

    public OmissionStore(EntityManager em) {
        this.em = em;
    }

    /**
     * Stores content (once) and records it for a turn (once, in insertion order).
     *
     * @param scope        the locked conversation's scope
     * @param content      the exact content; never {@code null}
     * @param turnId       the turn that produced it, or {@code null} to store without indexing
     * @param toolName     the tool that produced it, or {@code null}
     * @param now          the write time
     * @param ttl          time to live, or {@code null} for none; re-applied on every put
     * @return the content id ({@code om_} + 16 hex digits)
     */
    public String put(OmissionScope scope, String content, String turnId, String toolName, Instant now, Duration ttl) {
        String contentId = ContentIds.contentId(content);
        Instant expiresAt = ttl == null ? null : now.plus(ttl);
        Omission existing = find(scope, contentId);
        if (existing == null) {
            em.persist(new Omission(
                    scope.tenantId(),
                    scope.conversationId(),
                    contentId,
                    content,
                    CodePoints.length(content),
                    toolName,
                    now,
                    expiresAt));
        } else if (expiresAt != null) {
            existing.setExpiresAt(expiresAt);
        }
        if (turnId != null) {
            List<String> indexed = listByTurnIncludingExpired(scope, turnId);
            if (!indexed.contains(contentId)) {
                em.persist(
                        new OmissionTurn(scope.tenantId(), scope.conversationId(), turnId, contentId, indexed.size()));
            }
        }
        return contentId;
    }

    /**
     * Stores many omissions (spec §7.2 {@code put_many}) with the same result as calling {@link #put} for each in
     * order, in three queries plus the inserts instead of two queries per omission: which contents exist, which
     * index entries the turns have, then only what is missing is inserted. Loads no content. With a TTL, each
     * omission goes through {@link #put}, which re-applies the expiry of existing content.
     *
     * @param scope        the locked conversation's scope
     * @param omissions    the omissions (content id, content, turn id, tool name); the content id must be
     *                     {@link ContentIds#contentId} of the content
     * @param now          the write time
     * @param ttl          time to live, or {@code null} for none
     */
    public void putMany(
            OmissionScope scope,
            Collection<org.agentmemory.api.omission.Omission> omissions,
            Instant now,
            Duration ttl) {
        if (omissions.isEmpty()) {
            return;
        }
        if (ttl != null) {
            for (org.agentmemory.api.omission.Omission omission : omissions) {
                put(scope, omission.content(), omission.turnId(), omission.toolName(), now, ttl);
            }
            return;
        }
        Set<String> contentIds = new HashSet<>();
        Set<String> turnIds = new HashSet<>();
        for (org.agentmemory.api.omission.Omission omission : omissions) {
            contentIds.add(omission.contentId());
            if (omission.turnId() != null) {
                turnIds.add(omission.turnId());
            }
        }
        Set<String> stored = new HashSet<>(em.createQuery(
                        "SELECT o.contentId FROM Omission o" + " WHERE o.conversationId = :c AND o.contentId IN :ids",
                        String.class)
                .setParameter("c", scope.conversationId())
                .setParameter("ids", contentIds)
                .getResultList());
        Map<String, Set<String>> indexed = new java.util.HashMap<>();
        Map<String, Integer> nextOrdinal = new java.util.HashMap<>();
        if (!turnIds.isEmpty()) {
            for (Object[] row : em.createQuery(
                            "SELECT t.turnId, t.contentId, t.ordinal FROM OmissionTurn t"
                                    + " WHERE t.conversationId = :c AND t.turnId IN :turns",
                            Object[].class)
                    .setParameter("c", scope.conversationId())
                    .setParameter("turns", turnIds)
                    .getResultList()) {
                String turnId = (String) row[0];
                indexed.computeIfAbsent(turnId, k -> new HashSet<>()).add((String) row[1]);
                nextOrdinal.merge(turnId, ((Number) row[2]).intValue() + 1, Math::max);
            }
        }
        for (org.agentmemory.api.omission.Omission omission : omissions) {
            String contentId = omission.contentId();
            if (stored.add(contentId)) {
                em.persist(new Omission(
                        scope.tenantId(),
                        scope.conversationId(),
                        contentId,
                        omission.content(),
                        CodePoints.length(omission.content()),
                        omission.toolName(),
                        now,
                        null));
            }
            String turnId = omission.turnId();
            if (turnId != null
                    && indexed.computeIfAbsent(turnId, k -> new HashSet<>()).add(contentId)) {
                int ordinal = nextOrdinal.getOrDefault(turnId, 0);
                em.persist(new OmissionTurn(scope.tenantId(), scope.conversationId(), turnId, contentId, ordinal));
                nextOrdinal.put(turnId, ordinal + 1);
            }
        }
    }

    /**
     * @return the exact content, or {@code null} when unknown, from another scope, or expired
     */
    public String get(OmissionScope scope, String contentId, Instant now) {
        Omission omission = find(scope, contentId);
        return omission == null || omission.expiredAt(now) ? null : omission.getContent();
    }

    /**
     * Checks existence without loading any content (spec §7.2 {@code probe}).
     *
     * @return {@code true} when retrievable now, {@code false} when unknown or expired; never "unknown"
     */
    public boolean probe(OmissionScope scope, String contentId, Instant now) {
        return probeMany(scope, List.of(contentId), now).get(contentId);
    }

    /**
     * Checks many ids in one query, loading no content.
     *
     * @return each requested id → retrievable now; in the order requested
     */
    public Map<String, Boolean> probeMany(OmissionScope scope, Collection<String> contentIds, Instant now) {
        Map<String, Boolean> result = new LinkedHashMap<>();
        contentIds.forEach(id -> result.put(id, Boolean.FALSE));
        if (contentIds.isEmpty()) {
            return result;
        }
        List<Object[]> rows = em.createQuery(
                        "SELECT o.contentId, o.expiresAt FROM Omission o"
                                + " WHERE o.conversationId = :c AND o.contentId IN :ids",
                        Object[].class)
                .setParameter("c", scope.conversationId())
                .setParameter("ids", new HashSet<>(contentIds))
                .getResultList();
        for (Object[] row : rows) {
            Instant expiresAt = (Instant) row[1];
            result.put((String) row[0], expiresAt == null || expiresAt.isAfter(now));
        }
        return result;
    }

    /**
     * @return the content ids recorded for a turn, in insertion order, leaving out expired content
     */
    public List<String> listByTurn(OmissionScope scope, String turnId, Instant now) {
        List<String> ids = listByTurnIncludingExpired(scope, turnId);
        Map<String, Boolean> alive = probeMany(scope, ids, now);
        List<String> result = new ArrayList<>(ids.size());
        for (String id : ids) {
            if (alive.get(id)) {
                result.add(id);
            }
        }
        return result;
    }

    private List<String> listByTurnIncludingExpired(OmissionScope scope, String turnId) {
        return em.createQuery(
                        "SELECT t.contentId FROM OmissionTurn t WHERE t.conversationId = :c AND t.turnId = :turn"
                                + " ORDER BY t.ordinal",
                        String.class)
                .setParameter("c", scope.conversationId())
                .setParameter("turn", turnId)
                .getResultList();
    }

    /**
     * Drops every omission and index entry of a conversation (spec §7.2 {@code clear}).
     *
     * @return the number of omissions removed
     */
    public int clear(OmissionScope scope) {
        em.createQuery("DELETE FROM OmissionTurn t WHERE t.conversationId = :c")
                .setParameter("c", scope.conversationId())
                .executeUpdate();
        return em.createQuery("DELETE FROM Omission o WHERE o.conversationId = :c")
                .setParameter("c", scope.conversationId())
                .executeUpdate();
    }

    /**
     * Deletes expired content everywhere and the index entries that pointed at it (the TTL purge).
     *
     * @return the number of omissions removed
     */
    public int purgeExpired(Instant now) {
        List<Object[]> expired = em.createQuery(
                        "SELECT o.conversationId, o.contentId FROM Omission o"
                                + " WHERE o.expiresAt IS NOT NULL AND o.expiresAt <= :now",
                        Object[].class)
                .setParameter("now", now)
                .setMaxResults(10_000)
                .getResultList();
        Set<Long> conversations = new HashSet<>();
        for (Object[] row : expired) {
            em.createQuery("DELETE FROM OmissionTurn t WHERE t.conversationId = :c AND t.contentId = :id")
                    .setParameter("c", row[0])
                    .setParameter("id", row[1])
                    .executeUpdate();
            conversations.add((Long) row[0]);
        }
        if (expired.isEmpty()) {
            return 0;
        }
        return em.createQuery("DELETE FROM Omission o WHERE o.expiresAt IS NOT NULL AND o.expiresAt <= :now"
                        + " AND o.conversationId IN :cs")
                .setParameter("now", now)
                .setParameter("cs", conversations)
                .executeUpdate();
    }

    private Omission find(OmissionScope scope, String contentId) {
        List<Omission> found = em.createQuery(
                        "SELECT o FROM Omission o WHERE o.conversationId = :c AND o.contentId = :id", Omission.class)
                .setParameter("c", scope.conversationId())
                .setParameter("id", contentId)
                .getResultList();
        return found.isEmpty() ? null : found.get(0);
    }
}

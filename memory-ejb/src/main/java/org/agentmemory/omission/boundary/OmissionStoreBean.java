package org.agentmemory.omission.boundary;

import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.context.ContextMemoryOperations;
import org.agentmemory.api.conversation.ConversationMemoryOperations;
import org.agentmemory.api.omission.Omission;
import org.agentmemory.omission.control.ContentIds;
import org.agentmemory.omission.control.OmissionScope;
import org.agentmemory.omission.control.OmissionStore;

/**
 * The omission store (spec §7.2) for the other components, in the caller's transaction (reads also without one): a
 * conversation's omitted
 * contents by content id and by turn. The caller has checked that the conversation exists in the tenant and, for
 * writes, holds its row lock, which makes a put idempotent under concurrency (see {@link OmissionStore}).
 */
@Stateless
@LocalBean
public class OmissionStoreBean {

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    private OmissionStore store() {
        return new OmissionStore(em);
    }

    /**
     * @param tenantId       the conversation's tenant
     * @param conversationId the conversation
     * @param contentId      the content id ({@code om_} + 16 hex digits)
     * @param now            the read time
     * @return the exact content, or {@code null} when unknown, of another conversation, or expired
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public String get(String tenantId, long conversationId, String contentId, Instant now) {
        // An id of another shape names nothing; it is not sent to the database (PostgreSQL refuses a NUL in text).
        if (!ContentIds.isContentId(contentId)) {
            return null;
        }
        return store().get(new OmissionScope(tenantId, conversationId), contentId, now);
    }

    /**
     * Spec §7.2 {@code get} for a client: the content, or a problem that says it is unknown or expired.
     *
     * @param tenantId       the conversation's tenant (the caller checked that the conversation exists)
     * @param conversationId the conversation
     * @param contentId      the content id, or {@code null}
     * @return the exact content
     * @throws NotFoundException with spec §7.2's {@code EXPIRED_MESSAGE} when unknown, of another conversation or
     *                           expired
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public String read(String tenantId, long conversationId, String contentId) throws NotFoundException {
        String content = get(tenantId, conversationId, contentId, now());
        if (content == null) {
            throw new NotFoundException(
                    "omission",
                    contentId,
                    String.format(Locale.ROOT, ContextMemoryOperations.EXPIRED_MESSAGE, contentId));
        }
        return content;
    }

    /**
     * Spec §7.2 {@code probe_many} for a client.
     *
     * @param contentIds the ids, at most {@link ConversationMemoryOperations#MAX_PAGE_SIZE}
     * @return each id → retrievable now, in the order requested
     * @throws InvalidInputException when {@code contentIds} is {@code null} or too long
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public Map<String, Boolean> probe(String tenantId, long conversationId, List<String> contentIds)
            throws InvalidInputException {
        if (contentIds == null || contentIds.size() > ConversationMemoryOperations.MAX_PAGE_SIZE) {
            throw new InvalidInputException(
                    "contentIds",
                    "max-items",
                    "contentIds must list 0 to " + ConversationMemoryOperations.MAX_PAGE_SIZE + " ids.");
        }
        return new LinkedHashMap<>(probeMany(tenantId, conversationId, contentIds, now()));
    }

    /** Spec §7.2 {@code list_by_turn} for a client: the ids of a turn's retrievable content, in insertion order. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<String> list(String tenantId, long conversationId, String turnId) {
        return new ArrayList<>(listByTurn(tenantId, conversationId, turnId, now()));
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }

    /**
     * @return each requested id → retrievable now, in the order requested; no content is loaded
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public Map<String, Boolean> probeMany(
            String tenantId, long conversationId, Collection<String> contentIds, Instant now) {
        List<String> wellFormed = new ArrayList<>(contentIds.size());
        for (String id : contentIds) {
            if (ContentIds.isContentId(id)) {
                wellFormed.add(id);
            }
        }
        if (wellFormed.size() == contentIds.size()) {
            return store().probeMany(new OmissionScope(tenantId, conversationId), contentIds, now);
        }
        // Ids of another shape name nothing and are not sent to the database.
        Map<String, Boolean> found = store().probeMany(new OmissionScope(tenantId, conversationId), wellFormed, now);
        Map<String, Boolean> answer = new LinkedHashMap<>();
        for (String id : contentIds) {
            answer.put(id, found.getOrDefault(id, false));
        }
        return answer;
    }

    /** @return the content ids recorded for a turn, in insertion order, leaving out expired content */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<String> listByTurn(String tenantId, long conversationId, String turnId, Instant now) {
        // A turn id with a NUL names no turn (turn ids are checked on write); PostgreSQL would refuse the query.
        if (turnId == null || turnId.indexOf('\u0000') >= 0) {
            return List.of();
        }
        return store().listByTurn(new OmissionScope(tenantId, conversationId), turnId, now);
    }

    /**
     * Stores many omissions of a locked conversation (spec §7.2 {@code put_many}).
     *
     * @param ttl time to live of new content, or {@code null} for none
     */
    public void putMany(
            String tenantId, long conversationId, Collection<Omission> omissions, Instant now, Duration ttl) {
        store().putMany(new OmissionScope(tenantId, conversationId), omissions, now, ttl);
    }

    /**
     * Drops every omission of a locked conversation (spec §7.2 {@code clear}).
     *
     * @return the number of omissions removed
     */
    public int clear(String tenantId, long conversationId) {
        return store().clear(new OmissionScope(tenantId, conversationId));
    }

    /**
     * Counts the omissions stored for conversations of a tenant (issue 34 item 4: the erasure receipt); deleting the
     * conversations deletes them by cascade.
     *
     * @param tenantId        the tenant
     * @param conversationIds the conversations; empty counts 0
     * @return how many omissions they hold
     */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public long count(String tenantId, Collection<Long> conversationIds) {
        if (conversationIds.isEmpty()) {
            return 0;
        }
        return em.createQuery(
                        "SELECT COUNT(o) FROM Omission o WHERE o.tenantId = :t AND o.conversationId IN :ids",
                        Long.class)
                .setParameter("t", tenantId)
                .setParameter("ids", conversationIds)
                .getSingleResult();
    }
}

package org.agentmemory.conversation.boundary;

import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.conversation.ConversationMetadata;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.platform.json.JsonMergePatch;

/**
 * One attempt of a metadata merge, in its own transaction: read the conversation under its row lock, merge, then
 * write only if the version is still the one read (compare-and-set). Concurrent merges and turn writes of the
 * conversation wait for the lock, so an attempt is not lost to them; the caller still retries a lost attempt with a
 * fresh read ({@code memory.metadata.merge-attempts}).
 */
@Stateless
@LocalBean
public class MetadataMergeBean {

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    /**
     * @param tenantId       the tenant
     * @param conversationId the conversation
     * @param patch          an RFC 7396 merge patch
     * @return the metadata written, or {@code null} when a concurrent writer changed the version first
     * @throws NotFoundException when the conversation does not exist in the tenant, e.g. deleted since the caller
     *         checked (an application exception: an expected race, answered 404, not logged as a failure)
     * @throws org.agentmemory.api.InvalidInputException when the merged metadata would exceed the JSON size limit
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public ConversationMetadata tryMerge(String tenantId, long conversationId, Map<String, Object> patch)
            throws NotFoundException, org.agentmemory.api.InvalidInputException {
        // The row lock makes concurrent merges (and turn writes, which lock the same row) wait for each other
        // instead of losing the compare-and-set below: unlocked, two clients patching different keys in a loop could
        // each lose memory.metadata.merge-attempts times in a row (seen with 2 writers x 100 patches: a 409).
        Conversation c = em.find(Conversation.class, conversationId, LockModeType.PESSIMISTIC_WRITE);
        if (c == null || !c.getTenantId().equals(tenantId)) {
            throw new NotFoundException(
                    "conversation",
                    Long.toString(conversationId),
                    "Conversation " + conversationId + " was deleted while its metadata was being merged.");
        }
        long version = c.getVersion();
        Map<String, Object> merged = JsonMergePatch.apply(c.getMetadata(), patch);
        // Each patch is bounded; so is what they add up to.
        org.agentmemory.platform.validation.InputRules.checkJsonObject("metadata", merged);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        if (!now.isAfter(c.getUpdatedAt())) {
            now = c.getUpdatedAt();
        }
        int updated = em.createQuery("UPDATE Conversation c SET c.metadata = :m, c.updatedAt = :now,"
                        + " c.version = c.version + 1 WHERE c.id = :id AND c.version = :v")
                .setParameter("m", merged)
                .setParameter("now", now)
                .setParameter("id", conversationId)
                .setParameter("v", version)
                .executeUpdate();
        return updated == 1 ? new ConversationMetadata(conversationId, merged, version + 1, now) : null;
    }
}

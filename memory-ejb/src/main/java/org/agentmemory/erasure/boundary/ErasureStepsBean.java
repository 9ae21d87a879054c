package org.agentmemory.erasure.boundary;

import jakarta.ejb.EJB;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.agentmemory.answer.boundary.AnswerEraserBean;
import org.agentmemory.audit.boundary.AuditRedactionBean;
import org.agentmemory.brain.boundary.BrainEvidenceEraserBean;
import org.agentmemory.conversation.boundary.ConversationEraserBean;
import org.agentmemory.episodic.boundary.EpisodeEraserBean;
import org.agentmemory.erasure.control.ErasureTally;
import org.agentmemory.pii.boundary.PiiEraserBean;
import org.agentmemory.skills.boundary.SkillEraserBean;

/**
 * The bounded transactions of one erasure (issue 34 item 4). Each step deletes a batch together with the brain
 * evidence that names it, in one transaction: a crash between steps leaves no brain statement that points at data
 * already deleted, and the next erasure of the same subject finds what is left.
 */
@Stateless
@LocalBean
public class ErasureStepsBean {

    @EJB
    EpisodeEraserBean episodes;

    @EJB
    ConversationEraserBean conversations;

    @EJB
    AnswerEraserBean answers;

    @EJB
    BrainEvidenceEraserBean brain;

    @EJB
    AuditRedactionBean audit;

    @EJB
    PiiEraserBean pii;

    @EJB
    SkillEraserBean skills;

    /**
     * Deletes a batch of the subject's episodes, their evidence in brain pages and the skills extracted from them.
     *
     * @return how many episodes were deleted (fewer than {@code limit}: none are left)
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int episodes(String tenantId, String userId, int limit, ErasureTally tally, Instant now) {
        // The turns the episodes cite go with them, unless their conversation is another user's (metadata is the
        // client's word): a conversation of the subject deleted earlier leaves no other trace to find them by.
        Set<String> named = new HashSet<>(episodes.conversationsOfBatch(tenantId, userId, limit));
        named.removeAll(conversations.ofOtherUsers(tenantId, userId, named));
        List<String> deleted = episodes.eraseBatch(tenantId, userId, limit);
        if (!deleted.isEmpty()) {
            add(tally, brain.erase(tenantId, named, new HashSet<>(deleted), now));
            tally.extractedSkills(skills.forgetEpisodes(tenantId, deleted));
        }
        tally.episodes(deleted.size());
        return deleted.size();
    }

    /**
     * Locks a batch of the subject's conversations, deletes the answers stored under their turn ids and their evidence
     * in brain pages, then the conversations with everything they hold (their Stage 2 summaries included).
     *
     * @param ids the batch, from {@link ConversationEraserBean#conversationIds}
     * @return the ids of the searchable messages deleted, for {@link #purgeAgain} once this step has committed
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public List<Long> conversations(String tenantId, String userId, List<Long> ids, ErasureTally tally, Instant now) {
        ConversationEraserBean.LockedBatch batch = conversations.lock(tenantId, userId, ids);
        if (batch.conversationIds().isEmpty()) {
            return List.of();
        }
        long answered = 0;
        for (Map.Entry<String, List<String>> agent : batch.turnIdsByAgent().entrySet()) {
            answered += answers.erase(tenantId, agent.getKey(), agent.getValue());
        }
        Set<String> conversationIds = new HashSet<>();
        for (Long id : batch.conversationIds()) {
            conversationIds.add(Long.toString(id));
        }
        BrainEvidenceEraserBean.Erased revised = brain.erase(tenantId, conversationIds, Set.of(), now);
        int deleted = conversations.delete(tenantId, userId, batch);
        add(tally, revised);
        tally.answers(answered);
        tally.conversations(deleted, batch.turns(), batch.toolInvocations(), batch.omissions(), batch.messages());
        tally.summaries(batch.summaries());
        return batch.messageIds();
    }

    /**
     * Purges a committed conversation step's messages from the search index once more.
     *
     * @param messageIds what {@link #conversations} returned
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void purgeAgain(List<Long> messageIds) {
        if (!messageIds.isEmpty()) {
            conversations.purgeAgain(messageIds);
        }
    }

    /** Forgets the subject's PII threads, in the durable store and this server's in-process store. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void pii(String tenantId, String userId, ErasureTally tally) {
        PiiEraserBean.ErasedThreads erased = pii.forgetUser(tenantId, userId);
        tally.pii(erased.threads(), erased.detections());
    }

    /** Removes the subject's id from the audit trail. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void audit(String tenantId, String userId, ErasureTally tally) {
        tally.audit(audit.redact(tenantId, userId));
    }

    private static void add(ErasureTally tally, BrainEvidenceEraserBean.Erased erased) {
        tally.brain(erased.statements(), erased.revised(), erased.deleted());
    }
}

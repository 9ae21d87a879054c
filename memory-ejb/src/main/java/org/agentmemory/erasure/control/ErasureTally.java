package org.agentmemory.erasure.control;

import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import org.agentmemory.api.erasure.ErasureReceipt;

/**
 * What an erasure has deleted so far, store by store; not thread-safe (one per erasure). Counts are added as each
 * bounded transaction commits, so the receipt counts what was really deleted.
 */
public final class ErasureTally {

    long conversations;
    long turns;
    long toolInvocations;
    long omissions;
    long messages;
    long summaries;
    long episodes;
    long answers;
    long piiThreads;
    long piiDetections;
    long brainStatements;
    /** Pages revised by some step; a page revised by two steps counts once, and not at all once deleted. */
    final Set<Long> brainPagesRevised = new HashSet<>();

    final Set<Long> brainPagesDeleted = new HashSet<>();
    long extractedSkills;
    long auditEventsRedacted;

    /** Adds a committed batch of conversations and what they held. */
    public void conversations(long count, long turnCount, long invocations, long omissionCount, long messageCount) {
        conversations += count;
        turns += turnCount;
        toolInvocations += invocations;
        omissions += omissionCount;
        messages += messageCount;
    }

    /** Adds the Stage 2 summaries of a committed batch of conversations. */
    public void summaries(long count) {
        summaries += count;
    }

    /** Adds a committed batch of episodes. */
    public void episodes(long count) {
        episodes += count;
    }

    /** Adds deleted answers. */
    public void answers(long count) {
        answers += count;
    }

    /** Adds forgotten PII threads and their detections. */
    public void pii(long threads, long detections) {
        piiThreads += threads;
        piiDetections += detections;
    }

    /** Adds the extracted skills a committed batch of episodes took with it. */
    public void extractedSkills(long count) {
        extractedSkills += count;
    }

    /**
     * Adds a committed brain revision.
     *
     * @param statements statements removed
     * @param revised    ids of the pages rewritten
     * @param deleted    ids of the pages deleted
     */
    public void brain(long statements, Collection<Long> revised, Collection<Long> deleted) {
        brainStatements += statements;
        brainPagesRevised.addAll(revised);
        brainPagesDeleted.addAll(deleted);
    }

    private long pagesRevised() {
        return brainPagesRevised.stream()
                .filter(id -> !brainPagesDeleted.contains(id))
                .count();
    }

    /** Adds redacted audit events. */
    public void audit(long count) {
        auditEventsRedacted += count;
    }

    /**
     * @param receiptId  the erasure's id
     * @param tenantId   its tenant
     * @param userId     its subject
     * @param startedAt  when it started
     * @param finishedAt when it finished
     * @return the receipt of everything tallied
     */
    public ErasureReceipt receipt(
            String receiptId, String tenantId, String userId, Instant startedAt, Instant finishedAt) {
        return new ErasureReceipt(
                receiptId,
                tenantId,
                userId,
                startedAt,
                finishedAt,
                conversations,
                turns,
                toolInvocations,
                omissions,
                messages,
                summaries,
                episodes,
                answers,
                piiThreads,
                piiDetections,
                brainStatements,
                pagesRevised(),
                brainPagesDeleted.size(),
                extractedSkills,
                auditEventsRedacted);
    }

    /** @return a one-line summary of the counts for the audit trail, without ids */
    public String counts() {
        return "conversations=" + conversations + " turns=" + turns + " toolInvocations=" + toolInvocations
                + " omissions=" + omissions + " messages=" + messages + " summaries=" + summaries + " episodes="
                + episodes + " answers="
                + answers + " piiThreads=" + piiThreads + " piiDetections=" + piiDetections + " brainStatements="
                + brainStatements + " brainPagesRevised=" + pagesRevised() + " brainPagesDeleted="
                + brainPagesDeleted.size() + " extractedSkills=" + extractedSkills + " auditEventsRedacted="
                + auditEventsRedacted;
    }
}

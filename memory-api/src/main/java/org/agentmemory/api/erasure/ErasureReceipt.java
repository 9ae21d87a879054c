package org.agentmemory.api.erasure;

import java.io.Serializable;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What one erasure of a subject deleted, store by store (issue 34 item 4). Erasing the same subject again answers a
 * receipt of zeros: erasure is idempotent. The receipt names the subject because its caller asked for it; the audit
 * record of the erasure holds only {@link #receiptId} and the counts (no personal data).
 *
 * @param receiptId          a random id of this erasure, also written to the audit trail
 * @param tenantId           the tenant erased in
 * @param userId             the subject
 * @param startedAt          when the erasure started; every row of the subject committed before it is gone
 * @param finishedAt         when the last store was erased
 * @param conversations      conversations deleted (every chatbot and session of the subject)
 * @param turns              their turns
 * @param toolInvocations    their tool invocations
 * @param omissions          their omitted tool outputs (content-identical outputs of other users stay)
 * @param messages           their searchable messages, with their vectors and search-index documents
 * @param summaries          their Stage 2 summaries of earlier turns (issue 35 item 4)
 * @param episodes           episodes whose namespace names the subject, with their search-index documents
 * @param answers            answers stored under the turn ids of the subject's conversations for the same agent
 * @param piiThreads         PII detection threads of the subject
 * @param piiDetections      detections those threads held
 * @param brainStatements    brain page statements removed because the subject's evidence was their only support
 * @param brainPagesRevised  brain pages rewritten without the subject's evidence
 * @param brainPagesDeleted  brain pages deleted because no statement was left
 * @param extractedSkills    skills the dream cycle extracted from episodes that included the subject's (issue 35 item 2)
 * @param auditEventsRedacted audit events whose target or caller named the subject, rewritten without it
 */
@Schema(description = "What one erasure of a subject deleted, store by store; zeros when nothing was left.")
public record ErasureReceipt(
        @Schema(description = "A random id of this erasure, also in the audit trail.")
        String receiptId,

        @Schema(description = "The tenant erased in.") String tenantId,

        @Schema(description = "The subject erased.") String userId,

        @Schema(description = "When the erasure started; every row of the subject committed before it is gone.")
        Instant startedAt,

        @Schema(description = "When the last store was erased.")
        Instant finishedAt,

        @Schema(description = "Conversations deleted, of every chatbot and session.")
        long conversations,

        @Schema(description = "Turns of those conversations.")
        long turns,

        @Schema(description = "Tool invocations of those turns.")
        long toolInvocations,

        @Schema(
                description =
                        "Omitted tool outputs of those conversations (content-identical outputs of other users stay).")
        long omissions,

        @Schema(description = "Searchable messages deleted, with their vectors and search-index documents.")
        long messages,

        @Schema(description = "Stage 2 summaries of earlier turns of those conversations.")
        long summaries,

        @Schema(description = "Episodes whose namespace names the subject, with their search-index documents.")
        long episodes,

        @Schema(description = "Answers stored under the turn ids of the subject's conversations for the same agent.")
        long answers,

        @Schema(description = "PII detection threads of the subject.")
        long piiThreads,

        @Schema(description = "Detections those threads held.")
        long piiDetections,

        @Schema(description = "Brain page statements removed: the subject's evidence was their only support.")
        long brainStatements,

        @Schema(description = "Brain pages rewritten without the subject's evidence.")
        long brainPagesRevised,

        @Schema(description = "Brain pages deleted because no statement was left.")
        long brainPagesDeleted,

        @Schema(
                description = "Skills the dream cycle extracted from episodes that included the subject's; the next"
                        + " cycle extracts them again from the episodes that remain.")
        long extractedSkills,

        @Schema(description = "Audit events whose target or caller named the subject, rewritten without it.")
        long auditEventsRedacted)
        implements Serializable {

    /** @return every count summed: 0 when the subject had nothing left to erase */
    public long total() {
        return conversations
                + turns
                + toolInvocations
                + omissions
                + messages
                + summaries
                + episodes
                + answers
                + piiThreads
                + piiDetections
                + brainStatements
                + brainPagesRevised
                + brainPagesDeleted
                + extractedSkills
                + auditEventsRedacted;
    }
}

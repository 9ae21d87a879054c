package org.agentmemory.api.brain;

import java.io.Serializable;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A brain page as it stands now, or as it stood at {@code asOf} (issue 33 item 1).
 *
 * @param pageId             {@code mem-} and 12 hex digits: SHA-1 of {@code "{title}::{category}"} (spec §12.3)
 * @param brainId            {@code agent:<agentId>} or {@code org}
 * @param title              at most 80 code points
 * @param category           {@code lesson}, {@code decision}, {@code concept} or {@code note}
 * @param confidence         0..1, of the latest write
 * @param summary            the body's first 300 code points
 * @param body               the statements shown, one {@code - } line each
 * @param statements         the statements shown: current ones, or those current at {@code asOf}
 * @param tokenCount         tokens of the body (the service's tokenizer)
 * @param assertedBy         who wrote it first, e.g. {@code agent:ops-bot}
 * @param reinforcementCount how many writes reinforced it (at most one per dream cycle)
 * @param createdAt          first write (UTC)
 * @param updatedAt          last change (UTC)
 * @param asOf               the time the page is shown at, or {@code null} for now
 */
@Schema(description = "A brain page: durable knowledge with the evidence of each statement and its history.")
public record BrainPage(
        @Schema(description = "mem- and 12 hex digits of SHA-1(title::category).")
        String pageId,

        @Schema(description = "agent:<agentId>, or org for the organisation brain.")
        String brainId,

        @Schema(description = "At most 80 code points.") String title,

        @Schema(description = "lesson, decision, concept or note.")
        String category,

        @Schema(description = "0 to 1, of the latest write.")
        double confidence,

        @Schema(description = "The body's first 300 code points.")
        String summary,

        @Schema(description = "The statements shown, one '- ' line each.")
        String body,

        @Schema(description = "The statements shown: current ones, or those current at asOf.")
        List<BrainStatement> statements,

        @Schema(description = "Tokens of the body, by the service's tokenizer.")
        int tokenCount,

        @Schema(description = "Who wrote it first, e.g. agent:ops-bot.")
        String assertedBy,

        @Schema(description = "Writes that reinforced it.") int reinforcementCount,
        @Schema(description = "First write (UTC).") Instant createdAt,
        @Schema(description = "Last change (UTC).") Instant updatedAt,

        @Schema(description = "The time the page is shown at; null for now.", nullable = true)
        Instant asOf)
        implements Serializable {

    public BrainPage {
        statements = statements == null ? List.of() : List.copyOf(statements);
    }
}

package org.agentmemory.api.brain;

import java.io.Serializable;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One statement of a brain page.
 *
 * @param text         the statement
 * @param evidence     what supports it: {@code episode:<id>} and {@code turn:<conversation>/<turn>} references
 * @param assertedAt   when it was first asserted
 * @param supersededAt when newer evidence contradicted it, or {@code null} while current
 * @param supersededBy the evidence that contradicted it; empty while current
 */
@Schema(description = "One statement of a brain page, with the evidence that supports it and its history.")
public record BrainStatement(
        @Schema(description = "The statement.") String text,

        @Schema(description = "What supports it: episode:<id> and turn:<conversation>/<turn> references, sorted.")
        List<String> evidence,

        @Schema(description = "When it was first asserted (UTC).")
        Instant assertedAt,

        @Schema(description = "When newer evidence contradicted it; null while current.", nullable = true)
        Instant supersededAt,

        @Schema(description = "The evidence that contradicted it; empty while current.")
        List<String> supersededBy)
        implements Serializable {

    public BrainStatement {
        evidence = evidence == null ? List.of() : List.copyOf(evidence);
        supersededBy = supersededBy == null ? List.of() : List.copyOf(supersededBy);
    }
}

package org.agentmemory.api.brain;

import java.io.Serializable;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What a write did to a page.
 *
 * @param pageId     the page
 * @param title      its title
 * @param category   its category, after the confidence rule
 * @param status     {@code created}, {@code updated} or {@code unchanged}
 * @param added      statements added
 * @param reinforced statements that got new evidence
 * @param superseded statements contradicted and kept as history
 */
@Schema(description = "What a write did to a page.")
public record PageWriteResult(
        @Schema(description = "The page id.") String pageId,
        @Schema(description = "Its title.") String title,

        @Schema(description = "Its category, after the confidence rule.")
        String category,

        @Schema(description = "created, updated or unchanged.")
        String status,

        @Schema(description = "Statements added.") int added,

        @Schema(description = "Statements that got new evidence.")
        int reinforced,

        @Schema(description = "Statements contradicted and kept as history.")
        int superseded)
        implements Serializable {}

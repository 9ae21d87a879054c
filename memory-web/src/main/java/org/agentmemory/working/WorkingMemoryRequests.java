package org.agentmemory.working;

import jakarta.validation.constraints.NotNull;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The bodies of {@link WorkingMemoryResource}'s requests. */
public final class WorkingMemoryRequests {

    private WorkingMemoryRequests() {}

    /**
     * Body of {@code POST /working-memory/items}.
     *
     * @param content    the text
     * @param metadata   the metadata, or {@code null}
     * @param importance 0–1, or {@code null} for 0.5
     * @param longTerm   whether to store it long-term whatever its importance
     */
    @Schema(description = "An item to store in a session's working memory.")
    public record StoreWorkingItem(
            @Schema(description = "The text; required, 1 to 32,768 code points, not blank, no NUL.")
            @NotNull(message = "content is required")
            String content,

            @Schema(
                    description = "A JSON object of at most 16,384 code points of keys and values; absent for none.",
                    nullable = true)
            Map<String, Object> metadata,

            @Schema(
                    description = "0 to 1, default 0.5; at or above the importance threshold (default 0.7) the item"
                            + " is stored long-term.",
                    nullable = true)
            Double importance,

            @Schema(description = "true stores it long-term whatever its importance; default false.", nullable = true)
            Boolean longTerm) {}

    /**
     * Body of {@code PATCH /working-memory/items/{itemId}}.
     *
     * @param content    the new text, or {@code null}
     * @param metadata   the new metadata, or {@code null}
     * @param importance the new importance, or {@code null}
     */
    @Schema(description = "A change of an item: each field given replaces the stored one; absent fields stay.")
    public record ChangeWorkingItem(
            @Schema(description = "The new text, 1 to 32,768 code points; absent to keep it.", nullable = true)
            String content,

            @Schema(
                    description = "The new metadata, replacing the old as a whole (at most 16,384 code points);"
                            + " absent to keep it.",
                    nullable = true)
            Map<String, Object> metadata,

            @Schema(
                    description = "The new importance, 0 to 1; absent to keep it. Reaching the importance threshold"
                            + " promotes a short-term item.",
                    nullable = true)
            Double importance) {}

    /**
     * Body of {@code POST /working-memory/retrieve}.
     *
     * @param metadata      key → value the metadata must hold
     * @param tier          {@code short_term} or {@code long_term}, or {@code null}
     * @param minImportance least importance, or {@code null}
     * @param limit         most items, or {@code null} for 10
     */
    @Schema(description = "Which items to retrieve: every criterion given must match.")
    public record WorkingItemQuery(
            @Schema(
                    description = "Metadata key to the value it must hold (a string, number or boolean; numbers"
                            + " compared by value); at most 32 keys.",
                    nullable = true)
            Map<String, Object> metadata,

            @Schema(description = "short_term or long_term; absent for both.", nullable = true)
            String tier,

            @Schema(description = "Least importance, 0 to 1; absent for any.", nullable = true)
            Double minImportance,

            @Schema(description = "Most items returned, 1 to 100; default 10.", nullable = true)
            Integer limit) {}

    /**
     * Body of {@code POST /working-memory/context}.
     *
     * @param type the kind of situation
     * @param data what describes it, or {@code null}
     */
    @Schema(description = "A frame to push onto a session's context stack.")
    public record PushContextFrame(
            @Schema(description = "What kind of situation, e.g. task, conversation, tool_use; 1 to 128 code points.")
            @NotNull(message = "type is required")
            String type,

            @Schema(
                    description = "What describes it: a JSON object of at most 4,096 code points of keys and values;"
                            + " absent for none.",
                    nullable = true)
            Map<String, Object> data) {}
}

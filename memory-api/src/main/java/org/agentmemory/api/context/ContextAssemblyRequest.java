package org.agentmemory.api.context;

import java.io.Serializable;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A request to assemble the long-term memory context of a query (spec §9.2, §9.3 {@code get_context_for_query}).
 *
 * @param query   the text the sections are retrieved for (the user's question); never {@code null}, may be
 *                empty
 * @param config  weights and budget; {@code null} = {@link ContextAssemblyConfig#defaults()}
 * @param context how the conversation section is compacted (model or window, prompts, current agent);
 *                {@code null} = {@link ContextRequest#forModel(String) forModel(null)}, the 32000-token
 *                fallback window
 */
@Schema(description = "A request to assemble the long-term memory context of a query.")
public record ContextAssemblyRequest(
        @Schema(
                description =
                        "The text the sections are retrieved for (the user's question); required, may be" + " empty.")
        String query,

        @Schema(description = "Weights and budget; absent or null = every default.")
        ContextAssemblyConfig config,

        @Schema(
                description = "How the conversation section is compacted; absent or null = every default (a"
                        + " 32,000-token window).")
        ContextRequest context)
        implements Serializable {

    /**
     * @param query the query text
     * @return a request with the default configuration and compaction
     */
    public static ContextAssemblyRequest of(String query) {
        return new ContextAssemblyRequest(query, null, null);
    }
}

package org.agentmemory.api.context;

import java.io.Serializable;

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
public record ContextAssemblyRequest(String query, ContextAssemblyConfig config, ContextRequest context)
        implements Serializable {

    /**
     * @param query the query text
     * @return a request with the default configuration and compaction
     */
    public static ContextAssemblyRequest of(String query) {
        return new ContextAssemblyRequest(query, null, null);
    }
}

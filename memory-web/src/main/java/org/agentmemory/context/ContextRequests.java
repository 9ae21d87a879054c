package org.agentmemory.context;

import jakarta.validation.constraints.NotNull;
import org.agentmemory.api.context.ContextAssemblyConfig;
import org.agentmemory.api.context.ContextRequest;
import org.agentmemory.rest.KeyDescriptions;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Request bodies of the read-path resources that name a conversation by key. Ids travel in the body, never in
 * the path, so any id (with {@code /}, {@code %2F}, quotes …) round-trips. Bean Validation checks presence; the
 * service checks every other rule and names the field.
 */
public final class ContextRequests {

    private ContextRequests() {}

    /**
     * Body of {@code POST /context}.
     *
     * @param userId    the user (required)
     * @param sessionId the session (required)
     * @param chatbotId the agent, or absent for the default agent
     * @param context   the budget and rendering parameters ({@link ContextRequest}); absent = every default
     */
    @Schema(description = "Body of POST /context.")
    public record ContextByKey(
            @Schema(description = KeyDescriptions.USER_ID) String userId,

            @Schema(description = KeyDescriptions.SESSION_ID) @NotNull(message = "sessionId is required")
            String sessionId,

            @Schema(description = KeyDescriptions.CHATBOT_ID)
            String chatbotId,

            @Schema(
                    description = "The budget and rendering parameters; absent or null = every default (a"
                            + " 32,000-token window).")
            ContextRequest context) {}

    /**
     * Body of {@code POST /context/assemble}.
     *
     * @param userId    the user (required)
     * @param sessionId the session (required)
     * @param chatbotId the agent, or absent for the default agent
     * @param query     the query the sections are retrieved for (required, may be empty)
     * @param config    weights and budget of the assembly; absent = the spec's defaults
     * @param context   how the conversation section is compacted; absent = every default
     */
    @Schema(description = "Body of POST /context/assemble.")
    public record AssembleByKey(
            @Schema(description = KeyDescriptions.USER_ID) String userId,

            @Schema(description = KeyDescriptions.SESSION_ID) @NotNull(message = "sessionId is required")
            String sessionId,

            @Schema(description = KeyDescriptions.CHATBOT_ID)
            String chatbotId,

            @Schema(description = "The text the sections are retrieved for; required, \"\" allowed.")
            @NotNull(message = "query is required (an empty string is allowed)")
            String query,

            @Schema(description = "Weights and budget of the assembly; absent or null = every default.")
            ContextAssemblyConfig config,

            @Schema(
                    description = "How the conversation section is compacted; absent or null = every default (a"
                            + " 32,000-token window).")
            ContextRequest context) {}
}

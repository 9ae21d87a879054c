package org.agentmemory.episodic;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.episodic.EpisodeCategory;
import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.agentmemory.api.episodic.RecallMode;
import org.agentmemory.api.episodic.RecallRequest;
import org.agentmemory.security.OutOfScopeException;
import org.agentmemory.security.Tenants;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Request bodies of the episodic resources. The tenant never travels in a body: it is the caller's
 * ({@code Tenants}). Bean Validation checks presence; the service checks every other rule and names the field.
 */
public final class EpisodicRequests {

    private EpisodicRequests() {}

    /**
     * The namespace of a request (spec §10.1) without the tenant.
     *
     * @param agentId   the agent (required)
     * @param userId    the user, or absent
     * @param sessionId the session, or absent
     * @param roomId    the room, or absent
     * @param crewId    the crew, or absent
     */
    @Schema(
            description = "The namespace of a request, without the tenant (always the caller's). Each id: 1 to 128 code"
                    + " points, not blank, no control characters. Reads select episodes whose tenant and agent match and whose"
                    + " user, session, room and crew match each id given here.")
    public record Namespace(
            @Schema(description = "The agent; required.") @NotNull(message = "namespace.agentId is required")
            String agentId,

            @Schema(description = "The user, or absent.") String userId,
            @Schema(description = "The session, or absent.") String sessionId,

            @Schema(description = "The room (shared conversation space), or absent.")
            String roomId,

            @Schema(description = "The crew (multi-agent workflow), or absent.")
            String crewId) {

        /**
         * @param tenants the caller
         * @param prefix  prefix of the field names in problems, e.g. {@code "namespace."}
         * @return the namespace in the caller's tenant, narrowed to the token's user and agent
         * @throws InvalidInputException when the agent is blank
         * @throws OutOfScopeException   when it names another user or agent than the token's
         */
        public MemoryNamespace toNamespace(Tenants tenants, String prefix) throws InvalidInputException {
            return namespace(
                    tenants.current(),
                    tenants.agentId(prefix + "agentId", agentId),
                    tenants.userId(prefix + "userId", userId),
                    sessionId,
                    roomId,
                    crewId);
        }
    }

    /**
     * @return the namespace of query parameters
     * @throws InvalidInputException when the agent is missing or blank
     */
    static MemoryNamespace namespace(
            String tenantId, String agentId, String userId, String sessionId, String roomId, String crewId)
            throws InvalidInputException {
        if (agentId == null || agentId.isBlank()) {
            throw new InvalidInputException(
                    "agentId", "required", "agentId is required: every namespace belongs to an agent.");
        }
        return new MemoryNamespace(tenantId, agentId, userId, sessionId, roomId, crewId);
    }

    /**
     * Body of {@code POST /episodes} (spec §10.3 {@code record_episode}); fields as {@link EpisodeInput}.
     *
     * @param namespace          where it belongs (required)
     * @param situation          what the agent faced (required)
     * @param actionTaken        what it did (required)
     * @param outcome            {@code success}, {@code failure}, {@code partial} or {@code timeout} (required)
     * @param outcomeDetails     free text, or absent
     * @param errorType          e.g. {@code timeout}, or absent
     * @param errorMessage       the error, or absent
     * @param category           e.g. {@code tool_execution} (default), or absent
     * @param importance         1..10, or absent for the automatic value
     * @param relatedTools       tool names, or absent
     * @param relatedEntities    entity names, or absent
     * @param ttlDays            days ≥ 0 (0 = never), or absent for the default
     * @param metadata           a JSON object, or absent
     * @param generateReflection whether to reflect (default {@code true})
     * @param lessonLearned      an explicit lesson (no reflection then), or absent
     */
    @Schema(
            description = "Body of POST /episodes. Texts are at most 262,144 code points, without NUL. Identical"
                    + " content in one namespace is stored once.")
    public record RecordEpisode(
            @Schema(description = "Where the episode belongs; required.")
            @NotNull(message = "namespace is required")
            @Valid
            Namespace namespace,

            @Schema(description = "What the agent faced; required, not blank.")
            @NotNull(message = "situation is required")
            String situation,

            @Schema(description = "What the agent did; required, not blank.")
            @NotNull(message = "actionTaken is required")
            String actionTaken,

            @Schema(description = "How it ended; required.")
            @NotNull(message = "outcome is required: success, failure, partial or timeout")
            EpisodeOutcome outcome,

            @Schema(description = "Free text about the result, or absent.")
            String outcomeDetails,

            @Schema(
                    description = "A short error class such as timeout (at most 128 UTF-16 units), or absent; a known"
                            + " type raises the automatic importance.")
            String errorType,

            @Schema(description = "The error text, or absent; drives the heuristic reflection.")
            String errorMessage,

            @Schema(description = "The kind of episode; absent or null = tool_execution.")
            EpisodeCategory category,

            @Schema(
                    description = "1 to 10, or absent for the automatic importance (a configured importance scorer"
                            + " overrides even an explicit value).")
            Integer importance,

            @Schema(description = "Tool names (each at most 255 code points, no control characters), or absent.")
            List<String> relatedTools,

            @Schema(description = "Entity names (each at most 255 code points, no control characters), or absent.")
            List<String> relatedEntities,

            @Schema(
                    description = "Days until the episode expires, 0 or more (0 = never); absent or null ="
                            + " memory.episodic.default-ttl-days (default 90).")
            Integer ttlDays,

            @Schema(description = "Free JSON object, at most 1,048,576 code points of keys and values, or absent.")
            Map<String, Object> metadata,

            @Schema(
                    description = "Whether to reflect on the episode (the reflection model when configured, else the"
                            + " heuristic); absent or null = true.")
            Boolean generateReflection,

            @Schema(
                    description = "A lesson stated explicitly, or absent. When set, no reflection runs and the lesson"
                            + " is stored with lessonSource explicit.")
            String lessonLearned) {

        /**
         * @param tenantId the caller's tenant
         * @param prefix   field prefix of messages
         * @return the service input
         * @throws InvalidInputException naming the field whose value breaks a rule
         */
        public EpisodeInput toInput(Tenants tenants, String prefix) throws InvalidInputException {
            try {
                return new EpisodeInput(
                        namespace.toNamespace(tenants, prefix + "namespace."),
                        situation,
                        actionTaken,
                        outcome,
                        outcomeDetails,
                        errorType,
                        errorMessage,
                        category,
                        importance,
                        relatedTools,
                        relatedEntities,
                        ttlDays,
                        metadata,
                        generateReflection == null || generateReflection,
                        lessonLearned);
            } catch (IllegalArgumentException e) {
                String message = e.getMessage();
                String field = message == null || message.indexOf(' ') < 0
                        ? "body"
                        : message.substring(0, message.indexOf(' '));
                throw new InvalidInputException(prefix + field, "invalid", message);
            }
        }
    }

    /**
     * Body of {@code POST /episodes/batch}.
     *
     * @param episodes 1 to 1000 episodes
     */
    @Schema(description = "Body of POST /episodes/batch.")
    public record RecordBatch(
            @Schema(description = "1 to 1000 episodes, recorded in one transaction.")
            @NotEmpty(message = "episodes must contain at least one episode")
            List<@Valid RecordEpisode> episodes) {}

    /**
     * Body of {@code POST /episodes/tool} (spec §10.3 {@code record_tool_episode}).
     *
     * @param namespace  where it belongs (required)
     * @param toolName   the tool (required)
     * @param toolArgs   the arguments object, or absent
     * @param toolResult the result object ({@code success}, {@code status}, {@code error}, {@code result}), or absent
     * @param userQuery  the user's query, or absent
     */
    @Schema(
            description =
                    "Body of POST /episodes/tool: a tool call recorded as an episode of category" + " tool_execution.")
    public record ToolEpisode(
            @Schema(description = "Where it belongs; required.") @NotNull(message = "namespace is required") @Valid
            Namespace namespace,

            @Schema(description = "The tool; required, not blank, no control characters.")
            @NotNull(message = "toolName is required")
            String toolName,

            @Schema(
                    description = "The arguments object (at most 1,048,576 code points), or absent; written into the"
                            + " action as Called tool({...}), each value cut to 100 code points.")
            Map<String, Object> toolArgs,

            @Schema(
                    description = "The result object, or absent (success): success false makes the outcome failure;"
                            + " else status \"timeout\" or \"partial\" makes it timeout or partial; error becomes the error"
                            + " message and result the outcome details.")
            Map<String, Object> toolResult,

            @Schema(description = "The user's query (the situation), or absent for \"Tool execution: {toolName}\".")
            String userQuery) {}

    /**
     * Body of {@code POST /episodes/crew} (spec §10.3 {@code record_crew_episode}).
     *
     * @param namespace   the crew's namespace (required)
     * @param crewResult  the crew's result object (with {@code agent_results}), or absent
     * @param description the flow description (required)
     * @param perAgent    one episode per agent too (default {@code true})
     */
    @Schema(
            description =
                    "Body of POST /episodes/crew: a crew run recorded as episodes of category" + " workflow_pattern.")
    public record CrewEpisode(
            @Schema(description = "The crew's namespace (its agent is the coordinating agent); required.")
            @NotNull(message = "namespace is required")
            @Valid
            Namespace namespace,

            @Schema(
                    description = "The crew's result object, or absent. agent_results (an object from agent id to"
                            + " result, or a list of objects with agent_id) names the participating agents; outcomes follow"
                            + " the POST /episodes/tool rules.")
            Map<String, Object> crewResult,

            @Schema(description = "The flow description; required, not blank.")
            @NotNull(message = "description is required")
            String description,

            @Schema(
                    description =
                            "Whether to record one episode per agent of agent_results too; absent or null =" + " true.")
            Boolean perAgent) {}

    /**
     * Body of {@code POST /episodes/lessons} and of the {@code record_lesson} tool (spec §10.9).
     *
     * @param namespace  where it belongs (required)
     * @param situation  when the lesson applies (required)
     * @param lesson     the lesson (required)
     * @param category   default {@code decision}
     * @param importance any integer, clamped to 1..10; default 5
     */
    @Schema(
            description = "Body of POST /episodes/lessons and of the record_lesson tool: a lesson stored as a"
                    + " success episode with lessonSource explicit, without reflection.")
    public record Lesson(
            @Schema(description = "Where it belongs; required.") @NotNull(message = "namespace is required") @Valid
            Namespace namespace,

            @Schema(description = "When the lesson applies; required, not blank.")
            @NotNull(message = "situation is required")
            String situation,

            @Schema(description = "The lesson; required, not blank.") @NotNull(message = "lesson is required")
            String lesson,

            @Schema(description = "The category; absent or null = decision.")
            EpisodeCategory category,

            @Schema(description = "Any integer, clamped to 1..10; absent or null = 5.")
            Integer importance) {}

    /**
     * Body of {@code POST /episodes/interactions} (spec §9.3 {@code record_interaction}).
     *
     * @param namespace where it belongs (required)
     * @param query     the user's query (required)
     * @param response  the agent's response, or absent
     */
    @Schema(
            description = "Body of POST /episodes/interactions: an answered question, recorded as a"
                    + " query_resolution success of importance 3 unless the query is trivial.")
    public record Interaction(
            @Schema(description = "Where it belongs; required.") @NotNull(message = "namespace is required") @Valid
            Namespace namespace,

            @Schema(
                    description = "The user's query; required. Its first 500 code points become the situation; a"
                            + " query under 10 code points (surrounding blanks ignored) is not recorded.")
            @NotNull(message = "query is required")
            String query,

            @Schema(description = "The agent's response, or absent; its first 200 code points go into the action.")
            String response) {}

    /**
     * Body of {@code POST /episodes/recall} (spec §10.3 {@code recall_similar}); see {@link RecallRequest}.
     *
     * @param namespace      the namespace (required)
     * @param query          the query (required)
     * @param topK           1 to 100, default 5
     * @param scoreThreshold least cosine similarity of vector hits, default 0.3
     * @param category       only this category, or absent
     * @param failuresOnly   only failures (default {@code false})
     * @param mode           {@code vector}, {@code full_text} or {@code hybrid} (default)
     */
    @Schema(
            description = "Body of POST /episodes/recall. Expired episodes and other namespaces' episodes never come"
                    + " back.")
    public record Recall(
            @Schema(description = "The namespace whose episodes may come back; required.")
            @NotNull(message = "namespace is required")
            @Valid
            Namespace namespace,

            @Schema(description = "The query text; required, not blank.") @NotNull(message = "query is required")
            String query,

            @Schema(description = "Most results, 1 to 100; absent or null = 5.")
            Integer topK,

            @Schema(
                    description = "Least cosine similarity of a vector hit, -1 to 1 (vector and hybrid modes);"
                            + " absent or null = the episode embedding model's default: 0.3 for all-MiniLM-L6-v2 (the"
                            + " default memory.embedding.model), 0.6 for bge-small-en-v1.5.")
            Double scoreThreshold,

            @Schema(description = "Only episodes of this category; absent or null for all.")
            EpisodeCategory category,

            @Schema(description = "Only failure episodes; absent or null = false.")
            Boolean failuresOnly,

            @Schema(description = "vector, full_text or hybrid; absent or null = hybrid.")
            RecallMode mode) {

        /**
         * @param tenantId the caller's tenant
         * @return the service request
         * @throws InvalidInputException when the namespace is invalid
         */
        public RecallRequest toRequest(Tenants tenants) throws InvalidInputException {
            return new RecallRequest(
                    namespace.toNamespace(tenants, "namespace."),
                    query,
                    topK,
                    scoreThreshold,
                    category,
                    failuresOnly != null && failuresOnly,
                    mode);
        }
    }

    /**
     * Body of {@code POST /episodes/consolidated} (spec §10.3 {@code mark_consolidated}).
     *
     * @param episodeIds the episodes (required)
     * @param pageId     the brain page (required)
     */
    @Schema(description = "Body of POST /episodes/consolidated.")
    public record Consolidated(
            @Schema(description = "The episodes to mark, 0 to 1000 ids; required. Unknown ids are skipped.")
            @NotNull(message = "episodeIds is required")
            List<String> episodeIds,

            @Schema(
                    description = "The brain page they were distilled into; required, 1 to 128 code points, not blank,"
                            + " no control characters.")
            @NotNull(message = "pageId is required")
            String pageId) {}

    /**
     * Body of {@code POST /episodes/compact} (spec §10.3 {@code compact_namespace}).
     *
     * @param namespace       the namespace (required)
     * @param keepTopN        how many to keep, default 100
     * @param keepAllFailures keep every failure too (default {@code true})
     */
    @Schema(description = "Body of POST /episodes/compact.")
    public record Compact(
            @Schema(description = "The namespace to compact; required.")
            @NotNull(message = "namespace is required")
            @Valid
            Namespace namespace,

            @Schema(description = "How many of the most important episodes to keep, 0 or more; absent or null = 100.")
            Integer keepTopN,

            @Schema(description = "Keep every failure too; absent or null = true.")
            Boolean keepAllFailures) {}

    /**
     * Body of the {@code search_episodic_memory} tool.
     *
     * @param namespace    the namespace (required)
     * @param query        the query (required)
     * @param topK         default 5
     * @param failuresOnly default {@code false}
     */
    @Schema(description = "Body of the search_episodic_memory tool (hybrid recall).")
    public record ToolSearch(
            @Schema(description = "The namespace to search; required.")
            @NotNull(message = "namespace is required")
            @Valid
            Namespace namespace,

            @Schema(description = "The query text; required, not blank.") @NotNull(message = "query is required")
            String query,

            @Schema(description = "Most experiences, 1 to 100; absent or null = 5.")
            Integer topK,

            @Schema(description = "Only failures; absent or null = false.")
            Boolean failuresOnly) {}

    /**
     * Body of the {@code get_warnings} tool.
     *
     * @param namespace the namespace (required)
     * @param context   the current context or query, or absent
     */
    @Schema(description = "Body of the get_warnings tool.")
    public record ToolWarnings(
            @Schema(description = "The namespace; required.") @NotNull(message = "namespace is required") @Valid
            Namespace namespace,

            @Schema(description = "The current context or query, or absent for the most recent failures only.")
            String context) {}
}

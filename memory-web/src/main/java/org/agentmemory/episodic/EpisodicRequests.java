package org.agentmemory.episodic;

import java.util.List;
import java.util.Map;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;

import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.episodic.EpisodeCategory;
import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.agentmemory.api.episodic.RecallMode;
import org.agentmemory.api.episodic.RecallRequest;

/**
 * Request bodies of the episodic resources. The tenant never travels in a body: it is the caller's
 * ({@code Tenants}). Bean Validation checks presence; the service checks every other rule and names the field.
 */
public final class EpisodicRequests {

    private EpisodicRequests() {
    }

    /**
     * The namespace of a request (spec §10.1) without the tenant.
     *
     * @param agentId   the agent (required)
     * @param userId    the user, or absent
     * @param sessionId the session, or absent
     * @param roomId    the room, or absent
     * @param crewId    the crew, or absent
     */
    public record Namespace(@NotNull(message = "namespace.agentId is required") String agentId, String userId,
            String sessionId, String roomId, String crewId) {

        /**
         * @param tenantId the caller's tenant
         * @return the namespace
         * @throws InvalidInputException when the agent is blank
         */
        public MemoryNamespace toNamespace(String tenantId) throws InvalidInputException {
            return namespace(tenantId, agentId, userId, sessionId, roomId, crewId);
        }
    }

    /**
     * @return the namespace of query parameters
     * @throws InvalidInputException when the agent is missing or blank
     */
    static MemoryNamespace namespace(String tenantId, String agentId, String userId, String sessionId, String roomId,
            String crewId) throws InvalidInputException {
        if (agentId == null || agentId.isBlank()) {
            throw new InvalidInputException("agentId", "required", "agentId is required: every namespace belongs to an agent.");
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
    public record RecordEpisode(@NotNull(message = "namespace is required") @Valid Namespace namespace,
            @NotNull(message = "situation is required") String situation,
            @NotNull(message = "actionTaken is required") String actionTaken,
            @NotNull(message = "outcome is required: success, failure, partial or timeout") EpisodeOutcome outcome,
            String outcomeDetails, String errorType, String errorMessage, EpisodeCategory category, Integer importance,
            List<String> relatedTools, List<String> relatedEntities, Integer ttlDays, Map<String, Object> metadata,
            Boolean generateReflection, String lessonLearned) {

        /**
         * @param tenantId the caller's tenant
         * @param prefix   field prefix of messages
         * @return the service input
         * @throws InvalidInputException naming the field whose value breaks a rule
         */
        public EpisodeInput toInput(String tenantId, String prefix) throws InvalidInputException {
            try {
                return new EpisodeInput(namespace.toNamespace(tenantId), situation, actionTaken, outcome, outcomeDetails,
                        errorType, errorMessage, category, importance, relatedTools, relatedEntities, ttlDays, metadata,
                        generateReflection == null || generateReflection, lessonLearned);
            } catch (IllegalArgumentException e) {
                String message = e.getMessage();
                String field = message == null || message.indexOf(' ') < 0 ? "body" : message.substring(0, message.indexOf(' '));
                throw new InvalidInputException(prefix + field, "invalid", message);
            }
        }
    }

    /**
     * Body of {@code POST /episodes/batch}.
     *
     * @param episodes 1 to 1000 episodes
     */
    public record RecordBatch(@NotEmpty(message = "episodes must contain at least one episode") List<@Valid RecordEpisode> episodes) {
    }

    /**
     * Body of {@code POST /episodes/tool} (spec §10.3 {@code record_tool_episode}).
     *
     * @param namespace  where it belongs (required)
     * @param toolName   the tool (required)
     * @param toolArgs   the arguments object, or absent
     * @param toolResult the result object ({@code success}, {@code status}, {@code error}, {@code result}), or absent
     * @param userQuery  the user's query, or absent
     */
    public record ToolEpisode(@NotNull(message = "namespace is required") @Valid Namespace namespace,
            @NotNull(message = "toolName is required") String toolName, Map<String, Object> toolArgs,
            Map<String, Object> toolResult, String userQuery) {
    }

    /**
     * Body of {@code POST /episodes/crew} (spec §10.3 {@code record_crew_episode}).
     *
     * @param namespace   the crew's namespace (required)
     * @param crewResult  the crew's result object (with {@code agent_results}), or absent
     * @param description the flow description (required)
     * @param perAgent    one episode per agent too (default {@code true})
     */
    public record CrewEpisode(@NotNull(message = "namespace is required") @Valid Namespace namespace,
            Map<String, Object> crewResult, @NotNull(message = "description is required") String description,
            Boolean perAgent) {
    }

    /**
     * Body of {@code POST /episodes/lessons} and of the {@code record_lesson} tool (spec §10.9).
     *
     * @param namespace  where it belongs (required)
     * @param situation  when the lesson applies (required)
     * @param lesson     the lesson (required)
     * @param category   default {@code decision}
     * @param importance any integer, clamped to 1..10; default 5
     */
    public record Lesson(@NotNull(message = "namespace is required") @Valid Namespace namespace,
            @NotNull(message = "situation is required") String situation,
            @NotNull(message = "lesson is required") String lesson, EpisodeCategory category, Integer importance) {
    }

    /**
     * Body of {@code POST /episodes/interactions} (spec §9.3 {@code record_interaction}).
     *
     * @param namespace where it belongs (required)
     * @param query     the user's query (required)
     * @param response  the agent's response, or absent
     */
    public record Interaction(@NotNull(message = "namespace is required") @Valid Namespace namespace,
            @NotNull(message = "query is required") String query, String response) {
    }

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
    public record Recall(@NotNull(message = "namespace is required") @Valid Namespace namespace,
            @NotNull(message = "query is required") String query, Integer topK, Double scoreThreshold,
            EpisodeCategory category, Boolean failuresOnly, RecallMode mode) {

        /**
         * @param tenantId the caller's tenant
         * @return the service request
         * @throws InvalidInputException when the namespace is invalid
         */
        public RecallRequest toRequest(String tenantId) throws InvalidInputException {
            return new RecallRequest(namespace.toNamespace(tenantId), query, topK, scoreThreshold, category,
                    failuresOnly != null && failuresOnly, mode);
        }
    }

    /**
     * Body of {@code POST /episodes/consolidated} (spec §10.3 {@code mark_consolidated}).
     *
     * @param episodeIds the episodes (required)
     * @param pageId     the brain page (required)
     */
    public record Consolidated(@NotNull(message = "episodeIds is required") List<String> episodeIds,
            @NotNull(message = "pageId is required") String pageId) {
    }

    /**
     * Body of {@code POST /episodes/compact} (spec §10.3 {@code compact_namespace}).
     *
     * @param namespace       the namespace (required)
     * @param keepTopN        how many to keep, default 100
     * @param keepAllFailures keep every failure too (default {@code true})
     */
    public record Compact(@NotNull(message = "namespace is required") @Valid Namespace namespace, Integer keepTopN,
            Boolean keepAllFailures) {
    }

    /**
     * Body of the {@code search_episodic_memory} tool.
     *
     * @param namespace    the namespace (required)
     * @param query        the query (required)
     * @param topK         default 5
     * @param failuresOnly default {@code false}
     */
    public record ToolSearch(@NotNull(message = "namespace is required") @Valid Namespace namespace,
            @NotNull(message = "query is required") String query, Integer topK, Boolean failuresOnly) {
    }

    /**
     * Body of the {@code get_warnings} tool.
     *
     * @param namespace the namespace (required)
     * @param context   the current context or query, or absent
     */
    public record ToolWarnings(@NotNull(message = "namespace is required") @Valid Namespace namespace, String context) {
    }
}

package org.agentmemory.api.episodic;

import java.util.List;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.conversation.Page;

/**
 * Episodic memory (spec §10): record what an agent faced, did and learned, and recall it by meaning and by
 * words. Shared by the local view {@link EpisodicMemory} and the remote view {@link EpisodicMemoryRemote}.
 *
 * <p>Recording runs in the order of spec §10.3: importance, failure flag, expiry, reflection (a model when
 * configured, else or on any model failure the heuristic table; never an error to the caller), assembly, the
 * optional importance scorer, embedding, storage. Reflection and embedding run before the database
 * transaction starts. Texts are stored and searched in Unicode NFC. Identical content recorded twice in one
 * namespace is stored once: the second call returns the first episode unchanged (its importance kept).
 * Times are UTC. Invalid arguments throw {@link InvalidInputException} naming the field before anything is
 * written.
 */
public interface EpisodicMemoryOperations {

    /** Largest number of inputs of one {@link #recordEpisodes} call. */
    int MAX_BATCH = 1000;
    /** Largest page of the listing methods. */
    int MAX_LIMIT = 1000;
    /** Warnings of the {@code get_warnings} tool and of context assembly (spec §9.1, §10.9: 3). */
    int DEFAULT_WARNINGS = 3;

    /**
     * Records one episode (spec §10.3 {@code record_episode}).
     *
     * @param input what happened
     * @return the stored episode (or the identical one stored earlier)
     * @throws InvalidInputException when a field breaks a rule (ids: 1–128 code points without control characters; tenant ≤ 64)
     */
    @RequiresRole(RequiresRole.WRITER)
    Episode recordEpisode(EpisodeInput input) throws InvalidInputException;

    /**
     * Records many episodes: reflections and embeddings are computed first (embeddings in one batch), then
     * everything is stored in one transaction.
     *
     * @param inputs 1 to {@value #MAX_BATCH} inputs
     * @return the stored episodes, in input order
     * @throws InvalidInputException when an input breaks a rule (field prefixed {@code inputs[i].})
     */
    @RequiresRole(RequiresRole.WRITER)
    List<Episode> recordEpisodes(List<EpisodeInput> inputs) throws InvalidInputException;

    /**
     * Records a tool call (spec §10.3 {@code record_tool_episode}).
     *
     * @param namespace  where it belongs
     * @param toolName   the tool; not blank
     * @param toolArgs   the call's arguments, or {@code null}
     * @param toolResult the result object ({@code success}, {@code status}, {@code error}, {@code result}), or
     *                   {@code null}
     * @param userQuery  the user's query, or {@code null}
     * @return the stored episode
     * @throws InvalidInputException when an argument breaks a rule
     */
    @RequiresRole(RequiresRole.WRITER)
    Episode recordToolEpisode(
            MemoryNamespace namespace,
            String toolName,
            Map<String, Object> toolArgs,
            Map<String, Object> toolResult,
            String userQuery)
            throws InvalidInputException;

    /**
     * Records a crew run (spec §10.3 {@code record_crew_episode}): one crew episode and, when {@code perAgent},
     * one per entry of {@code crewResult.agent_results}.
     *
     * @param namespace   the crew's namespace
     * @param crewResult  the crew's result object, or {@code null}
     * @param description the flow description; not blank
     * @param perAgent    whether to record per-agent episodes
     * @return the stored episodes, crew first
     * @throws InvalidInputException when an argument breaks a rule
     */
    @RequiresRole(RequiresRole.WRITER)
    List<Episode> recordCrewEpisode(
            MemoryNamespace namespace, Map<String, Object> crewResult, String description, boolean perAgent)
            throws InvalidInputException;

    /**
     * Records an explicit lesson (spec §10.9 {@code record_lesson}, with §13 #2 fixed: the lesson is stored and
     * embedded): SUCCESS, no reflection, importance clamped to 1..10.
     *
     * @param namespace  where it belongs
     * @param situation  the situation; not blank
     * @param lesson     the lesson; not blank
     * @param category   the category, or {@code null} for {@link EpisodeCategory#DECISION}
     * @param importance any integer (clamped), or {@code null} for 5
     * @return the stored lesson episode
     * @throws InvalidInputException when an argument breaks a rule
     */
    @RequiresRole(RequiresRole.WRITER)
    Episode recordLesson(
            MemoryNamespace namespace, String situation, String lesson, EpisodeCategory category, Integer importance)
            throws InvalidInputException;

    /**
     * Records an answered question (spec §9.3 {@code record_interaction}, with §13 #1 fixed: it really records):
     * situation = query[:500], action = {@code Responded: {response[:200]}}, SUCCESS, QUERY_RESOLUTION,
     * importance 3. Trivial queries (shorter than 10 code points, or greetings) are skipped.
     *
     * @param namespace where it belongs
     * @param query     the user's query
     * @param response  the agent's response, or {@code null}
     * @return the stored episode, or {@code null} when the query was trivial
     * @throws InvalidInputException when an argument breaks a rule
     */
    @RequiresRole(RequiresRole.WRITER)
    Episode recordInteraction(MemoryNamespace namespace, String query, String response) throws InvalidInputException;

    /**
     * Recalls similar episodes (spec §10.3 {@code recall_similar}, §10.6).
     *
     * @param request the query, namespace and options
     * @return the hits, best first, at most {@code topK}; expired episodes never come back
     * @throws InvalidInputException when an argument breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    List<EpisodeSearchResult> recallSimilar(RecallRequest request) throws InvalidInputException;

    /**
     * Failure warnings in the spec §10.3 text format ({@code MISTAKES TO AVOID:} / {@code SUGGESTED APPROACHES:}):
     * failures similar to the query merged with the most recent failures. Recent failures are scoped to the
     * namespace's user when it has one (fixes spec §13 #6), else to the agent. This is also the episodic-warnings
     * section of context assembly (spec §9.3, branch 1).
     *
     * @param namespace   the namespace
     * @param query       the current query, or {@code null} for recent failures only
     * @param maxWarnings 1 to {@value #MAX_LIMIT}
     * @return the text, or {@code ""} when there is nothing to warn about
     * @throws InvalidInputException when an argument breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    String failureWarnings(MemoryNamespace namespace, String query, int maxWarnings) throws InvalidInputException;

    /**
     * The user's preference episodes, newest first (spec §10.3 {@code get_user_preferences}).
     *
     * @param namespace the namespace (usually one with a user)
     * @param limit     1 to {@value #MAX_LIMIT}
     * @return the episodes of category {@code user_preference}
     * @throws InvalidInputException when the namespace or the limit breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    List<Episode> userPreferences(MemoryNamespace namespace, int limit) throws InvalidInputException;

    /**
     * A room's recent episodes, newest first (spec §10.3 {@code get_room_context}).
     *
     * @param namespace  the namespace (usually one with a room)
     * @param limit      1 to {@value #MAX_LIMIT}
     * @param categories only these categories (2× over-fetch, then post-filter), or {@code null}/empty for all
     * @return the episodes
     * @throws InvalidInputException when the namespace or the limit breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    List<Episode> roomContext(MemoryNamespace namespace, int limit, List<EpisodeCategory> categories)
            throws InvalidInputException;

    /**
     * The pre-ask context of spec §10.9: failure warnings, the user-preferences block (when the namespace has
     * a user) and the room-context block (when it has a room), joined by blank lines.
     *
     * @param namespace   the namespace
     * @param query       the current query, or {@code null}
     * @param maxWarnings 1 to {@value #MAX_LIMIT}
     * @return the text, or {@code ""}
     * @throws InvalidInputException when an argument breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    String preAskContext(MemoryNamespace namespace, String query, int maxWarnings) throws InvalidInputException;

    /**
     * Reads one episode.
     *
     * @param tenantId  the tenant
     * @param episodeId the episode's UUID
     * @return the episode
     * @throws NotFoundException when it does not exist in the tenant
     */
    @RequiresRole(RequiresRole.READER)
    Episode getEpisode(String tenantId, String episodeId) throws NotFoundException;

    /** Episodes deleted per transaction by {@link #deleteAgentEpisodes} and {@link #deleteUserEpisodes}. */
    int DELETE_BATCH = 100;

    /**
     * Deletes one episode with its search-index document, if it belongs to the owner (issue 34 item 5).
     *
     * @param tenantId  the tenant
     * @param agentId   the agent the episode must belong to; required
     * @param userId    the user the episode must belong to, or {@code null} for any user of the agent
     * @param episodeId the episode's UUID
     * @throws NotFoundException     when no such episode exists in the tenant for this agent (and user): another
     *                               tenant's or owner's episode answers as one that does not exist
     * @throws InvalidInputException when {@code agentId} is missing or an id breaks the id rules
     */
    @RequiresRole(RequiresRole.WRITER)
    void deleteEpisode(String tenantId, String agentId, String userId, String episodeId)
            throws NotFoundException, InvalidInputException;

    /**
     * Wipes an agent's episodic memory: every episode of the agent in the tenant, of every user, session, room and
     * crew, with their search-index documents, in transactions of at most {@value #DELETE_BATCH} episodes (issue 34
     * item 5). Evidence ids of brain pages that name a deleted episode stay (the right to erasure, {@code POST
     * /erasures}, is the delete that revises brain pages too).
     *
     * @param tenantId the tenant
     * @param agentId  the agent; required
     * @return how many episodes were deleted
     * @throws InvalidInputException when {@code agentId} is missing or breaks the id rules
     */
    @RequiresRole(RequiresRole.ADMIN)
    long deleteAgentEpisodes(String tenantId, String agentId) throws InvalidInputException;

    /**
     * As {@link #deleteAgentEpisodes}, for the episodes of one user of the agent only (issue 34 item 5).
     *
     * @param tenantId the tenant
     * @param agentId  the agent; required
     * @param userId   the user; required
     * @return how many episodes were deleted
     * @throws InvalidInputException when {@code agentId} or {@code userId} is missing or breaks the id rules
     */
    @RequiresRole(RequiresRole.WRITER)
    long deleteUserEpisodes(String tenantId, String agentId, String userId) throws InvalidInputException;

    /**
     * The most recent episodes of a namespace, newest first (spec §10.3 {@code export_episodes}; REST streams
     * them as JSONL).
     *
     * @param namespace the namespace
     * @param limit     1 to {@value #MAX_LIMIT}
     * @return the episodes
     * @throws InvalidInputException when an argument breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    List<Episode> exportEpisodes(MemoryNamespace namespace, int limit) throws InvalidInputException;

    /**
     * The episodes of a namespace, most recently stored first, a page at a time (keyset paging: pages never
     * overlap and never skip an episode that existed when paging started). Expired episodes the timer has not yet
     * deleted are listed too, as {@link #countEpisodes} counts them.
     *
     * @param namespace the namespace (agent required; the other ids narrow it)
     * @param limit     page size, 1 to {@value #MAX_LIMIT}
     * @param cursor    {@code null} for the first page, else {@link Page#nextCursor()} of the previous one
     * @return the page; {@code nextCursor} is {@code null} on the last page
     * @throws InvalidInputException when the namespace or limit breaks a rule, or the cursor is not one of this
     *                               listing
     */
    @RequiresRole(RequiresRole.READER)
    Page<Episode> listEpisodes(MemoryNamespace namespace, int limit, String cursor) throws InvalidInputException;

    /**
     * @param namespace the namespace
     * @return how many episodes it holds (expired ones included until the timer deletes them)
     * @throws InvalidInputException when an argument breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    long countEpisodes(MemoryNamespace namespace) throws InvalidInputException;

    /**
     * Marks episodes as consolidated into a brain page (spec §10.3 {@code mark_consolidated}): merges
     * {@code {"consolidated_into": pageId}} into each one's metadata, keeping the other keys. Unknown ids are
     * ignored. Never deletes.
     *
     * @param tenantId   the tenant
     * @param episodeIds the episodes
     * @param pageId     the page; not blank
     * @return how many episodes were updated
     * @throws InvalidInputException when an argument breaks a rule
     */
    @RequiresRole(RequiresRole.WRITER)
    int markConsolidated(String tenantId, List<String> episodeIds, String pageId) throws InvalidInputException;

    /**
     * Deletes expired episodes ({@code expiresAt < now}); an EJB timer also runs this every
     * {@code memory.housekeeping.episode-expiry-seconds} (15 minutes), on one server of a cluster per period.
     *
     * @return how many were deleted
     */
    @RequiresRole(RequiresRole.WRITER)
    long cleanupExpired();

    /**
     * Keeps the {@code keepTopN} most important episodes of a namespace (and, when asked, every failure) and
     * really deletes the others (spec §10.3 {@code compact_namespace}, with §13 #3 fixed).
     *
     * @param namespace       the namespace
     * @param keepTopN        how many to keep, ≥ 0
     * @param keepAllFailures whether failures are always kept
     * @return how many were deleted (0 when the namespace holds at most {@code keepTopN})
     * @throws InvalidInputException when an argument breaks a rule
     */
    @RequiresRole(RequiresRole.WRITER)
    long compactNamespace(MemoryNamespace namespace, int keepTopN, boolean keepAllFailures)
            throws InvalidInputException;

    /**
     * The agent tool {@code search_episodic_memory} (spec §10.9): recall as text for a model.
     *
     * @param namespace    the namespace
     * @param query        the query
     * @param topK         1 to {@value RecallRequest#MAX_TOP_K}
     * @param failuresOnly only failures
     * @return {@code Found n relevant past experiences:} … or {@code No relevant past experiences found.}
     * @throws InvalidInputException when an argument breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    String searchPastExperiences(MemoryNamespace namespace, String query, int topK, boolean failuresOnly)
            throws InvalidInputException;

    /**
     * The agent tool {@code record_lesson} (spec §10.9) as text for a model.
     *
     * @param namespace  the namespace
     * @param situation  the situation
     * @param lesson     the lesson
     * @param category   the category, or {@code null} for {@code decision}
     * @param importance any integer (clamped to 1..10), or {@code null} for 5
     * @return {@code Lesson recorded (id …, importance n): …}
     * @throws InvalidInputException when an argument breaks a rule
     */
    @RequiresRole(RequiresRole.WRITER)
    String recordLessonTool(
            MemoryNamespace namespace, String situation, String lesson, EpisodeCategory category, Integer importance)
            throws InvalidInputException;

    /**
     * The agent tool {@code get_warnings} (spec §10.9) as text for a model.
     *
     * @param namespace the namespace
     * @param context   the current context or query, or {@code null}/empty
     * @return the warnings, or {@code No past failures to warn about.}
     * @throws InvalidInputException when an argument breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    String warningsTool(MemoryNamespace namespace, String context) throws InvalidInputException;
}

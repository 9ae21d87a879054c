package org.agentmemory.episodic.boundary;

import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.agentmemory.api.episodic.Episode;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.LessonSource;
import org.agentmemory.episodic.control.EpisodeStore;

/**
 * The episodes a consolidation reads and marks (the dream cycle, issue 33 item 2; spec §12.2 steps 1 and 8), and the
 * successful episodes skill extraction reads (issue 35 item 2), for other components: records of this boundary, never
 * entities.
 *
 * <p>Eligible: importance at or above a threshold, or a non-blank lesson; and not consolidated yet (the
 * {@code consolidated_into} column, indexed for exactly this). Read oldest first in pages of {@value #PAGE} by
 * (created_at, id), so a large backlog is read in bounded queries and every eligible episode is reached in order: the
 * reference read 5,000 rows of any kind and filtered afterwards, so ineligible episodes could starve eligible ones.
 */
@Stateless
@LocalBean
public class EpisodeFeedBean {

    /** Rows per query. */
    static final int PAGE = 500;

    /** Metadata keys naming the conversation turn an episode came from (optional; strings or numbers). */
    public static final String CONVERSATION_KEY = "conversation_id";

    /** See {@link #CONVERSATION_KEY}. */
    public static final String TURN_KEY = "turn_id";

    /**
     * An episode waiting to be consolidated.
     *
     * @param episodeId    the episode
     * @param createdAt    when it was recorded
     * @param category     its category value
     * @param relatedTools tool names
     * @param situation    what the agent faced
     * @param actionTaken  what it did
     * @param lesson       its lesson, or {@code null}
     * @param vector       its stored embedding, or {@code null}
     * @param turnRefs     {@code turn:<conversation>/<turn>} when its metadata names the turn it came from
     */
    public record Candidate(
            String episodeId,
            Instant createdAt,
            String category,
            List<String> relatedTools,
            String situation,
            String actionTaken,
            String lesson,
            float[] vector,
            List<String> turnRefs) {}

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    /**
     * @param tenantId      the tenant
     * @param agentId       the agent (episodes of all its users, rooms and crews)
     * @param since         only episodes created at or after it, or {@code null} for all
     * @param minImportance the importance threshold
     * @param limit         most episodes
     * @return eligible, unconsolidated episodes, oldest first
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    @SuppressWarnings("unchecked")
    public List<Candidate> eligible(String tenantId, String agentId, Instant since, int minImportance, int limit) {
        List<Candidate> found = new ArrayList<>(Math.min(limit, 4 * PAGE));
        Instant afterTime = null;
        long afterId = Long.MIN_VALUE;
        while (found.size() < limit) {
            String keyset = afterTime == null
                    ? (since == null ? "" : " AND e.createdAt >= :since")
                    : " AND (e.createdAt > :t OR (e.createdAt = :t AND e.id > :id))";
            var query = em.createQuery(
                            "SELECT e.id, e.episodeId, e.createdAt, e.category, e.relatedTools, e.situation,"
                                    + " e.actionTaken, e.lessonLearned, e.embedding, e.metadata FROM Episode e"
                                    + " WHERE e.tenantId = :tenant AND e.agentId = :agent"
                                    + " AND e.consolidatedInto IS NULL"
                                    + " AND (e.importance >= :min OR (e.lessonLearned IS NOT NULL"
                                    + " AND e.lessonLearned <> ''))" + keyset
                                    + " ORDER BY e.createdAt, e.id",
                            Object[].class)
                    .setParameter("tenant", tenantId)
                    .setParameter("agent", agentId)
                    .setParameter("min", minImportance)
                    .setMaxResults(Math.min(PAGE, limit - found.size()));
            if (afterTime != null) {
                query.setParameter("t", afterTime).setParameter("id", afterId);
            } else if (since != null) {
                query.setParameter("since", since);
            }
            List<Object[]> rows = query.getResultList();
            for (Object[] r : rows) {
                String lesson = (String) r[7];
                found.add(new Candidate(
                        (String) r[1],
                        (Instant) r[2],
                        (String) r[3],
                        (List<String>) r[4],
                        (String) r[5],
                        (String) r[6],
                        lesson == null || lesson.isBlank() ? null : lesson,
                        (float[]) r[8],
                        turnRefs((Map<String, Object>) r[9])));
            }
            if (rows.size() < PAGE) {
                break;
            }
            Object[] last = rows.get(rows.size() - 1);
            afterId = (Long) last[0];
            afterTime = (Instant) last[2];
        }
        return found;
    }

    /**
     * A successful episode as skill extraction reads it (issue 35 item 2): no situation, action or user, which may
     * hold personal data; only the category, tools and lesson.
     *
     * @param episodeId    the episode
     * @param createdAt    when it was recorded
     * @param category     its category value
     * @param relatedTools tool names
     * @param lesson       its lesson when it is worth keeping ({@link Episode#isLessonBearing()}: not the heuristic's
     *                     generic success lesson), else {@code null}
     */
    public record Success(
            String episodeId, Instant createdAt, String category, List<String> relatedTools, String lesson) {}

    /**
     * The agent's newest successful episodes that have not expired (outcome {@code success}; episodes of all its
     * users, rooms and crews), for skill extraction.
     *
     * @param tenantId the tenant
     * @param agentId  the agent
     * @param now      the time expiry is judged at
     * @param limit    most episodes
     * @return the episodes, newest first
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    @SuppressWarnings("unchecked")
    public List<Success> successes(String tenantId, String agentId, Instant now, int limit) {
        List<Object[]> rows = em.createQuery(
                        "SELECT e.episodeId, e.createdAt, e.category, e.relatedTools, e.lessonLearned, e.lessonSource"
                                + " FROM Episode e WHERE e.tenantId = :tenant AND e.agentId = :agent"
                                + " AND e.outcome = :outcome AND (e.expiresAt IS NULL OR e.expiresAt >= :now)"
                                + " ORDER BY e.createdAt DESC, e.id DESC",
                        Object[].class)
                .setParameter("tenant", tenantId)
                .setParameter("agent", agentId)
                .setParameter("outcome", EpisodeOutcome.SUCCESS.value())
                .setParameter("now", now)
                .setMaxResults(limit)
                .getResultList();
        List<Success> found = new ArrayList<>(rows.size());
        for (Object[] r : rows) {
            String lesson = (String) r[4];
            String source = (String) r[5];
            boolean bearing = lesson != null
                    && !lesson.isBlank()
                    && (source == null
                            ? !Episode.HEURISTIC_SUCCESS_LESSON.equals(lesson.strip())
                            : !LessonSource.HEURISTIC.value().equals(source));
            found.add(new Success(
                    (String) r[0], (Instant) r[1], (String) r[2], (List<String>) r[3], bearing ? lesson : null));
        }
        return found;
    }

    /**
     * Marks episodes consolidated into a page (spec §12.2 step 8): the metadata key and the column, in one
     * transaction of its own. Episodes are never deleted.
     *
     * @param tenantId   the tenant
     * @param episodeIds the episodes
     * @param pageId     the page
     * @param now        the time of the mark
     * @return how many episodes were marked
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int markConsolidated(String tenantId, List<String> episodeIds, String pageId, Instant now) {
        Map<String, Object> patch = new LinkedHashMap<>();
        patch.put(Episode.CONSOLIDATED_INTO, pageId);
        return new EpisodeStore(em).mergeMetadata(tenantId, episodeIds, patch, now);
    }

    /**
     * Locks the episodes that still exist among the given ones, in the caller's transaction, until it ends: an
     * archive that cites them commits before an erasure can delete them (and the erasure then removes the citation),
     * or finds them gone (issue 34 item 4).
     *
     * @param tenantId   the tenant
     * @param episodeIds public ids
     * @return those that exist
     */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public Set<String> lockExisting(String tenantId, Collection<String> episodeIds) {
        Set<String> existing = new HashSet<>();
        List<String> ids = List.copyOf(episodeIds);
        for (int from = 0; from < ids.size(); from += 500) {
            existing.addAll(em.createQuery(
                            "SELECT e.episodeId FROM Episode e WHERE e.tenantId = :t AND e.episodeId IN :ids"
                                    + " ORDER BY e.id",
                            String.class)
                    .setParameter("t", tenantId)
                    .setParameter("ids", ids.subList(from, Math.min(ids.size(), from + 500)))
                    .setLockMode(LockModeType.PESSIMISTIC_READ)
                    .getResultList());
        }
        return existing;
    }

    private static List<String> turnRefs(Map<String, Object> metadata) {
        if (metadata == null) {
            return List.of();
        }
        Object conversation = metadata.get(CONVERSATION_KEY);
        Object turn = metadata.get(TURN_KEY);
        if (conversation == null || turn == null) {
            return List.of();
        }
        String ref = "turn:" + conversation + "/" + turn;
        return ref.length() > 600 || ref.indexOf('\u0000') >= 0 || ref.contains("\n") ? List.of() : List.of(ref);
    }
}

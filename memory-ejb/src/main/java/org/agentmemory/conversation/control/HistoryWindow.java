package org.agentmemory.conversation.control;

import jakarta.persistence.EntityManager;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.agentmemory.compaction.control.FittedHistory;
import org.agentmemory.compaction.control.HistoryRenderer;
import org.agentmemory.conversation.entity.Conversation;

/**
 * Loads only the part of a long history a compaction can show (spec §8.5 steps 2–3): the walk considers the
 * newest {@code maxTurns} candidates (turns with a non-blank assistant response or with tool invocations, minus other agents' turns when
 * they are excluded), and every older candidate is ceiling-dropped, so the turns before the first kept candidate
 * are needed only as ids. A scan of (sequence, turn id, agent, first character of the response) finds that
 * first candidate; the full turns are read from there on.
 *
 * <p>The result is the walk's result over the whole history: the compactor locates the persisted boundary by
 * position in the list it is given, and a boundary older than the loaded tail precedes every kept turn, which
 * forces none of them in either case; the ceiling-dropped ids the compactor can no longer see are put back in
 * front of its dropped ids ({@link #withOlderDropped}), in the same order.
 */
public final class HistoryWindow {

    private HistoryWindow() {}

    /**
     * One stored turn as the scan sees it.
     *
     * @param sequence  the turn's sequence
     * @param turnId    the turn id
     * @param chatbotId the producing agent, or {@code null}
     * @param blank     whether it renders nothing: a blank assistant response and no tool invocation (never a
     *                  candidate)
     */
    public record Row(long sequence, String turnId, String chatbotId, boolean blank) {}

    /**
     * What to load.
     *
     * @param afterSequence      load the turns with a greater sequence (0 = all)
     * @param olderCandidateIds  the candidates before them, oldest first: ceiling-dropped
     */
    public record Window(long afterSequence, List<String> olderCandidateIds) {}

    /**
     * Scans a conversation's turns without their texts: one query, plus one for the rare responses that start
     * with whitespace (only those can be blank; they are tested exactly, as the renderer does).
     *
     * @param em the entity manager
     * @param c  the conversation
     * @return every turn in sequence order
     */
    public static List<Row> scan(EntityManager em, Conversation c) {
        return scan(em, c.getId());
    }

    /**
     * As {@link #scan(EntityManager, Conversation)}, by the conversation's id.
     *
     * @param em             the entity manager
     * @param conversationId the conversation
     * @return every turn in sequence order
     */
    public static List<Row> scan(EntityManager em, long conversationId) {
        List<Object[]> rows = em.createQuery(
                        "SELECT t.seq, t.turnId, t.chatbotId, SUBSTRING(t.assistantResponse, 1, 1)"
                                + " FROM Turn t WHERE t.conversation.id = :c ORDER BY t.seq",
                        Object[].class)
                .setParameter("c", conversationId)
                .getResultList();
        List<Long> doubtful = new ArrayList<>();
        for (Object[] row : rows) {
            String first = (String) row[3];
            if (first != null && !first.isEmpty() && HistoryRenderer.isBlank(first)) {
                doubtful.add(((Number) row[0]).longValue());
            }
        }
        Map<Long, Boolean> blankText = new HashMap<>();
        for (int from = 0; from < doubtful.size(); from += 500) {
            List<Long> chunk = doubtful.subList(from, Math.min(doubtful.size(), from + 500));
            for (Object[] row : em.createQuery(
                            "SELECT t.seq, t.assistantResponse FROM Turn t"
                                    + " WHERE t.conversation.id = :c AND t.seq IN :seqs",
                            Object[].class)
                    .setParameter("c", conversationId)
                    .setParameter("seqs", chunk)
                    .getResultList()) {
                blankText.put(((Number) row[0]).longValue(), HistoryRenderer.isBlank((String) row[1]));
            }
        }
        List<Long> blankReplies = new ArrayList<>();
        for (Object[] row : rows) {
            long seq = ((Number) row[0]).longValue();
            String first = (String) row[3];
            if (first == null || first.isEmpty() || blankText.getOrDefault(seq, false)) {
                blankReplies.add(seq);
            }
        }
        // A blank reply with tool invocations (a tool-only turn) renders its tool activity: not blank.
        Set<Long> toolOnly = withInvocations(em, conversationId, blankReplies);
        Set<Long> blankSet = new HashSet<>(blankReplies);
        List<Row> scanned = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            long seq = ((Number) row[0]).longValue();
            boolean blank = blankSet.contains(seq) && !toolOnly.contains(seq);
            scanned.add(new Row(seq, (String) row[1], (String) row[2], blank));
        }
        return scanned;
    }

    /** @return which of the given sequences (turns with a blank reply, a small set) carry tool invocations */
    private static Set<Long> withInvocations(EntityManager em, long conversationId, List<Long> sequences) {
        Set<Long> found = new HashSet<>();
        for (int from = 0; from < sequences.size(); from += 500) {
            List<Long> chunk = sequences.subList(from, Math.min(sequences.size(), from + 500));
            for (Number seq : em.createQuery(
                            "SELECT DISTINCT i.turn.seq FROM ToolInvocation i"
                                    + " WHERE i.turn.conversation.id = :c AND i.turn.seq IN :seqs",
                            Number.class)
                    .setParameter("c", conversationId)
                    .setParameter("seqs", chunk)
                    .getResultList()) {
                found.add(seq.longValue());
            }
        }
        return found;
    }

    /**
     * @param rows               the scan, in sequence order
     * @param maxTurns           the budget's ceiling
     * @param currentChatbotId   the agent asking, or {@code null}
     * @param includeOtherAgents whether other agents' turns are candidates
     * @return from where to load, and the older candidates' ids
     */
    public static Window plan(List<Row> rows, int maxTurns, String currentChatbotId, boolean includeOtherAgents) {
        List<Row> candidates = new ArrayList<>(rows.size());
        for (Row row : rows) {
            boolean foreign = currentChatbotId != null
                    && row.chatbotId() != null
                    && !row.chatbotId().equals(currentChatbotId);
            if (!row.blank() && (includeOtherAgents || !foreign)) {
                candidates.add(row);
            }
        }
        if (candidates.size() <= maxTurns) {
            return new Window(0, List.of());
        }
        int firstKept = candidates.size() - maxTurns;
        List<String> older = new ArrayList<>(firstKept);
        for (Row row : candidates.subList(0, firstKept)) {
            older.add(row.turnId());
        }
        return new Window(candidates.get(firstKept).sequence() - 1, older);
    }

    /**
     * @param fitted the fitter's result over the loaded tail
     * @param older  the older candidates' ids, oldest first
     * @return the same result with {@code older} in front of its dropped ids
     */
    public static FittedHistory withOlderDropped(FittedHistory fitted, List<String> older) {
        if (older.isEmpty()) {
            return fitted;
        }
        List<String> dropped =
                new ArrayList<>(older.size() + fitted.droppedTurnIds().size());
        dropped.addAll(older);
        dropped.addAll(fitted.droppedTurnIds());
        return new FittedHistory(
                fitted.messages(),
                fitted.views(),
                fitted.omissions(),
                fitted.outcome(),
                fitted.historyBudget(),
                fitted.tokensUsed(),
                fitted.boundaryTurnId(),
                fitted.stage2Needed(),
                dropped);
    }
}

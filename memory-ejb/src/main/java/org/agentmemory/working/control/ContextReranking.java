package org.agentmemory.working.control;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.agentmemory.api.working.ContextFrame;

/**
 * Re-ranking of full-text hits by the current context (seed 003 {@code _rerank_by_context}): each hit's relevance is
 * {@value #TEXT_WEIGHT} × its text score + {@value #CONTEXT_WEIGHT} × its context match while the context stack holds
 * a frame, else its text score.
 *
 * <p>The context match of an item (its frame at store time) with the current frame (the top of the stack) is
 * {@value #TYPE_MATCH} when both have the same type, plus {@value #WORD_OVERLAP} × (shared words of their data /
 * words of the larger of the two), so 0–1. An item stored without a context matches 0.
 *
 * <p>Fix of the seed: it blends the stores' raw scores, which on a full-text engine are not bounded by 1 (BM25), so
 * the 30 % of context match would weigh more or less depending on the query. Here each text score is divided by the
 * best candidate's first, so the best text hit has 1 and the blend means what the seed meant.
 */
public final class ContextReranking {

    /** Weight of the text score (seed 003: 0.7). */
    public static final double TEXT_WEIGHT = 0.7;

    /** Weight of the context match (seed 003: 0.3). */
    public static final double CONTEXT_WEIGHT = 0.3;

    /** Context match for the same frame type (seed 003: 0.5). */
    public static final double TYPE_MATCH = 0.5;

    /** Context match for data sharing every word (seed 003: 0.5, scaled by the share of words). */
    public static final double WORD_OVERLAP = 0.5;

    /** Least number of full-text candidates re-ranked, whatever the limit. */
    public static final int MIN_CANDIDATES = 50;

    /** Candidates re-ranked per result asked for, beyond {@link #MIN_CANDIDATES}. */
    public static final int CANDIDATES_PER_RESULT = 3;

    /**
     * A full-text hit before re-ranking.
     *
     * @param value   what the hit is (an item)
     * @param score   its full-text score, &gt; 0
     * @param context the item's context frame, or {@code null}
     * @param order   a tie-breaker: among equal relevances the higher comes first (the item's position in its
     *                session, so newer first)
     * @param <T>     the hit's type
     */
    public record Candidate<T>(T value, double score, ContextFrame context, long order) {}

    /**
     * A hit after re-ranking.
     *
     * @param value        what the hit is
     * @param textScore    its score divided by the best candidate's, (0, 1]
     * @param contextMatch its context match, 0–1
     * @param relevance    what it is ranked by
     * @param <T>          the hit's type
     */
    public record Ranked<T>(T value, double textScore, double contextMatch, double relevance) {}

    private ContextReranking() {}

    /**
     * How many full-text candidates to re-rank for {@code limit} results: re-ranking can lift a hit from further down
     * the text ranking, so more are fetched than returned (the seed re-ranks only the {@code limit} best of each
     * store).
     *
     * @param limit results wanted, ≥ 1
     * @return {@code max(}{@value #MIN_CANDIDATES}{@code , }{@value #CANDIDATES_PER_RESULT}{@code × limit)}
     */
    public static int candidates(int limit) {
        return Math.max(MIN_CANDIDATES, CANDIDATES_PER_RESULT * limit);
    }

    /**
     * @param item    the item's context frame, or {@code null}
     * @param current the current frame, or {@code null}
     * @return the context match, 0–1; 0 when either is {@code null}
     */
    public static double contextMatch(ContextFrame item, ContextFrame current) {
        if (item == null || current == null) {
            return 0;
        }
        double match = Objects.equals(item.type(), current.type()) ? TYPE_MATCH : 0;
        Set<String> mine = ContextFrames.words(item.data());
        Set<String> theirs = ContextFrames.words(current.data());
        if (!mine.isEmpty() && !theirs.isEmpty()) {
            Set<String> shared = new TreeSet<>(mine);
            shared.retainAll(theirs);
            match += WORD_OVERLAP * shared.size() / Math.max(mine.size(), theirs.size());
        }
        return match;
    }

    /**
     * @param candidates the full-text hits, in any order
     * @param current    the current frame (top of the context stack), or {@code null} when the stack is empty
     * @param limit      most hits returned, ≥ 1
     * @param <T>        the hits' type
     * @return at most {@code limit} hits by relevance, highest first (ties: higher order first)
     */
    public static <T> List<Ranked<T>> rank(List<Candidate<T>> candidates, ContextFrame current, int limit) {
        double best = 0;
        for (Candidate<T> c : candidates) {
            best = Math.max(best, c.score());
        }
        record Scored<T>(Ranked<T> ranked, long order) {}
        List<Scored<T>> scored = new ArrayList<>(candidates.size());
        for (Candidate<T> c : candidates) {
            double text = best > 0 ? c.score() / best : 0;
            double match = contextMatch(c.context(), current);
            double relevance = current == null ? text : TEXT_WEIGHT * text + CONTEXT_WEIGHT * match;
            scored.add(new Scored<>(new Ranked<>(c.value(), text, match, relevance), c.order()));
        }
        scored.sort(Comparator.comparingDouble((Scored<T> s) -> s.ranked().relevance())
                .reversed()
                .thenComparing(
                        Comparator.comparingLong((Scored<T> s) -> s.order()).reversed()));
        List<Ranked<T>> out = new ArrayList<>(Math.min(limit, scored.size()));
        for (int i = 0; i < scored.size() && i < limit; i++) {
            out.add(scored.get(i).ranked());
        }
        return out;
    }
}

package org.agentmemory.brain.control;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.agentmemory.api.brain.DreamCycleReport;
import org.agentmemory.api.brain.PageWriteResult;

/**
 * One dream cycle of one agent (spec §12.2), without container types: the {@link Ports} read and write. It never
 * throws: a failed archive or mark aborts the cycle (the report says why, the watermark does not move, pages already
 * written stay written); a failed distillation skips the group, which stays pending; a failed promotion is reported
 * by the port and changes nothing else.
 *
 * <ol>
 *   <li>Collect the eligible episodes at or after the watermark, oldest first, at most {@link Limits#collect()}: the
 *       port reads only episodes not yet consolidated, so nothing already done is read twice and the watermark is an
 *       index bound, not a filter that can starve (spec §12.2 step 1's known limitation).</li>
 *   <li>Cluster ({@link EpisodeClusters}), cap to {@link Limits#maxGroups()} groups; the rest are deferred.</li>
 *   <li>Per group: distill, archive with evidence, reinforce the page once per cycle, mark the episodes
 *       consolidated, promote the page when it has been reinforced in {@link Limits#promotionCycles()} distinct
 *       cycles.</li>
 *   <li>Move the watermark ({@link Watermarks#next}).</li>
 * </ol>
 * A re-run after a crash between archive and mark distills the same group again; the merge of statements makes the
 * second archive a no-op (same statements, same evidence), so no page or statement is duplicated.
 */
public final class DreamCycle {

    private DreamCycle() {}

    /**
     * The cycle's limits (spec §12.1).
     *
     * @param collect         most episodes read per cycle
     * @param similarity      cosine threshold of the clustering
     * @param maxGroups       most groups distilled per cycle
     * @param promotionCycles distinct cycles that promote a page to the organisation brain
     */
    public record Limits(int collect, double similarity, int maxGroups, int promotionCycles) {}

    /** A group's distilled knowledge, with the evidence of each statement. */
    public record Distillation(Distilled knowledge, Map<String, Set<String>> evidenceByStatement, boolean byModel) {}

    /** What the cycle reads and writes. */
    public interface Ports {

        /**
         * @param since the watermark (inclusive), or {@code null}
         * @param limit most episodes
         * @return eligible episodes not yet consolidated, created at or after {@code since}, oldest first
         */
        List<DreamEpisode> collect(Instant since, int limit);

        /**
         * @param group a group, oldest first
         * @return its knowledge
         * @throws Exception when the group cannot be distilled (it stays pending)
         */
        Distillation distill(List<DreamEpisode> group) throws Exception;

        /**
         * Merges knowledge into the agent's brain.
         *
         * @param distillation the knowledge and its evidence
         * @return what the write did
         * @throws Exception when the write failed (the cycle aborts)
         */
        PageWriteResult archive(Distillation distillation) throws Exception;

        /**
         * Counts this cycle's reinforcement of a page, once.
         *
         * @param pageId the page
         * @return the distinct cycles that reinforced it, this one included
         * @throws Exception when the write failed (the cycle aborts)
         */
        int reinforce(String pageId) throws Exception;

        /**
         * @param episodeIds the group's episodes
         * @param pageId     the page they were consolidated into
         * @throws Exception when the write failed (the cycle aborts)
         */
        void mark(List<String> episodeIds, String pageId) throws Exception;

        /**
         * Copies a page into the organisation brain (merged, attribution kept).
         *
         * @param pageId the agent's page
         * @return whether this was its first promotion; {@code false} also when the copy failed (logged by the port)
         */
        boolean promote(String pageId);
    }

    /**
     * @param watermark the watermark before the cycle, or {@code null}
     * @param limits    the limits
     * @param ports     reads and writes
     * @param clock     the clock of the report's times
     * @return the report; {@code cycleId}, {@code agentId}, {@code trigger} and {@code serverId} are left for the
     *         caller ({@code 0}, {@code null})
     */
    public static DreamCycleReport run(Instant watermark, Limits limits, Ports ports, Clock clock) {
        Instant started = clock.instant();
        Tally t = new Tally();
        List<DreamEpisode> episodes;
        try {
            episodes = ports.collect(watermark, limits.collect());
        } catch (RuntimeException e) {
            return t.report(started, clock.instant(), watermark, watermark, "collect failed: " + e);
        }
        t.collected = episodes.size();
        List<List<DreamEpisode>> groups = EpisodeClusters.group(episodes, limits.similarity());
        t.formed = groups.size();
        List<Instant> consolidated = new ArrayList<>();
        List<Instant> pending = new ArrayList<>();
        Map<String, Integer> reinforced = new LinkedHashMap<>();
        for (int g = 0; g < groups.size(); g++) {
            List<DreamEpisode> group = groups.get(g);
            if (g >= limits.maxGroups()) {
                t.deferred++;
                group.forEach(e -> pending.add(e.createdAt()));
                continue;
            }
            Distillation d;
            try {
                d = ports.distill(group);
            } catch (Exception e) {
                t.skipped++;
                group.forEach(ep -> pending.add(ep.createdAt()));
                continue;
            }
            PageWriteResult written;
            try {
                written = ports.archive(d);
            } catch (Exception e) {
                return t.report(started, clock.instant(), watermark, watermark, "archive failed: " + e);
            }
            t.distilled++;
            t.byModel += d.byModel() ? 1 : 0;
            t.account(written);
            List<String> ids = group.stream().map(DreamEpisode::episodeId).toList();
            try {
                if (!reinforced.containsKey(written.pageId())) {
                    reinforced.put(written.pageId(), ports.reinforce(written.pageId()));
                }
                ports.mark(ids, written.pageId());
            } catch (Exception e) {
                return t.report(started, clock.instant(), watermark, watermark, "mark failed: " + e);
            }
            t.consolidated += ids.size();
            group.forEach(e -> consolidated.add(e.createdAt()));
        }
        // After every group, so that a page promoted this cycle carries all of this cycle's statements.
        for (Map.Entry<String, Integer> page : reinforced.entrySet()) {
            if (page.getValue() >= limits.promotionCycles() && ports.promote(page.getKey())) {
                t.promoted.add(page.getKey());
            }
        }
        return t.report(started, clock.instant(), watermark, Watermarks.next(watermark, consolidated, pending), null);
    }

    /**
     * The evidence of a heuristic distillation: each line's own episodes (and their turns).
     *
     * @param group the group
     * @return the knowledge, its evidence per statement, not by a model
     */
    public static Distillation heuristic(List<DreamEpisode> group) {
        return new Distillation(HeuristicDistiller.distill(group), HeuristicDistiller.support(group), false);
    }

    /**
     * The evidence of a model's distillation: every episode of the group supports every statement.
     *
     * @param group     the group
     * @param knowledge what the model answered
     * @return the distillation
     */
    public static Distillation byModel(List<DreamEpisode> group, Distilled knowledge) {
        Set<String> all = new TreeSet<>();
        group.forEach(e -> all.addAll(e.evidence()));
        Map<String, Set<String>> evidence = new LinkedHashMap<>();
        for (String statement : Statements.split(knowledge.body())) {
            evidence.put(statement, all);
        }
        return new Distillation(knowledge, evidence, true);
    }

    private static final class Tally {
        int collected;
        int formed;
        int distilled;
        int byModel;
        int skipped;
        int deferred;
        int consolidated;
        int added;
        int superseded;
        final Set<String> created = new LinkedHashSet<>();
        final Set<String> merged = new LinkedHashSet<>();
        final List<String> promoted = new ArrayList<>();

        void account(PageWriteResult w) {
            added += w.added();
            superseded += w.superseded();
            if ("created".equals(w.status())) {
                created.add(w.pageId());
            } else if ("updated".equals(w.status()) && !created.contains(w.pageId())) {
                merged.add(w.pageId());
            }
        }

        DreamCycleReport report(Instant started, Instant finished, Instant before, Instant after, String abort) {
            return new DreamCycleReport(
                    0,
                    null,
                    null,
                    null,
                    started,
                    finished,
                    collected,
                    formed,
                    distilled,
                    byModel,
                    skipped,
                    deferred,
                    consolidated,
                    List.copyOf(created),
                    List.copyOf(merged),
                    promoted,
                    added,
                    superseded,
                    abort != null,
                    abort,
                    before,
                    after);
        }
    }
}

package org.agentmemory.brain.control;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.agentmemory.platform.embedding.Vectors;

/**
 * Groups the episodes of one cycle (spec §12.2 step 2). With vectors: a greedy single pass in the given order (oldest
 * first), each episode joining the first group whose first member's vector has cosine ≥ the threshold (the centroid is
 * never recomputed, as in the reference, so the result does not depend on later members), else starting a group.
 * Episodes without a vector are grouped by (category, sorted tools), in first-seen order, after the vector groups.
 */
public final class EpisodeClusters {

    /** The default cosine threshold (spec §12.1). */
    public static final double DEFAULT_SIMILARITY = 0.75;

    private EpisodeClusters() {}

    /**
     * @param episodes  the cycle's episodes, oldest first
     * @param threshold the cosine a member needs to the group's first member
     * @return the groups, each in the episodes' order; never empty groups
     */
    public static List<List<DreamEpisode>> group(List<DreamEpisode> episodes, double threshold) {
        List<List<DreamEpisode>> byVector = new ArrayList<>();
        Map<String, List<DreamEpisode>> byKey = new LinkedHashMap<>();
        for (DreamEpisode e : episodes) {
            if (e.vector() == null || e.vector().length == 0) {
                byKey.computeIfAbsent(key(e), k -> new ArrayList<>()).add(e);
                continue;
            }
            List<DreamEpisode> home = null;
            for (List<DreamEpisode> group : byVector) {
                float[] first = group.get(0).vector();
                if (first.length == e.vector().length && Vectors.cosine(first, e.vector()) >= threshold) {
                    home = group;
                    break;
                }
            }
            if (home == null) {
                home = new ArrayList<>();
                byVector.add(home);
            }
            home.add(e);
        }
        List<List<DreamEpisode>> groups = new ArrayList<>(byVector);
        groups.addAll(byKey.values());
        return groups;
    }

    private static String key(DreamEpisode e) {
        return e.category() + "\u0000" + String.join("\u0000", new TreeSet<>(e.relatedTools()));
    }
}

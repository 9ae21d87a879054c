package org.agentmemory.brain.control;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.agentmemory.platform.text.TitleCase;

/**
 * Distills a group of episodes without a model (spec §12.2 step 4): one {@code - {lesson}} line per distinct lesson
 * (category {@code lesson}), or, when no member has one, one {@code - {situation}: {action}} line per member (category
 * {@code note}); confidence 0.5. The title is {@code "{Dominant Category} pattern"}, as in the reference, followed by
 * the group's most frequent tool when it has one ({@code "Tool Execution pattern: kubectl"}): the reference's titles
 * collided by design (spec §13 #9), so every tool's lessons ended on one page; statements are merged either way.
 */
public final class HeuristicDistiller {

    private HeuristicDistiller() {}

    /**
     * @param group episodes of one group, oldest first; not empty
     * @return the knowledge, after the confidence rule
     */
    public static Distilled distill(List<DreamEpisode> group) {
        boolean lessons = group.stream().anyMatch(DreamEpisode::hasLesson);
        StringBuilder body = new StringBuilder();
        for (String line : support(group).keySet()) {
            if (!body.isEmpty()) {
                body.append('\n');
            }
            body.append("- ").append(line);
        }
        String title = TitleCase.of(dominant(group, true)) + " pattern";
        String tool = dominant(group, false);
        if (!tool.isEmpty()) {
            title = title + ": " + tool;
        }
        return Distilled.of(title, body.toString(), lessons ? "lesson" : "note", 0.5);
    }

    /**
     * Which episodes support each line of {@link #distill}'s body: a line's evidence is the episodes it came from, not
     * the whole group.
     *
     * @param group episodes of one group, oldest first
     * @return line (without its bullet) → evidence references ({@link DreamEpisode#evidence()}), in body order
     */
    public static Map<String, Set<String>> support(List<DreamEpisode> group) {
        Map<String, Set<String>> lines = new LinkedHashMap<>();
        boolean lessons = group.stream().anyMatch(DreamEpisode::hasLesson);
        for (DreamEpisode e : group) {
            String line = lessons
                    ? (e.hasLesson() ? e.lesson().strip() : null)
                    : (nonNull(e.situation()).strip() + ": "
                            + nonNull(e.actionTaken()).strip());
            if (line != null) {
                lines.computeIfAbsent(line, k -> new TreeSet<>()).addAll(e.evidence());
            }
        }
        return lines;
    }

    /** @return the most frequent category (or tool), the first seen on a tie; "" when none */
    private static String dominant(List<DreamEpisode> group, boolean category) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (DreamEpisode e : group) {
            if (category) {
                counts.merge(e.category() == null ? "episode" : e.category(), 1, Integer::sum);
            } else {
                for (String t : e.relatedTools()) {
                    counts.merge(t, 1, Integer::sum);
                }
            }
        }
        String best = "";
        int most = 0;
        for (Map.Entry<String, Integer> c : counts.entrySet()) {
            if (c.getValue() > most) {
                best = c.getKey();
                most = c.getValue();
            }
        }
        return best;
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }
}

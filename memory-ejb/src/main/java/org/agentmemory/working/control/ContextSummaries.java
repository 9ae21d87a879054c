package org.agentmemory.working.control;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.agentmemory.api.working.ContextFrame;
import org.agentmemory.api.working.MemoryTier;
import org.agentmemory.api.working.WorkingItem;
import org.agentmemory.api.working.WorkingSummary;
import org.agentmemory.platform.json.CanonicalJson;

/**
 * A session's context summary (seed 003 {@code get_context_summary}): the top {@value #FRAMES} frames of the context
 * stack, the {@value #RECENT} most recent short-term items and the {@value #IMPORTANT} most important long-term items of
 * importance at least {@value #IMPORTANCE}, rendered as sections whose lines are cut to {@value #LINE} code points.
 *
 * <p>Fixes of the seed: it picks "important" items among 20 long-term items of an unordered search, by an importance it
 * reads from metadata (where only items that passed through short-term memory have it, so an item saved straight to
 * long-term with importance 0.9 counts as 0.5 and never shows); here every long-term item is a candidate, by its own
 * importance, most important first (then newest). Its text also starts with a blank line when the stack is empty;
 * here sections are separated by one blank line and nothing precedes the first.
 */
public final class ContextSummaries {

    /** Frames of the stack shown, from the top (seed 003: {@code context_stack[-3:]}). */
    public static final int FRAMES = 3;

    /** Recent short-term items shown (seed 003: {@code get_recent(5)}). */
    public static final int RECENT = 5;

    /** Important long-term items shown (seed 003: {@code [:3]}). */
    public static final int IMPORTANT = 3;

    /** Least importance of an important item (seed 003: 0.8). */
    public static final double IMPORTANCE = 0.8;

    /** Longest line content, code points (seed 003: {@code [:100]}). */
    public static final int LINE = 100;

    /** The text when every section is empty (seed 003). */
    public static final String EMPTY = "No context available.";

    private ContextSummaries() {}

    /**
     * @param stack     the context stack, bottom first
     * @param recent    short-term items, newest first (more may be given; items of the other tier are skipped)
     * @param important long-term candidates in any order (items of the other tier or below {@value #IMPORTANCE} are
     *                  skipped)
     * @return the summary
     */
    public static WorkingSummary compose(
            List<ContextFrame> stack, List<WorkingItem> recent, List<WorkingItem> important) {
        List<ContextFrame> frames = List.copyOf(stack.subList(Math.max(0, stack.size() - FRAMES), stack.size()));
        List<WorkingItem> latest = recent.stream()
                .filter(i -> i.tier() == MemoryTier.SHORT_TERM)
                .limit(RECENT)
                .toList();
        List<WorkingItem> top = important.stream()
                .filter(i -> i.tier() == MemoryTier.LONG_TERM && i.importance() >= IMPORTANCE)
                .sorted(Comparator.comparingDouble(WorkingItem::importance)
                        .reversed()
                        .thenComparing(
                                Comparator.comparing(WorkingItem::createdAt).reversed())
                        .thenComparing(
                                Comparator.comparingLong(WorkingItem::itemId).reversed()))
                .limit(IMPORTANT)
                .toList();
        return new WorkingSummary(frames, latest, top, render(frames, latest, top));
    }

    /**
     * @param frames    the frames shown, bottom first
     * @param recent    the recent items shown
     * @param important the important items shown
     * @return the sections, or {@value #EMPTY}
     */
    static String render(List<ContextFrame> frames, List<WorkingItem> recent, List<WorkingItem> important) {
        List<String> sections = new ArrayList<>(3);
        if (!frames.isEmpty()) {
            StringBuilder s = new StringBuilder("Current context:");
            for (ContextFrame frame : frames) {
                String data = CanonicalJson.write(frame.data() == null ? java.util.Map.of() : frame.data());
                s.append("\n  - ").append(frame.type()).append(": ").append(cut(data));
            }
            sections.add(s.toString());
        }
        if (!recent.isEmpty()) {
            sections.add(items("Recent activity:", recent));
        }
        if (!important.isEmpty()) {
            sections.add(items("Important memories:", important));
        }
        return sections.isEmpty() ? EMPTY : String.join("\n\n", sections);
    }

    private static String items(String title, List<WorkingItem> items) {
        StringBuilder s = new StringBuilder(title);
        for (WorkingItem item : items) {
            s.append("\n  - ").append(cut(item.content()));
        }
        return s.toString();
    }

    /** @return the first {@value #LINE} code points of {@code text} */
    static String cut(String text) {
        if (text.codePointCount(0, text.length()) <= LINE) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, LINE));
    }
}

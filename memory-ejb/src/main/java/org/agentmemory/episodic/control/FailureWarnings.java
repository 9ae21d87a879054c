package org.agentmemory.episodic.control;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.agentmemory.api.episodic.Episode;
import org.agentmemory.platform.text.CodePoints;

/**
 * The pre-ask texts of episodic memory: failure warnings (spec §10.3 {@code get_failure_warnings}), the
 * user-preferences and room-context blocks (spec §10.9), the cross-domain appendix (spec §9.3) and their
 * joining. Pure formatting: the caller fetches the episodes (and decides how they are scoped: the
 * reference's "recent failures" were scoped by agent and tenant only, which leaks other users' failures,
 * spec §13 #6; pass user-scoped lists to avoid that).
 *
 * <p>Lines end with LF; no text ends with a line break.
 */
public final class FailureWarnings {

    /** Heading of the mistakes section. */
    public static final String MISTAKES_HEADING = "MISTAKES TO AVOID:";
    /** Heading of the suggestions section. */
    public static final String SUGGESTIONS_HEADING = "SUGGESTED APPROACHES:";
    /** Heading of the user-preferences block. */
    public static final String PREFERENCES_HEADING = "USER PREFERENCES:";
    /** Heading of the room-context block. */
    public static final String ROOM_HEADING = "ROOM CONTEXT (recent activity):";
    /** Lines at most in the preferences and room blocks (spec §10.9). */
    public static final int MAX_BLOCK_LINES = 5;

    /** Importance, then creation time, highest first (spec §10.3 step 3). */
    private static final Comparator<Episode> MOST_IMPORTANT_FIRST = Comparator.comparingInt(Episode::importance)
            .thenComparing(Episode::createdAt)
            .reversed();

    private FailureWarnings() {}

    /**
     * The failure warnings (spec §10.3 {@code get_failure_warnings}, steps 3–6):
     * <ol>
     * <li>merge {@code semantic} then {@code recent}, keeping the first episode of each id;</li>
     * <li>sort by (importance, createdAt) descending (stable) and keep the first {@code maxWarnings};</li>
     * <li>a mistake line per episode with a lesson or an error message:
     * {@code - {situation[:100]}{ (tool: a, b)} — {lessonLearned, else errorMessage[:100]}}; the tool part
     * only when there are related tools; the lesson is not cut;</li>
     * <li>a suggestion line {@code - {suggestedAction}} per episode with a non-empty suggested action;</li>
     * <li>{@value #MISTAKES_HEADING} LF its lines, then LF {@value #SUGGESTIONS_HEADING} LF its lines; an
     * empty section is left out.</li>
     * </ol>
     *
     * @param semantic    failures similar to the current query (may be empty)
     * @param recent      the most recent failures (may be empty)
     * @param maxWarnings how many episodes at most (the reference's default is 5; the unified layer uses 3)
     * @return the text, or {@code ""} when there is nothing to warn about
     */
    public static String format(List<Episode> semantic, List<Episode> recent, int maxWarnings) {
        Map<String, Episode> merged = new LinkedHashMap<>();
        for (List<Episode> source : List.of(semantic, recent)) {
            for (Episode episode : source) {
                merged.putIfAbsent(episode.episodeId(), episode);
            }
        }
        List<Episode> chosen = new ArrayList<>(merged.values());
        chosen.sort(MOST_IMPORTANT_FIRST);
        chosen = chosen.subList(0, Math.min(Math.max(maxWarnings, 0), chosen.size()));

        List<String> mistakes = new ArrayList<>();
        List<String> suggestions = new ArrayList<>();
        for (Episode episode : chosen) {
            String lesson = nonEmpty(episode.lessonLearned())
                    ? episode.lessonLearned()
                    : nonEmpty(episode.errorMessage()) ? CodePoints.head(episode.errorMessage(), 100) : null;
            if (lesson != null) {
                String tools = episode.relatedTools().isEmpty()
                        ? ""
                        : " (tool: " + String.join(", ", episode.relatedTools()) + ")";
                mistakes.add("- " + CodePoints.head(episode.situation(), 100) + tools + " \u2014 " + lesson);
            }
            if (nonEmpty(episode.suggestedAction())) {
                suggestions.add("- " + episode.suggestedAction());
            }
        }
        StringJoiner text = new StringJoiner("\n");
        if (!mistakes.isEmpty()) {
            text.add(MISTAKES_HEADING).add(String.join("\n", mistakes));
        }
        if (!suggestions.isEmpty()) {
            text.add(SUGGESTIONS_HEADING).add(String.join("\n", suggestions));
        }
        return text.toString();
    }

    /**
     * The user-preferences block (spec §10.9): {@value #PREFERENCES_HEADING} then, for the first
     * {@value #MAX_BLOCK_LINES} episodes, {@code - {lessonLearned}} or, without a lesson,
     * {@code - {situation[:100]}}.
     *
     * @param preferences the user's preference episodes, newest first
     * @return the block, or {@code ""} when there are none
     */
    public static String userPreferences(List<Episode> preferences) {
        if (preferences.isEmpty()) {
            return "";
        }
        StringJoiner text = new StringJoiner("\n").add(PREFERENCES_HEADING);
        for (Episode episode : preferences.subList(0, Math.min(MAX_BLOCK_LINES, preferences.size()))) {
            text.add("- "
                    + (nonEmpty(episode.lessonLearned())
                            ? episode.lessonLearned()
                            : CodePoints.head(episode.situation(), 100)));
        }
        return text.toString();
    }

    /**
     * The room-context block (spec §10.9): {@value #ROOM_HEADING} then, for the first
     * {@value #MAX_BLOCK_LINES} episodes, {@code - [OK] {situation[:80]}} or {@code - [FAIL] {situation[:80]}}
     * (FAIL when the episode is a failure).
     *
     * @param recent the room's recent episodes, newest first
     * @return the block, or {@code ""} when there are none
     */
    public static String roomContext(List<Episode> recent) {
        if (recent.isEmpty()) {
            return "";
        }
        StringJoiner text = new StringJoiner("\n").add(ROOM_HEADING);
        for (Episode episode : recent.subList(0, Math.min(MAX_BLOCK_LINES, recent.size()))) {
            text.add("- [" + (episode.isFailure() ? "FAIL" : "OK") + "] " + CodePoints.head(episode.situation(), 80));
        }
        return text.toString();
    }

    /**
     * Appends other agents' warnings (spec §9.3): each as {@code [cross-domain: {agentId}]} LF its warnings,
     * joined to the local text and to each other with a blank line; empty warnings are skipped.
     *
     * @param local        the local warnings, possibly {@code ""}
     * @param otherAgents  agent id → that agent's warnings, in the order to show
     * @return the combined text
     */
    public static String withCrossDomain(String local, Map<String, String> otherAgents) {
        List<String> parts = new ArrayList<>();
        if (nonEmpty(local)) {
            parts.add(local);
        }
        otherAgents.forEach((agent, warnings) -> {
            if (nonEmpty(warnings)) {
                parts.add("[cross-domain: " + agent + "]\n" + warnings);
            }
        });
        return String.join("\n\n", parts);
    }

    /**
     * The pre-ask context (spec §10.9): the non-empty blocks joined by a blank line, in the given order
     * (warnings, user preferences, room context).
     *
     * @param blocks the blocks
     * @return the joined text, or {@code ""}
     */
    public static String preAskContext(String... blocks) {
        StringJoiner text = new StringJoiner("\n\n");
        for (String block : blocks) {
            if (nonEmpty(block)) {
                text.add(block);
            }
        }
        return text.toString();
    }

    private static boolean nonEmpty(String text) {
        return text != null && !text.isEmpty();
    }
}

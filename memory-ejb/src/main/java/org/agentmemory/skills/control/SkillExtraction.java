package org.agentmemory.skills.control;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import org.agentmemory.api.skills.SkillInput;
import org.agentmemory.platform.text.CodePoints;
import org.agentmemory.platform.text.TitleCase;

/**
 * Extracts skills from an agent's successful episodes without a model (spec §9.4 {@code skill_auto_extract}; issue 35
 * item 2). Deterministic: the same episodes, in any order, give the same skills.
 *
 * <ol>
 *   <li>Cluster the episodes by (category, sorted distinct tools).</li>
 *   <li>Keep the clusters of at least {@code minEpisodes} episodes of which at least one carries a lesson (a skill
 *       without a lesson would say nothing but the tool's name).</li>
 *   <li>Per cluster: the name {@code "{Category Title}"}, with {@code " with {tool, tool}"} when it has tools — the
 *       stable key the skill is upserted by, so a re-run updates the skill instead of adding one; the instructions,
 *       one {@code - {lesson}} line per distinct lesson (most episodes first, then oldest first), at most
 *       {@value #MAX_LESSONS}, each cut to {@value #MAX_LESSON} code points; a description naming the category and
 *       tools; the tools; the evidence, {@code episode:<id>} of the newest {@value #MAX_EVIDENCE} members and of every
 *       member whose lesson the skill quotes (so that erasing any of them finds the skill), sorted.</li>
 * </ol>
 *
 * <p>Only lessons enter a skill: an episode's situation and action may quote a user's request or a tool's arguments
 * (personal data), its lesson is the reflection meant to be reused. No user id is read or kept.
 */
public final class SkillExtraction {

    /** Most lessons in an extracted skill's instructions. */
    public static final int MAX_LESSONS = 10;

    /** Longest lesson line, code points. */
    public static final int MAX_LESSON = 500;

    /** Most evidence references of an extracted skill. */
    public static final int MAX_EVIDENCE = 100;

    private SkillExtraction() {}

    /**
     * A successful episode as extraction reads it.
     *
     * @param episodeId the episode
     * @param createdAt when it was recorded
     * @param category  its category value, e.g. {@code tool_execution}
     * @param tools     its tool names; never {@code null}
     * @param lesson    its lesson when it carries one worth keeping (not the heuristic's generic success lesson),
     *                  else {@code null}
     */
    public record SuccessEpisode(
            String episodeId, Instant createdAt, String category, List<String> tools, String lesson) {

        public SuccessEpisode {
            Objects.requireNonNull(episodeId, "episodeId");
            Objects.requireNonNull(createdAt, "createdAt");
            category = category == null ? "tool_execution" : category;
            tools = tools == null ? List.of() : List.copyOf(tools);
        }
    }

    /**
     * A skill extracted from one cluster.
     *
     * @param name         the stable name (the upsert key)
     * @param description  what it is for
     * @param instructions the lesson lines
     * @param category     the cluster's category
     * @param tools        the cluster's tools, sorted
     * @param lessons      the distinct lessons, in instruction order
     * @param evidence     {@code episode:<id>} references, sorted
     * @param episodes     how many episodes the cluster has
     */
    public record Extracted(
            String name,
            String description,
            String instructions,
            String category,
            List<String> tools,
            List<String> lessons,
            List<String> evidence,
            int episodes) {

        /**
         * @param newDescription a model's description
         * @param newInstructions a model's instructions
         * @return this skill with them
         */
        public Extracted with(String newDescription, String newInstructions) {
            return new Extracted(name, newDescription, newInstructions, category, tools, lessons, evidence, episodes);
        }
    }

    /**
     * @param episodes    successful episodes, any order
     * @param minEpisodes the least cluster size that makes a skill (≥ 1)
     * @return the skills, by name
     */
    public static List<Extracted> extract(List<SuccessEpisode> episodes, int minEpisodes) {
        List<SuccessEpisode> ordered = new ArrayList<>(episodes);
        ordered.sort(Comparator.comparing(SuccessEpisode::createdAt).thenComparing(SuccessEpisode::episodeId));
        Map<String, List<SuccessEpisode>> clusters = new TreeMap<>();
        for (SuccessEpisode e : ordered) {
            clusters.computeIfAbsent(name(e.category(), tools(e)), k -> new ArrayList<>())
                    .add(e);
        }
        List<Extracted> skills = new ArrayList<>();
        for (Map.Entry<String, List<SuccessEpisode>> cluster : clusters.entrySet()) {
            List<SuccessEpisode> members = cluster.getValue();
            List<String> lessons = lessons(members);
            if (members.size() < minEpisodes || lessons.isEmpty()) {
                continue;
            }
            String category = members.get(0).category();
            TreeSet<String> union = new TreeSet<>();
            members.forEach(e -> union.addAll(e.tools())); // one tool set unless a long name was cut
            List<String> tools = List.copyOf(union);
            TreeSet<String> evidence = new TreeSet<>();
            for (int i = members.size() - 1; i >= 0 && evidence.size() < MAX_EVIDENCE; i--) {
                evidence.add("episode:" + members.get(i).episodeId());
            }
            // every episode whose lesson the skill quotes is cited, however old, so that erasing it finds the skill
            for (SuccessEpisode e : members) {
                if (e.lesson() != null
                        && lessons.contains(SkillTexts.cut(e.lesson().strip(), MAX_LESSON))) {
                    evidence.add("episode:" + e.episodeId());
                }
            }
            skills.add(new Extracted(
                    cluster.getKey(),
                    description(category, tools),
                    instructions(lessons),
                    category,
                    tools,
                    lessons,
                    List.copyOf(evidence),
                    members.size()));
        }
        return skills;
    }

    /** @return {@code - {lesson}} lines */
    public static String instructions(List<String> lessons) {
        StringBuilder text = new StringBuilder();
        for (String lesson : lessons) {
            if (!text.isEmpty()) {
                text.append('\n');
            }
            text.append("- ").append(lesson);
        }
        return text.toString();
    }

    /** @return the distinct lessons, most episodes first, then oldest first; cut and capped */
    private static List<String> lessons(List<SuccessEpisode> members) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (SuccessEpisode e : members) {
            if (e.lesson() != null && !CodePoints.isBlank(e.lesson())) {
                counts.merge(SkillTexts.cut(e.lesson().strip(), MAX_LESSON), 1, Integer::sum);
            }
        }
        List<Map.Entry<String, Integer>> ranked = new ArrayList<>(counts.entrySet());
        ranked.sort(Map.Entry.<String, Integer>comparingByValue().reversed()); // stable: first seen first on a tie
        List<String> lessons = new ArrayList<>();
        for (int i = 0; i < Math.min(MAX_LESSONS, ranked.size()); i++) {
            lessons.add(ranked.get(i).getKey());
        }
        return lessons;
    }

    private static List<String> tools(SuccessEpisode e) {
        return List.copyOf(new TreeSet<>(e.tools()));
    }

    /**
     * @param category a category value, e.g. {@code tool_execution}
     * @param tools    sorted tool names
     * @return {@code "Tool Execution with helm, kubectl"}, or {@code "Tool Execution"} without tools; at most
     *         {@value SkillInput#MAX_NAME} code points
     */
    static String name(String category, List<String> tools) {
        String title = TitleCase.of(category);
        String name =
                (title.isEmpty() ? "Episode" : title) + (tools.isEmpty() ? "" : " with " + String.join(", ", tools));
        return SkillTexts.cut(name, SkillInput.MAX_NAME);
    }

    private static String description(String category, List<String> tools) {
        String words = category.replace('_', ' ').strip().toLowerCase(Locale.ROOT);
        return SkillTexts.cut(
                "What worked in " + words + (tools.isEmpty() ? "" : " with " + String.join(", ", tools))
                        + ", distilled from the agent's successful episodes.",
                SkillInput.MAX_DESCRIPTION);
    }
}

package org.agentmemory.brain.control;

import java.util.List;

/**
 * The prompt that asks a chat model to distill one group of episodes (spec §12.2 step 4): an "Episodes" block with
 * one entry per episode ({@code - Situation: …} / {@code   Action: …} / {@code   Lesson: … or N/A}) and the JSON
 * contract ({@code title} at most 80 characters, {@code body} markdown, {@code category} one of lesson, decision,
 * concept, note, {@code confidence} 0.0–1.0), answered with the JSON object only. Each field of an episode is cut to
 * {@value #MAX_FIELD} code points, so one long episode cannot crowd the others out of the model's context.
 */
public final class DistillPrompt {

    /** The system message. */
    public static final String SYSTEM =
            "You consolidate an AI agent's experiences into durable knowledge. Respond ONLY with a JSON object.";

    /** Longest field of an episode in the prompt, code points. */
    public static final int MAX_FIELD = 1000;

    private DistillPrompt() {}

    /**
     * @param group the group's episodes, oldest first
     * @return the user message
     */
    public static String build(List<DreamEpisode> group) {
        StringBuilder p = new StringBuilder(256 + 200 * group.size());
        p.append("Analyze these related agent episodes and distill ONE piece of durable knowledge.\n\nEpisodes:\n");
        for (DreamEpisode e : group) {
            p.append("- Situation: ").append(field(e.situation())).append('\n');
            p.append("  Action: ").append(field(e.actionTaken())).append('\n');
            p.append("  Lesson: ")
                    .append(e.hasLesson() ? field(e.lesson()) : "N/A")
                    .append('\n');
        }
        p.append("\nRespond with a JSON object with exactly these fields:\n")
                .append("- \"title\": a short title, at most 80 characters\n")
                .append("- \"body\": markdown, one statement per line: what to remember and why\n")
                .append("- \"category\": one of \"lesson\", \"decision\", \"concept\", \"note\"\n")
                .append("- \"confidence\": a number from 0.0 to 1.0\n\n")
                .append("Respond ONLY with the JSON object.");
        return p.toString();
    }

    private static String field(String text) {
        String t = text == null ? "" : text.strip().replaceAll("\\s+", " ");
        return PageIds.cut(t, MAX_FIELD);
    }
}

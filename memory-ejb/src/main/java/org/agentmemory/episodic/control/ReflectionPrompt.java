package org.agentmemory.episodic.control;

import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.EpisodeOutcome;

/**
 * The reflection prompt (spec §10.4 "Prompt contract"). The spec fixes the outline and the quoted
 * sentences; the remaining wording is ours. The exact text, with LF line ends ({@code {…}} are the
 * values, the Error line only when there is a non-empty error message):
 *
 * <pre>
 * Analyze this agent interaction episode and extract a concise lesson.
 *
 * ## Episode
 * - **Situation**: {situation}
 * - **Action taken**: {actionTaken}
 * - **Outcome**: {outcome value, e.g. failure}
 * - **Error**: {errorMessage}
 *
 * Respond with a JSON object containing exactly these three fields:
 * - "reflection": 1-2 sentences on what happened and why
 * - "lesson_learned": a reusable lesson (max 100 characters)
 * - "suggested_action": 1 sentence on what to do next time in a similar situation
 *
 * Respond ONLY with the JSON object, no markdown or extra text.
 * </pre>
 */
public final class ReflectionPrompt {

    /**
     * The system message sent with the prompt over a chat-completions endpoint ({@code platform.llm.ChatCompletionsJson}).
     */
    public static final String SYSTEM = "You reflect on an AI agent's past actions and extract short, reusable "
            + "lessons. You always answer with a single JSON object.";

    private ReflectionPrompt() {}

    /**
     * @param input the episode
     * @return the prompt for that episode
     */
    public static String build(EpisodeInput input) {
        return build(input.situation(), input.actionTaken(), input.outcome(), input.errorMessage());
    }

    /**
     * @param situation    the situation
     * @param actionTaken  the action
     * @param outcome      the outcome
     * @param errorMessage the error message, or {@code null}/empty for none
     * @return the prompt
     */
    public static String build(String situation, String actionTaken, EpisodeOutcome outcome, String errorMessage) {
        StringBuilder prompt = new StringBuilder(512 + situation.length() + actionTaken.length())
                .append("Analyze this agent interaction episode and extract a concise lesson.\n")
                .append('\n')
                .append("## Episode\n")
                .append("- **Situation**: ")
                .append(situation)
                .append('\n')
                .append("- **Action taken**: ")
                .append(actionTaken)
                .append('\n')
                .append("- **Outcome**: ")
                .append(outcome.value())
                .append('\n');
        if (errorMessage != null && !errorMessage.isEmpty()) {
            prompt.append("- **Error**: ").append(errorMessage).append('\n');
        }
        return prompt.append('\n')
                .append("Respond with a JSON object containing exactly these three fields:\n")
                .append("- \"reflection\": 1-2 sentences on what happened and why\n")
                .append("- \"lesson_learned\": a reusable lesson (max 100 characters)\n")
                .append("- \"suggested_action\": 1 sentence on what to do next time in a similar situation\n")
                .append('\n')
                .append("Respond ONLY with the JSON object, no markdown or extra text.")
                .toString();
    }
}

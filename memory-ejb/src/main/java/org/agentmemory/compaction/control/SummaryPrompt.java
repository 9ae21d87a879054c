package org.agentmemory.compaction.control;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.platform.llm.JsonAnswers;
import org.agentmemory.platform.llm.UnreadableAnswerException;
import org.agentmemory.platform.text.CodePoints;
import org.agentmemory.platform.tokens.TokenCounter;

/**
 * The chat-model side of a Stage 2 summary (issue 35 item 4): the system prompt, the user prompt that hands the model
 * the current summary and only the newly dropped turns, the reading of its JSON answer, and the split of many dropped
 * turns into calls of bounded size (each call extends the summary the previous one wrote). Pure.
 */
public final class SummaryPrompt {

    /** The system message of every summary call. */
    public static final String SYSTEM = """
            You keep a running summary of the earlier part of a conversation between a user and an AI assistant. \
            Those turns no longer fit the assistant's context window; your summary replaces them there. Merge the new \
            turns into the current summary. Keep the user's goals and requests, facts, names, figures and dates, \
            decisions and their reasons, tool results (the tool and whether it worked) and open tasks; drop greetings \
            and small talk. Write short lines that start with "- ", oldest first, at most 250 words in all. Answer \
            with a JSON object only: {"summary": "<the updated summary>"}""";

    /** Longest user or assistant text of a turn in a prompt, code points; longer ones are cut with a count. */
    public static final int MAX_TEXT_CHARS = 2_000;

    /** Most tokens of the turns of one call; more dropped turns are summarised in several calls, in order. */
    public static final int MAX_TURN_TOKENS = 6_000;

    private SummaryPrompt() {}

    /**
     * @param previous the current summary, or {@code null} when there is none yet
     * @param turns    the newly dropped turns, oldest first
     * @return the user message
     */
    public static String build(String previous, List<TurnRecord> turns) {
        StringBuilder prompt = new StringBuilder("Current summary:\n");
        prompt.append(previous == null || previous.isBlank() ? "(none yet)" : previous.strip());
        prompt.append("\n\nNew turns, oldest first:\n");
        for (TurnRecord turn : turns) {
            prompt.append('\n').append(turnBlock(turn));
        }
        prompt.append("\nAnswer with {\"summary\": \"...\"}: the current summary with the new turns merged in.");
        return prompt.toString();
    }

    /**
     * @param turn a turn
     * @return its block in a prompt: {@code User:}, {@code Assistant:} and {@code Tools:} lines, texts cut to
     *         {@value #MAX_TEXT_CHARS} code points
     */
    static String turnBlock(TurnRecord turn) {
        StringBuilder block = new StringBuilder();
        if (turn.userMessage() != null && !turn.userMessage().isBlank()) {
            block.append("User: ")
                    .append(CodePoints.truncateWithCount(turn.userMessage().strip(), MAX_TEXT_CHARS))
                    .append('\n');
        }
        if (turn.assistantResponse() != null && !turn.assistantResponse().isBlank()) {
            block.append("Assistant: ")
                    .append(CodePoints.truncateWithCount(
                            turn.assistantResponse().strip(), MAX_TEXT_CHARS))
                    .append('\n');
        }
        String tools = ExtractiveSummarizer.toolOutcomes(turn.toolInvocations());
        if (!tools.isEmpty()) {
            block.append("Tools: ").append(tools).append('\n');
        }
        return block.toString();
    }

    /**
     * Splits dropped turns into the turns of successive calls: consecutive turns whose prompt blocks count at most
     * {@value #MAX_TURN_TOKENS} tokens together (a single larger turn is a call of its own).
     *
     * @param turns   the newly dropped turns, oldest first
     * @param counter the token counter
     * @return the calls' turns, in order; empty for no turns
     */
    public static List<List<TurnRecord>> calls(List<TurnRecord> turns, TokenCounter counter) {
        List<List<TurnRecord>> calls = new ArrayList<>();
        List<TurnRecord> current = new ArrayList<>();
        long tokens = 0;
        for (TurnRecord turn : turns) {
            int size = counter.count(turnBlock(turn));
            if (!current.isEmpty() && tokens + size > MAX_TURN_TOKENS) {
                calls.add(List.copyOf(current));
                current.clear();
                tokens = 0;
            }
            current.add(turn);
            tokens += size;
        }
        if (!current.isEmpty()) {
            calls.add(List.copyOf(current));
        }
        return calls;
    }

    /**
     * Reads the model's answer (a JSON object, alone, fenced or embedded: {@link JsonAnswers#object}).
     *
     * @param content the assistant's content
     * @return the {@code summary} member, stripped
     * @throws UnreadableAnswerException when the answer holds no JSON object or its {@code summary} is not a
     *                                   non-blank string
     */
    public static String parse(String content) {
        Map<String, Object> answer = JsonAnswers.object(content);
        if (!(answer.get("summary") instanceof String summary) || summary.isBlank()) {
            throw new UnreadableAnswerException("The summary model's answer has no non-blank \"summary\" string: "
                    + UnreadableAnswerException.excerpt(content));
        }
        return summary.strip();
    }
}

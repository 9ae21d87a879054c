package org.agentmemory.compaction.control;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.agentmemory.api.compaction.ContextBudget;
import org.agentmemory.api.compaction.HistoryMessage;
import org.agentmemory.api.compaction.TurnView;
import org.agentmemory.api.conversation.TurnRecord;

/**
 * Renders turns or compacted views as provider-neutral messages (spec §8.6). Pure; inputs are not mutated.
 *
 * <p>Guarantees: roles strictly alternate, the list starts with {@code user} and ends with
 * {@code assistant} (or is empty), and no message content is blank.
 *
 * <p>Rules, in order, per row (turn or view):
 * <ol>
 *   <li>A row whose assistant text is blank ({@code null}, empty or whitespace-only) and which has no tool
 *       activity contributes nothing. A blank reply with tool invocations (the model only called a tool) is
 *       rendered as its {@code <tool-activity>} block alone: the reference skips such turns and loses the tool
 *       results (issue 31 item 4).
 *   <li>A foreign row (current agent set, row agent set, different) is dropped when other agents are
 *       excluded; otherwise its assistant content starts with {@code [agent:{chatbot_id}] }, before the text
 *       and the suffix.
 *   <li>The row appends a user message (the user text), then an assistant message (text + suffix).
 *   <li>Merge rule: a message with the same role as the previous one is appended to it after a blank line
 *       ({@code \n\n}); the merged message keeps the FIRST message's chatbot id and turn id.
 * </ol>
 *
 * <p>Deviation, for the no-blank-content guarantee: the reference appends a user message even when the
 * user text is blank, which providers reject. Here a blank user text adds no user message, so the row's
 * assistant message merges into the previous assistant message; when the list is still empty the row is
 * skipped, since a list cannot start with an assistant message and there is no user text to open it.
 */
public final class HistoryRenderer {

    private static final String MERGE_SEPARATOR = "\n\n";

    private HistoryRenderer() {}

    /**
     * Renders compacted views (spec §8.6 "for views"): the assistant content is the text + the suffix.
     *
     * @param views              views oldest → newest; never {@code null}
     * @param currentChatbotId   the agent asking, or {@code null} (then no row is foreign)
     * @param includeOtherAgents whether foreign rows are kept (labelled) or dropped
     * @return the messages; never {@code null}
     */
    public static List<HistoryMessage> renderViews(
            List<TurnView> views, String currentChatbotId, boolean includeOtherAgents) {
        List<HistoryMessage> out = new ArrayList<>(views.size() * 2);
        for (TurnView view : views) {
            appendRow(
                    out,
                    view.userText(),
                    view.assistantText(),
                    view.assistantSuffix(),
                    view.chatbotId(),
                    view.turnId(),
                    currentChatbotId,
                    includeOtherAgents);
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * Renders stored turns without compaction (spec §8.6 "for a history"; the plain path of spec §5.3).
     *
     * @param turns              stored turns oldest → newest; never {@code null}
     * @param maxTurns           keep only the last N turns (before any filtering); {@code ≤ 0} renders
     *                           nothing; {@code null} keeps all
     * @param currentChatbotId   the agent asking, or {@code null}
     * @param includeOtherAgents whether foreign rows are kept (labelled) or dropped
     * @param limit              bounds of the tool-activity block of a turn whose reply is blank (such a turn
     *                           is shown by its tool activity alone); never {@code null}
     * @return the messages; never {@code null}
     */
    public static List<HistoryMessage> renderTurns(
            List<TurnRecord> turns,
            Integer maxTurns,
            String currentChatbotId,
            boolean includeOtherAgents,
            ContextBudget.ActivityLimit limit) {
        if (maxTurns != null && maxTurns <= 0) {
            return List.of();
        }
        List<TurnRecord> window = maxTurns == null || maxTurns >= turns.size()
                ? turns
                : turns.subList(turns.size() - maxTurns, turns.size());
        List<HistoryMessage> out = new ArrayList<>(window.size() * 2);
        for (TurnRecord turn : window) {
            appendRow(
                    out,
                    turn.userMessage(),
                    turn.assistantResponse(),
                    Texts.isBlank(turn.assistantResponse()) ? ToolActivitySuffix.plain(turn, limit) : "",
                    turn.chatbotId(),
                    turn.turnId(),
                    currentChatbotId,
                    includeOtherAgents);
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * @param assistantText a turn's assistant response
     * @return whether it is blank as the renderer and the walk see it ({@code null}, empty, or only whitespace as
     *         Python's {@code str.isspace} defines it): such a turn renders nothing and is never a candidate
     */
    public static boolean isBlank(String assistantText) {
        return Texts.isBlank(assistantText);
    }

    /**
     * @param turn a stored turn
     * @return whether the turn renders a message and so is a compaction candidate: its reply is not blank, or
     *         it carries tool invocations (a tool-only turn)
     */
    public static boolean rendersSomething(TurnRecord turn) {
        return !Texts.isBlank(turn.assistantResponse())
                || !turn.toolInvocations().isEmpty();
    }

    /** @return the assistant content prefix of a foreign row: {@code "[agent:" + chatbotId + "] "} */
    public static String foreignLabel(String chatbotId) {
        return "[agent:" + chatbotId + "] ";
    }

    private static void appendRow(
            List<HistoryMessage> out,
            String userText,
            String assistantText,
            String suffix,
            String chatbotId,
            String turnId,
            String currentChatbotId,
            boolean includeOtherAgents) {
        boolean replyBlank = Texts.isBlank(assistantText);
        if (replyBlank && Texts.isBlank(suffix)) {
            return;
        }
        boolean foreign = currentChatbotId != null && chatbotId != null && !chatbotId.equals(currentChatbotId);
        if (foreign && !includeOtherAgents) {
            return;
        }
        boolean userBlank = Texts.isBlank(userText);
        if (userBlank && out.isEmpty()) {
            return;
        }
        if (!userBlank) {
            append(out, new HistoryMessage(HistoryMessage.USER, userText, chatbotId, turnId));
        }
        // A tool-only row shows its block without the blank reply and the separating blank line.
        String body = replyBlank ? suffix.strip() : assistantText + suffix;
        String assistant = (foreign ? foreignLabel(chatbotId) : "") + body;
        append(out, new HistoryMessage(HistoryMessage.ASSISTANT, assistant, chatbotId, turnId));
    }

    private static void append(List<HistoryMessage> out, HistoryMessage message) {
        int last = out.size() - 1;
        if (last >= 0 && out.get(last).role().equals(message.role())) {
            HistoryMessage previous = out.get(last);
            out.set(
                    last,
                    new HistoryMessage(
                            previous.role(),
                            previous.content() + MERGE_SEPARATOR + message.content(),
                            previous.chatbotId(),
                            previous.turnId()));
            return;
        }
        out.add(message);
    }
}

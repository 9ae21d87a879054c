package org.agentmemory.context.control;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.ToIntFunction;
import org.agentmemory.platform.text.CodePoints;

/**
 * Assembles the long-term context within a token budget (spec §9.2), counted with the service's tokenizer (issue 33
 * item 4: the reference's {@code len / 4} estimate overran budgets in real tokens). Pure and thread-safe.
 *
 * <p>Working budget {@code B = int(maxContextTokens × 0.9)}. Fill order and allocations, as the reference:
 * <ol>
 *   <li>episodic: {@code int(B × episodicWeight)};
 *   <li>skills: {@code int(B × skillWeight)} + what episodic left of its allocation;
 *   <li>brain: {@code int(B × brainWeight)} + what skills left;
 *   <li>conversation: {@code B −} the tokens used by the three above.
 * </ol>
 * A section over its allocation keeps its first whole lines that fit (warnings and knowledge come best first); when
 * not even its first line fits, that line is cut and ends with {@code ...}. The conversation keeps its newest whole
 * messages that fit and never cuts a message in half (the reference dropped lines, splitting multi-line messages).
 * Brain knowledge is filled whenever given; the caller passes {@code ""} when the brain is disabled.
 */
public final class ContextAssembler {

    /** Share of {@code maxContextTokens} actually filled: a 10 % buffer. */
    public static final double HEADROOM = 0.9;

    private static final String CUT = "...";

    private final MemoryConfig config;
    private final int budget;
    private final ToIntFunction<String> tokens;

    /**
     * @param config the configuration; never {@code null}
     * @param tokens counts the tokens of a text (the service's tokenizer)
     */
    public ContextAssembler(MemoryConfig config, ToIntFunction<String> tokens) {
        this.config = Objects.requireNonNull(config, "config");
        this.tokens = Objects.requireNonNull(tokens, "tokens");
        this.budget = (int) (config.maxContextTokens() * HEADROOM);
    }

    /** @param config the configuration, counted with the reference's estimate ({@link #estimate}) */
    public ContextAssembler(MemoryConfig config) {
        this(config, ContextAssembler::estimate);
    }

    /** @return the working budget B, tokens */
    public int workingBudget() {
        return budget;
    }

    /**
     * @param episodicWarnings  past failures text, {@code null} = {@code ""}
     * @param relevantSkills    skills text, {@code null} = {@code ""}
     * @param conversation      the recent conversation's messages, oldest first ({@code User: …}, {@code Assistant: …}),
     *                          {@code null} = none
     * @param semanticKnowledge brain knowledge text, {@code null} = {@code ""}
     * @return the filled sections with {@code tokensUsed} and {@code tokensBudget = maxContextTokens}; all
     *         sections empty (and 0 used) when every input is empty
     */
    public MemoryContext assemble(
            String episodicWarnings, String relevantSkills, List<String> conversation, String semanticKnowledge) {
        String episodicText = Objects.requireNonNullElse(episodicWarnings, "");
        String skillsText = Objects.requireNonNullElse(relevantSkills, "");
        List<String> messages = conversation == null ? List.of() : conversation;
        String brainText = Objects.requireNonNullElse(semanticKnowledge, "");
        if (episodicText.isEmpty() && skillsText.isEmpty() && messages.isEmpty() && brainText.isEmpty()) {
            return new MemoryContext("", "", "", "", 0, config.maxContextTokens());
        }
        int episodicBudget = (int) (budget * config.episodicWeight());
        String episodic = fill(episodicText, episodicBudget);
        int episodicTokens = count(episodic);

        int skillsBudget = (int) (budget * config.skillWeight()) + episodicBudget - episodicTokens;
        String skills = fill(skillsText, skillsBudget);
        int skillsTokens = count(skills);

        int brainBudget = (int) (budget * config.brainWeight()) + skillsBudget - skillsTokens;
        String brain = fill(brainText, brainBudget);
        int brainTokens = count(brain);

        String recent = fillConversation(messages, budget - episodicTokens - skillsTokens - brainTokens);
        int conversationTokens = count(recent);
        return new MemoryContext(
                episodic,
                skills,
                recent,
                brain,
                episodicTokens + skillsTokens + brainTokens + conversationTokens,
                config.maxContextTokens());
    }

    /**
     * The same with the conversation as text: each line one message.
     *
     * @see #assemble(String, String, List, String)
     */
    public MemoryContext assemble(
            String episodicWarnings, String relevantSkills, String conversation, String semanticKnowledge) {
        List<String> messages = conversation == null || conversation.isEmpty()
                ? List.of()
                : Arrays.asList(conversation.split("\n", -1));
        return assemble(episodicWarnings, relevantSkills, messages, semanticKnowledge);
    }

    /** @return {@code len(text) / 4} in code points: the reference's estimate (spec §9.2) */
    public static int estimate(String text) {
        return CodePoints.length(text) / 4;
    }

    private int count(String text) {
        return text.isEmpty() ? 0 : tokens.applyAsInt(text);
    }

    /** @return the text, its first whole lines that fit, or its first line cut to fit with {@code ...} */
    String fill(String text, int allocation) {
        if (text.isEmpty() || allocation <= 0) {
            return "";
        }
        if (count(text) <= allocation) {
            return text;
        }
        String[] lines = text.split("\n", -1);
        int kept = 0;
        while (kept < lines.length
                && count(String.join("\n", Arrays.asList(lines).subList(0, kept + 1))) <= allocation) {
            kept++;
        }
        if (kept > 0) {
            return String.join("\n", Arrays.asList(lines).subList(0, kept));
        }
        return cut(lines[0], allocation);
    }

    /** @return the longest head of the line that fits with {@code ...} appended, or "" when nothing does */
    private String cut(String line, int allocation) {
        int low = 0;
        int high = CodePoints.length(line);
        while (low < high) {
            int middle = (low + high + 1) >>> 1;
            if (count(CodePoints.head(line, middle) + CUT) <= allocation) {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        String cut = CodePoints.head(line, low) + CUT;
        return count(cut) <= allocation && low > 0 ? cut : "";
    }

    /** @return the newest whole messages that fit, oldest first, joined by LF */
    private String fillConversation(List<String> messages, int allocation) {
        if (messages.isEmpty() || allocation <= 0) {
            return "";
        }
        int first = messages.size();
        int used = 0;
        while (first > 0) {
            int cost = count(messages.get(first - 1)) + (first == messages.size() ? 0 : 1);
            if (used + cost > allocation) {
                break;
            }
            used += cost;
            first--;
        }
        // The sum of the messages' counts approximates the joined text's; the joined text is what must fit.
        while (first < messages.size()
                && count(String.join("\n", messages.subList(first, messages.size()))) > allocation) {
            first++;
        }
        return String.join("\n", messages.subList(first, messages.size()));
    }
}

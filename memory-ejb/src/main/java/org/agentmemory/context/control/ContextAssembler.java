package org.agentmemory.context.control;

import java.util.Arrays;
import java.util.Objects;
import org.agentmemory.platform.text.CodePoints;

/**
 * Assembles the long-term context within a token budget (spec §9.2). Pure and thread-safe.
 *
 * <p>Working budget {@code B = int(maxContextTokens × 0.9)}; estimate {@code len(text) / 4} (code points,
 * integer division); a section over its allocation t is cut to its first {@code 4t − 3} code points +
 * {@code "..."}. Fill order and allocations:
 * <ol>
 *   <li>episodic: {@code int(B × episodicWeight)};
 *   <li>skills: {@code int(B × skillWeight)} + what episodic left of its allocation;
 *   <li>brain: {@code int(B × brainWeight)} + what skills left;
 *   <li>conversation: {@code B −} the tokens used by the three above; when over, whole lines are dropped
 *       from the top (oldest) until it fits.
 * </ol>
 * Brain knowledge is filled whenever given, as in the reference; the caller passes {@code ""} when the
 * brain is disabled.
 */
public final class ContextAssembler {

    /** Share of {@code maxContextTokens} actually filled: a 10 % buffer. */
    public static final double HEADROOM = 0.9;

    private final MemoryConfig config;
    private final int budget;

    /** @param config the configuration; never {@code null} */
    public ContextAssembler(MemoryConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.budget = (int) (config.maxContextTokens() * HEADROOM);
    }

    /** @return the working budget B, estimated tokens */
    public int workingBudget() {
        return budget;
    }

    /**
     * @param episodicWarnings  past failures text, {@code null} = {@code ""}
     * @param relevantSkills    skills text, {@code null} = {@code ""}
     * @param conversation      recent conversation, lines oldest first, {@code null} = {@code ""}
     * @param semanticKnowledge brain knowledge text, {@code null} = {@code ""}
     * @return the filled sections with {@code tokensUsed} and {@code tokensBudget = maxContextTokens}; all
     *         sections empty (and 0 used) when every input is empty
     */
    public MemoryContext assemble(
            String episodicWarnings, String relevantSkills, String conversation, String semanticKnowledge) {
        String episodicText = Objects.requireNonNullElse(episodicWarnings, "");
        String skillsText = Objects.requireNonNullElse(relevantSkills, "");
        String conversationText = Objects.requireNonNullElse(conversation, "");
        String brainText = Objects.requireNonNullElse(semanticKnowledge, "");
        if (episodicText.isEmpty() && skillsText.isEmpty() && conversationText.isEmpty() && brainText.isEmpty()) {
            return new MemoryContext("", "", "", "", 0, config.maxContextTokens());
        }
        int episodicBudget = (int) (budget * config.episodicWeight());
        String episodic = fill(episodicText, episodicBudget);
        int episodicTokens = estimate(episodic);

        int skillsBudget = (int) (budget * config.skillWeight()) + episodicBudget - episodicTokens;
        String skills = fill(skillsText, skillsBudget);
        int skillsTokens = estimate(skills);

        int brainBudget = (int) (budget * config.brainWeight()) + skillsBudget - skillsTokens;
        String brain = fill(brainText, brainBudget);
        int brainTokens = estimate(brain);

        String recent = fillConversation(conversationText, budget - episodicTokens - skillsTokens - brainTokens);
        int conversationTokens = estimate(recent);
        return new MemoryContext(
                episodic,
                skills,
                recent,
                brain,
                episodicTokens + skillsTokens + brainTokens + conversationTokens,
                config.maxContextTokens());
    }

    /** @return {@code len(text) / 4} in code points (spec §9.2) */
    public static int estimate(String text) {
        return CodePoints.length(text) / 4;
    }

    /** @return the text, or its first {@code 4t − 3} code points + {@code "..."} when longer than 4t */
    static String truncate(String text, int tokens) {
        int maxChars = tokens * 4;
        if (CodePoints.length(text) <= maxChars) {
            return text;
        }
        return CodePoints.head(text, maxChars - 3) + "...";
    }

    private static String fill(String text, int allocation) {
        if (text.isEmpty() || allocation <= 0) {
            return "";
        }
        return truncate(text, allocation);
    }

    private static String fillConversation(String text, int allocation) {
        if (text.isEmpty() || allocation <= 0) {
            return "";
        }
        if (estimate(text) <= allocation) {
            return text;
        }
        String[] lines = text.split("\n", -1);
        long length = CodePoints.length(text);
        int first = 0;
        while (first < lines.length && length / 4 > allocation) {
            length -= CodePoints.length(lines[first]) + (first == lines.length - 1 ? 0 : 1);
            first++;
        }
        return String.join("\n", Arrays.asList(lines).subList(first, lines.length));
    }
}

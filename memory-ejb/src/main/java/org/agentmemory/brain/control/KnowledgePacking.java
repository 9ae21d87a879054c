package org.agentmemory.brain.control;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;

/**
 * Packs brain search results into a token budget as stub lines (spec §12.4):
 * {@code - [{id}] {title} — {lead} (score={s:.2f}, ~{tokens}tok)}. The title is left out when it equals the id; the
 * lead is the summary's first sentence, whitespace collapsed, at most 240 code points (then {@code …}); leads that
 * are only {@code ---}, {@code ...} or {@code -} are dropped; a repeated id is skipped. Lines are added while the
 * total stays within the budget, counted with the given token counter (the service's real tokenizer, not length / 4);
 * the first line is always included. Never throws: no result is {@code ""}.
 */
public final class KnowledgePacking {

    /** The default budget of the brain section, tokens (spec §12.4). */
    public static final int DEFAULT_MAX_TOKENS = 600;

    /** Longest lead, code points. */
    static final int MAX_LEAD = 240;

    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s");
    private static final Pattern SPACES = Pattern.compile("\\s+");
    private static final Set<String> EMPTY_LEADS = Set.of("---", "...", "-");

    private KnowledgePacking() {}

    /**
     * One search result.
     *
     * @param id         the page id
     * @param title      the title
     * @param summary    the summary (the lead's source)
     * @param score      the search score, higher is better
     * @param tokenCount the page's token estimate
     */
    public record Hit(String id, String title, String summary, double score, int tokenCount) {}

    /**
     * @param hits      results, best first
     * @param maxTokens the budget, tokens
     * @param tokens    counts the tokens of a text
     * @return the stub lines joined by LF, or {@code ""}
     */
    public static String pack(List<Hit> hits, int maxTokens, ToIntFunction<String> tokens) {
        StringBuilder out = new StringBuilder();
        Set<String> seen = new HashSet<>();
        int used = 0;
        for (Hit hit : hits == null ? List.<Hit>of() : hits) {
            if (hit == null || hit.id() == null || !seen.add(hit.id())) {
                continue;
            }
            String line = line(hit);
            int cost = tokens.applyAsInt(out.isEmpty() ? line : "\n" + line);
            if (!out.isEmpty() && used + cost > maxTokens) {
                break;
            }
            if (!out.isEmpty()) {
                out.append('\n');
            }
            out.append(line);
            used += cost;
        }
        return out.toString();
    }

    static String line(Hit hit) {
        StringBuilder line = new StringBuilder("- [").append(hit.id()).append(']');
        if (hit.title() != null && !hit.title().isBlank() && !hit.title().equals(hit.id())) {
            line.append(' ').append(hit.title().strip());
        }
        String lead = lead(hit.summary());
        if (!lead.isEmpty()) {
            line.append(" — ").append(lead);
        }
        line.append(String.format(Locale.ROOT, " (score=%.2f, ~%dtok)", hit.score(), hit.tokenCount()));
        return line.toString();
    }

    static String lead(String summary) {
        if (summary == null) {
            return "";
        }
        String first = SENTENCE_END.split(summary.strip(), 2)[0];
        String collapsed = SPACES.matcher(first).replaceAll(" ").strip();
        if (EMPTY_LEADS.contains(collapsed)) {
            return "";
        }
        if (collapsed.codePointCount(0, collapsed.length()) > MAX_LEAD) {
            return PageIds.cut(collapsed, MAX_LEAD - 1) + "…";
        }
        return collapsed;
    }
}

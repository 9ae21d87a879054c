package org.agentmemory.brain.control;

import java.text.Normalizer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The statements of a brain page: a body is split into statements (one per line or bullet), and new knowledge is
 * merged into a page's statements instead of replacing its body (spec §13 #9: the reference's upsert overwrote
 * earlier knowledge). Deterministic, no model:
 *
 * <ul>
 *   <li>Two statements say the same when their <em>keys</em> are equal: lower case, NFKC, punctuation and bullets
 *       removed, whitespace collapsed, negations removed; and they have the same polarity. The same statement again
 *       adds its evidence to the existing one.</li>
 *   <li>Equal keys with opposite polarity ("never deploy on Friday" after "deploy on Friday") contradict: the older
 *       statement is marked superseded, with the time and the newer evidence, and stays in the page's history.</li>
 *   <li>Anything else is a new statement.</li>
 * </ul>
 */
public final class Statements {

    private static final Pattern BULLET = Pattern.compile("^\\s*(?:[-*•]|\\d+[.)])\\s+");
    private static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{N}']+");
    private static final Set<String> NEGATIONS = Set.of(
            "not",
            "never",
            "no",
            "dont",
            "don't",
            "cannot",
            "can't",
            "cant",
            "won't",
            "wont",
            "shouldn't",
            "shouldnt",
            "mustn't",
            "mustnt",
            "doesn't",
            "doesnt",
            "isn't",
            "isnt",
            "avoid");

    private Statements() {}

    /** The outcome of a merge. */
    public record Merge(List<Statement> statements, int added, int reinforced, int superseded) {

        public Merge {
            statements = List.copyOf(statements);
        }

        /** @return whether the merge changed the page */
        public boolean changed() {
            return added + reinforced + superseded > 0;
        }
    }

    /**
     * @param body a page body: markdown lines, bullets or plain lines
     * @return its statements' texts in order, bullets removed, blank lines and duplicates (by key and polarity)
     *         dropped
     */
    public static List<String> split(String body) {
        Map<String, String> texts = new LinkedHashMap<>();
        if (body == null) {
            return List.of();
        }
        for (String line : body.split("\\R")) {
            String text = BULLET.matcher(line).replaceFirst("").strip();
            if (!text.isEmpty() && !key(text).isEmpty()) {
                texts.putIfAbsent(identity(text), text);
            }
        }
        return List.copyOf(texts.values());
    }

    /**
     * Merges new statements into a page's.
     *
     * @param existing the page's statements (current and superseded), oldest first
     * @param body     the new knowledge ({@link #split})
     * @param evidence what supports the new knowledge
     * @param now      the merge's time
     * @return the statements after the merge and what changed
     */
    public static Merge merge(List<Statement> existing, String body, Set<String> evidence, Instant now) {
        List<Statement> result = new ArrayList<>(existing);
        int added = 0;
        int reinforced = 0;
        int superseded = 0;
        for (String text : split(body)) {
            String key = key(text);
            boolean negative = negative(text);
            boolean found = false;
            for (int i = 0; i < result.size(); i++) {
                Statement s = result.get(i);
                if (!s.current() || !key(s.text()).equals(key)) {
                    continue;
                }
                if (negative(s.text()) == negative) {
                    if (!s.evidence().containsAll(evidence)) {
                        Set<String> more = new HashSet<>(s.evidence());
                        more.addAll(evidence);
                        result.set(i, new Statement(s.text(), more, s.assertedAt(), null, Set.of()));
                        reinforced++;
                    }
                    found = true;
                } else {
                    result.set(i, new Statement(s.text(), s.evidence(), s.assertedAt(), now, evidence));
                    superseded++;
                }
            }
            if (!found) {
                result.add(Statement.asserted(text, evidence, now));
                added++;
            }
        }
        return new Merge(result, added, reinforced, superseded);
    }

    /**
     * @param statements a page's statements
     * @param asOf       a time, or {@code null} for now
     * @return the statements the page showed at that time, in order
     */
    public static List<Statement> shown(List<Statement> statements, Instant asOf) {
        return statements.stream()
                .filter(s -> asOf == null ? s.current() : s.currentAt(asOf))
                .toList();
    }

    /** @return the statements as a markdown body, one {@code - } line each */
    public static String body(List<Statement> statements) {
        StringBuilder body = new StringBuilder();
        for (Statement s : statements) {
            if (!body.isEmpty()) {
                body.append('\n');
            }
            body.append("- ").append(s.text());
        }
        return body.toString();
    }

    /** @return what a statement is about: its words without negations, in lower case */
    static String key(String text) {
        StringBuilder key = new StringBuilder();
        for (String word : words(text)) {
            if (!NEGATIONS.contains(word)) {
                if (!key.isEmpty()) {
                    key.append(' ');
                }
                key.append(word);
            }
        }
        return key.toString();
    }

    /** @return whether the statement is negated (an odd number of negations) */
    static boolean negative(String text) {
        int negations = 0;
        for (String word : words(text)) {
            if (NEGATIONS.contains(word)) {
                negations++;
            }
        }
        return negations % 2 == 1;
    }

    private static String identity(String text) {
        return (negative(text) ? "-" : "+") + key(text);
    }

    private static List<String> words(String text) {
        String folded = Normalizer.normalize(text, Normalizer.Form.NFKC)
                .toLowerCase(Locale.ROOT)
                .replace('’', '\'');
        List<String> words = new ArrayList<>();
        for (String w : NOT_WORD.split(folded)) {
            String word = w.replaceAll("^'+|'+$", "");
            if (!word.isEmpty()) {
                words.add(word);
            }
        }
        return words;
    }
}

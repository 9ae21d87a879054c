package org.agentmemory.api.recall;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Bounds a full-text query to the terms a search can take. Agents pass whole messages, even documents, as queries;
 * a search engine turns every term of a query into a clause and refuses a query of more than about a thousand
 * (Lucene's and OpenSearch's {@code max_clause_count}), and a query's cost grows with its terms. A query of at most
 * {@value #MAX_TERMS} words is searched as given; a longer one is searched by its first {@value #MAX_TERMS} distinct
 * words (case-insensitive), in the order they first appear, and the answer says so (the REST layer sets the
 * {@value #HEADER} header).
 *
 * <p>Words are runs of letters, marks and digits, as the search engine's tokenizers cut them (at least as finely,
 * so the engine never sees more terms than words counted here). A word longer than {@value #MAX_TERM_LENGTH}
 * characters counts as one term per started {@value #MAX_TERM_LENGTH} characters, since the standard tokenizer
 * splits it there (a 5 MB run of one letter is 20,561 terms, not one); a kept word is cut to its first
 * {@value #MAX_TERM_LENGTH} characters.
 */
public final class QueryTerms {

    /** The most words a full-text query is searched with. */
    public static final int MAX_TERMS = 200;

    /** The longest term the standard tokenizer emits, in characters (Lucene's {@code maxTokenLength}). */
    public static final int MAX_TERM_LENGTH = 255;

    /**
     * The response header that says a query was shortened: {@code kept=<terms searched>; given=<words in the query>}.
     */
    public static final String HEADER = "Memory-Query-Shortened";

    private static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{M}\\p{N}]+");

    private QueryTerms() {}

    /**
     * A query as it is searched.
     *
     * @param text       the text searched: the query itself, or its kept terms joined by spaces
     * @param wordsGiven the words in the query
     * @param termsKept  the words searched ({@code wordsGiven} when nothing was left out)
     */
    public record Bounded(String text, int wordsGiven, int termsKept) {

        /** @return whether terms were left out */
        public boolean shortened() {
            return termsKept < wordsGiven;
        }

        /** @return the value of {@value QueryTerms#HEADER} */
        public String header() {
            return "kept=" + termsKept + "; given=" + wordsGiven;
        }
    }

    /**
     * @param query a query, or {@code null}
     * @return the query bounded to {@value #MAX_TERMS} terms; {@code null} stays {@code null}
     */
    public static Bounded bound(String query) {
        if (query == null) {
            return new Bounded(null, 0, 0);
        }
        String[] words = NOT_WORD.split(query);
        int given = 0;
        for (String word : words) {
            if (!word.isEmpty()) {
                given += (word.length() + MAX_TERM_LENGTH - 1) / MAX_TERM_LENGTH;
            }
        }
        if (given <= MAX_TERMS) {
            return new Bounded(query, given, given);
        }
        Set<String> kept = new LinkedHashSet<>();
        for (String word : words) {
            if (!word.isEmpty()) {
                String term = word.length() > MAX_TERM_LENGTH ? head(word) : word;
                kept.add(term.toLowerCase(Locale.ROOT));
                if (kept.size() == MAX_TERMS) {
                    break;
                }
            }
        }
        return new Bounded(String.join(" ", kept), given, kept.size());
    }

    /** The first {@value #MAX_TERM_LENGTH} characters of a word, one fewer when a surrogate pair would be cut. */
    private static String head(String word) {
        int end = Character.isHighSurrogate(word.charAt(MAX_TERM_LENGTH - 1)) ? MAX_TERM_LENGTH - 1 : MAX_TERM_LENGTH;
        return word.substring(0, end);
    }
}

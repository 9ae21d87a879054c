package org.agentmemory.platform.tokens;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToIntFunction;

/**
 * Counts a text's BPE tokens as the sum of its words' counts and remembers the counts of short words, the
 * way Hugging Face tokenizers cache BPE words. Thread-safe; pure apart from its bounded memory.
 *
 * <p>Why: jtokkit spends most of its time per pre-tokenizer piece in hash lookups over its 200,000-entry
 * vocabulary and in BPE merges, not in the text. Natural language repeats a few thousand words, so a
 * small table from word to count replaces that work for most of a message.
 *
 * <p>Rules:
 * <ul>
 *   <li>A <em>word</em> ends before a space (U+0020) that follows a visible character (not whitespace,
 *       control or format) and at the text's end; the next word begins with that space. This is cut 1 of
 *       {@link BpeSegments}. jtokkit splits {@code o200k_base} text with its regular expression compiled with
 *       {@code UNICODE_CHARACTER_CLASS} (so {@code \s} is Unicode White_Space) and {@code cl100k_base} text with
 *       its hand-written {@code Cl100kParser}; every whitespace character of either is a control or a space
 *       separator, so never "visible". In both, a space after a non-whitespace character always starts a new
 *       piece, no piece looks behind, and a word never ends in whitespace except at the text's end, so the
 *       {@code \s+(?!\S)} look-ahead sees inside a word what it sees in the whole text. The sum of the words'
 *       counts therefore equals the encoder's count of the whole text, exactly (spec §3). Re-check this
 *       argument when jtokkit is upgraded; {@code WordCountsTest} compares both on random text.</li>
 *   <li>Words of at most {@value #MAX_WORD_CHARS} UTF-16 units are looked up and, when absent, counted and
 *       remembered. A longer word (compact JSON of a tool's input, a URL) is split further at cut 2 of
 *       {@link BpeSegments} (before a character that is none of letter, number, mark or apostrophe and follows a
 *       letter or number, where both pre-tokenizers end a piece as well), and its parts are looked up the same way;
 *       a part still longer is counted each time and never remembered (a compact JSON input counted whole
 *       through the encoder cost as much as the rest of its turn's counting).</li>
 *   <li>Words are remembered in two generations of at most {@code capacity} words each: when the current one
 *       is full it becomes the previous one (the older previous one is dropped) and a new one starts; a word
 *       found only in the previous generation is copied into the current one. Words in use survive a turnover,
 *       and a flood of one-off words (ids, numbers) only pushes out words that were not used meanwhile. Under
 *       concurrent writers a generation can exceed {@code capacity} by at most one word per writing thread.</li>
 * </ul>
 *
 * <p>Memory: at most about 2 × {@code capacity} words of at most {@value #MAX_WORD_CHARS} UTF-16 units per
 * encoding. The table holds short fragments of the
 * texts counted (never persisted; they leave it as the generations turn over).
 */
final class WordCounts {

    /** Longest word remembered, in UTF-16 units. */
    static final int MAX_WORD_CHARS = 32;

    /** Words per generation by default (two generations per encoding). */
    static final int DEFAULT_CAPACITY = 32_768;

    private final ToIntFunction<String> encoder;
    private final int capacity;
    private volatile Generations generations;

    /** The current generation and the one before it (read together, replaced together). */
    private record Generations(
            ConcurrentHashMap<String, Integer> current, ConcurrentHashMap<String, Integer> previous) {}

    /**
     * @param encoder  counts one text exactly, not {@code null}
     * @param capacity most words per generation, ≥ 1
     * @throws IllegalArgumentException if capacity is below 1
     */
    WordCounts(ToIntFunction<String> encoder, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        this.encoder = encoder;
        this.capacity = capacity;
        this.generations = new Generations(newTable(), new ConcurrentHashMap<>());
    }

    /**
     * @param text the text, not {@code null}
     * @return its token count, equal to the encoder's count of the whole text
     */
    int count(String text) {
        int length = text.length();
        int total = 0;
        int start = 0;
        for (int i = 1; i < length; i++) {
            if (BpeSegments.isSpaceAfterVisible(text, i)) {
                total += word(text, start, i);
                start = i;
            }
        }
        return length == 0 ? 0 : total + word(text, start, length);
    }

    /** @return the number of words remembered now, both generations */
    int size() {
        Generations g = generations;
        return g.current().size() + g.previous().size();
    }

    private int word(String text, int start, int end) {
        if (end - start > MAX_WORD_CHARS) {
            return longWord(text, start, end);
        }
        return remembered(text, start, end);
    }

    /**
     * A word longer than {@value #MAX_WORD_CHARS} units (compact JSON, a URL, a path): split further at cut 2 of
     * {@link BpeSegments}, where both pre-tokenizers start a new piece too, so the sum stays exact; each part is
     * looked up as a word, and a part still longer is counted each time.
     */
    private int longWord(String text, int start, int end) {
        int total = 0;
        int from = start;
        for (int i = start + 1; i < end; i++) {
            if (BpeSegments.isPieceStartAfterLetterOrNumber(text, i)) {
                total += part(text, from, i);
                from = i;
            }
        }
        return total + part(text, from, end);
    }

    private int part(String text, int start, int end) {
        return end - start > MAX_WORD_CHARS
                ? encoder.applyAsInt(text.substring(start, end))
                : remembered(text, start, end);
    }

    private int remembered(String text, int start, int end) {
        String word = start == 0 && end == text.length() ? text : text.substring(start, end);
        Generations g = generations;
        Integer known = g.current().get(word);
        if (known != null) {
            return known;
        }
        known = g.previous().get(word);
        int count = known != null ? known : encoder.applyAsInt(word);
        remember(g, word, count);
        return count;
    }

    private void remember(Generations g, String word, int count) {
        if (g.current().size() >= capacity) {
            synchronized (this) {
                if (generations == g) {
                    generations = new Generations(newTable(), g.current());
                }
                g = generations;
            }
        }
        g.current().put(word, count);
    }

    private ConcurrentHashMap<String, Integer> newTable() {
        return new ConcurrentHashMap<>(Math.min(capacity, 4_096) * 2);
    }
}

package org.agentmemory.tokens;

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
 *       {@link BpeSegments}: the {@code o200k_base} and {@code cl100k_base} pre-tokenizers always start a
 *       new piece there, no piece looks behind, and a word never ends in whitespace except at the text's
 *       end, so the {@code \s+(?!\S)} look-ahead sees inside a word what it sees in the whole text. The sum
 *       of the words' counts therefore equals the encoder's count of the whole text, exactly (spec §3).</li>
 *   <li>Words of at most {@value #MAX_WORD_CHARS} UTF-16 units are looked up and, when absent, counted and
 *       remembered. Longer words are counted each time and never remembered.</li>
 *   <li>At most {@code capacity} words are remembered; when the table is full it is emptied and fills
 *       again with the words in use.</li>
 * </ul>
 */
final class WordCounts {

    /** Longest word remembered, in UTF-16 units. */
    static final int MAX_WORD_CHARS = 32;

    /** Words remembered per encoding by default: about 3 MB of heap when full. */
    static final int DEFAULT_CAPACITY = 32_768;

    private final ToIntFunction<String> encoder;
    private final int capacity;
    private final ConcurrentHashMap<String, Integer> counts;

    /**
     * @param encoder  counts one text exactly, not {@code null}
     * @param capacity most words remembered, ≥ 1
     * @throws IllegalArgumentException if capacity is below 1
     */
    WordCounts(ToIntFunction<String> encoder, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        this.encoder = encoder;
        this.capacity = capacity;
        this.counts = new ConcurrentHashMap<>(Math.min(capacity, 4_096) * 2);
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
            if (text.charAt(i) == ' ' && visibleBefore(text, i)) {
                total += word(text, start, i);
                start = i;
            }
        }
        return length == 0 ? 0 : total + word(text, start, length);
    }

    /** @return the number of words remembered now */
    int size() {
        return counts.size();
    }

    private int word(String text, int start, int end) {
        if (end - start > MAX_WORD_CHARS) {
            return encoder.applyAsInt(text.substring(start, end));
        }
        String word = start == 0 && end == text.length() ? text : text.substring(start, end);
        Integer known = counts.get(word);
        if (known != null) {
            return known;
        }
        int count = encoder.applyAsInt(word);
        if (counts.size() >= capacity) {
            counts.clear();
        }
        counts.put(word, count);
        return count;
    }

    private static boolean visibleBefore(String text, int index) {
        char c = text.charAt(index - 1);
        if (c > ' ' && c < 0x7f) {
            return true;
        }
        return c >= 0x80 && BpeSegments.isVisible(text.codePointBefore(index));
    }
}

package org.agentmemory.platform.tokens;

import com.knuddels.jtokkit.api.Encoding;

/**
 * BPE token counts from jtokkit (spec §3: {@code TiktokenCounter}). Special-token text such as
 * {@code <|endoftext|>} is counted as ordinary text, never rejected. Texts longer than
 * {@value BpeSegments#SEGMENT_CHARS} UTF-16 units are counted in segments ({@link BpeSegments}), which keeps
 * memory bounded and gives the same count for any text that has a word or punctuation boundary at least
 * every {@value BpeSegments#SEGMENT_CHARS}/2 units. Each segment is counted word by word through a bounded
 * table of known words' counts ({@link WordCounts}), which gives the same count as jtokkit's whole segment.
 */
final class JTokkitCounter implements TokenCounter {

    private final String name;
    private final WordCounts words;

    JTokkitCounter(String name, Encoding encoding) {
        this.name = name;
        this.words = new WordCounts(encoding::countTokensOrdinary, WordCounts.DEFAULT_CAPACITY);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int count(String text) {
        if (text == null || text.isEmpty()) {
            return 0;
        }
        return BpeSegments.count(text, words::count);
    }
}

package org.agentmemory.tokens;

import com.knuddels.jtokkit.api.Encoding;

/**
 * BPE token counts from jtokkit (spec §3: {@code TiktokenCounter}). Special-token text such as
 * {@code <|endoftext|>} is counted as ordinary text, never rejected. Texts longer than
 * {@value BpeSegments#SEGMENT_CHARS} UTF-16 units are counted in segments ({@link BpeSegments}), which keeps
 * memory bounded and gives the same count for any text that has a word or punctuation boundary at least
 * every {@value BpeSegments#SEGMENT_CHARS}/2 units.
 */
final class JTokkitCounter implements TokenCounter {

    private final String name;
    private final Encoding encoding;

    JTokkitCounter(String name, Encoding encoding) {
        this.name = name;
        this.encoding = encoding;
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
        return BpeSegments.count(text, encoding::countTokensOrdinary);
    }
}

package org.agentmemory.tokens;

import com.knuddels.jtokkit.api.Encoding;

/**
 * BPE token counts from jtokkit (spec §3: {@code TiktokenCounter}). Special-token text such as
 * {@code <|endoftext|>} is counted as ordinary text, never rejected.
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
        return encoding.countTokensOrdinary(text);
    }
}

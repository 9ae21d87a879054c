package org.agentmemory.platform.tokens;

/**
 * The named byte heuristic (spec §3, {@code HeuristicCounter}): 0 for empty text, else
 * {@code max(1, utf8_byte_length / 4)}. Used only when no BPE encoding can be loaded, or when configured.
 */
final class HeuristicCounter implements TokenCounter {

    static final String NAME = "heuristic";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int count(String text) {
        if (text == null || text.isEmpty()) {
            return 0;
        }
        return Math.max(1, utf8Length(text) / 4);
    }

    /** UTF-8 byte length without allocating the encoded bytes. */
    static int utf8Length(String text) {
        int bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                // An unpaired surrogate is encoded as '?' by String.getBytes(UTF_8).
                bytes += 1;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }
}

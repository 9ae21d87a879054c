package org.agentmemory.compaction.control;

/** Text tests shared by compaction and rendering, with the reference system's (Python's) semantics. */
final class Texts {

    private Texts() {}

    /**
     * Python's {@code not (text or "").strip()}: {@code null}, empty, or only whitespace as Python's
     * {@code str.isspace} defines it (Java's {@code isWhitespace} misses the no-break spaces and U+0085).
     */
    static boolean isBlank(String text) {
        if (text == null) {
            return true;
        }
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (!(Character.isWhitespace(cp) || Character.isSpaceChar(cp) || cp == 0x85)) {
                return false;
            }
            i += Character.charCount(cp);
        }
        return true;
    }

    /** @return {@code true} when the text is neither {@code null} nor empty (Python truthiness of a str) */
    static boolean present(String text) {
        return text != null && !text.isEmpty();
    }
}

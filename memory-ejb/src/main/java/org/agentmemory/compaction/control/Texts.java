package org.agentmemory.compaction.control;

import org.agentmemory.platform.text.CodePoints;

/** Text tests shared by compaction and rendering, with the reference system's (Python's) semantics. */
final class Texts {

    private Texts() {}

    /** @return {@link CodePoints#isBlank}, the service's one blank rule */
    static boolean isBlank(String text) {
        return CodePoints.isBlank(text);
    }

    /** @return {@code true} when the text is neither {@code null} nor empty (Python truthiness of a str) */
    static boolean present(String text) {
        return text != null && !text.isEmpty();
    }
}

package org.agentmemory.omission.control;

import org.agentmemory.platform.text.CodePoints;

/**
 * The preview an offloaded tool output leaves in the turn (spec §6 "Preview format").
 */
public final class Previews {

    /** Code points of the original output kept in a preview. */
    public static final int PREVIEW_CODE_POINTS = 200;

    private Previews() {}

    /**
     * @param text the full output; never {@code null}
     * @return the text when it has at most 200 code points, else its first 200 code points +
     *         {@code " …(+N chars)"} (N comma-grouped)
     */
    public static String preview(String text) {
        return CodePoints.truncateWithCount(text, PREVIEW_CODE_POINTS);
    }
}

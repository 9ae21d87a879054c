package org.agentmemory.omission.control;

import java.util.LinkedHashMap;
import java.util.Map;
import org.agentmemory.platform.json.CanonicalJson;
import org.agentmemory.platform.text.CodePoints;

/**
 * The preview an offloaded tool output leaves in the turn (spec §6 "Preview format").
 */
public final class Previews {

    /** Code points of the original output kept in a preview. */
    public static final int PREVIEW_CODE_POINTS = 200;

    /** Top-level keys an offloaded tool input keeps in its preview. */
    public static final int PREVIEW_INPUT_KEYS = 20;

    /** The key that counts the top-level keys an input preview left out. */
    public static final String MORE_KEYS = "\u2026";

    private Previews() {}

    /**
     * @param text the full output; never {@code null}
     * @return the text when it has at most 200 code points, else its first 200 code points +
     *         {@code " …(+N chars)"} (N comma-grouped)
     */
    public static String preview(String text) {
        return CodePoints.truncateWithCount(text, PREVIEW_CODE_POINTS);
    }

    /**
     * The preview an offloaded tool input leaves in the turn: still a JSON object, so that every reader of
     * {@code input} keeps working. Its first {@value #PREVIEW_INPUT_KEYS} top-level keys are kept in order; a
     * string value becomes its {@link #preview}; any other value whose compact JSON has more than
     * {@value #PREVIEW_CODE_POINTS} code points becomes the preview of that JSON (a string); when keys were left
     * out, key {@code "…"} says how many ({@code "+N keys"}).
     *
     * @param input the full input; never {@code null}
     * @return a new map of at most {@value #PREVIEW_INPUT_KEYS} + 1 entries
     */
    public static Map<String, Object> previewInput(Map<String, Object> input) {
        Map<String, Object> preview = new LinkedHashMap<>();
        int kept = 0;
        for (Map.Entry<String, Object> entry : input.entrySet()) {
            if (kept == PREVIEW_INPUT_KEYS) {
                break;
            }
            Object value = entry.getValue();
            if (value instanceof String text) {
                preview.put(entry.getKey(), preview(text));
            } else {
                String json = CanonicalJson.write(value);
                preview.put(entry.getKey(), CodePoints.length(json) > PREVIEW_CODE_POINTS ? preview(json) : value);
            }
            kept++;
        }
        if (input.size() > kept) {
            preview.put(MORE_KEYS, "+" + (input.size() - kept) + " keys");
        }
        return preview;
    }
}

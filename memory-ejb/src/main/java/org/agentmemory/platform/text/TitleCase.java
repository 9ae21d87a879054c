package org.agentmemory.platform.text;

import java.util.Locale;

/**
 * Titles from category values ({@code tool_execution} → {@code Tool Execution}), as the reference's heuristic
 * distiller makes page titles (spec §12.2 step 4) and skill extraction names skills.
 */
public final class TitleCase {

    private TitleCase() {}

    /**
     * @param value a value such as {@code tool_execution}; underscores and runs of blanks separate words
     * @return each word with its first character upper-cased and the rest lower-cased (root locale), joined by one
     *         space; {@code ""} when there is no word
     */
    public static String of(String value) {
        StringBuilder out = new StringBuilder();
        for (String word : value.replace('_', ' ').strip().split("\\s+")) {
            if (word.isEmpty()) {
                continue;
            }
            if (!out.isEmpty()) {
                out.append(' ');
            }
            out.append(word.substring(0, 1).toUpperCase(Locale.ROOT))
                    .append(word.substring(1).toLowerCase(Locale.ROOT));
        }
        return out.toString();
    }
}

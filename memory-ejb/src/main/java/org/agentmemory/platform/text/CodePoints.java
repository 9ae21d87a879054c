package org.agentmemory.platform.text;

/**
 * Length and slicing in Unicode code points, as the spec counts characters ("len" = Python {@code len(str)}).
 * Never splits a surrogate pair.
 */
public final class CodePoints {

    private CodePoints() {}

    /**
     * @param text any text, {@code null} counts 0
     * @return the number of code points
     */
    public static int length(String text) {
        return text == null ? 0 : text.codePointCount(0, text.length());
    }

    /**
     * @param text  the text
     * @param count how many code points to keep from the start (≥ 0)
     * @return the first {@code count} code points, or the whole text when shorter
     */
    public static String head(String text, int count) {
        if (text.length() <= count) {
            return text;
        }
        int end = text.offsetByCodePoints(0, Math.min(count, length(text)));
        return text.substring(0, end);
    }

    /**
     * @param text  the text
     * @param count how many code points to keep from the end (≥ 0)
     * @return the last {@code count} code points, or the whole text when shorter
     */
    public static String tail(String text, int count) {
        int len = length(text);
        if (len <= count) {
            return text;
        }
        return text.substring(text.offsetByCodePoints(0, len - count));
    }

    /**
     * The spec's truncation with a count of what was cut (spec §6 preview, §8.2 {@code out=}):
     * the text unchanged when it has at most {@code limit} code points, else its first {@code limit} code points
     * + {@code " …(+N chars)"} where N = length − limit with comma thousands separators.
     *
     * @param text  the text; never {@code null}
     * @param limit code points kept
     * @return the truncated text
     */
    public static String truncateWithCount(String text, int limit) {
        int len = length(text);
        if (len <= limit) {
            return text;
        }
        return head(text, limit) + " \u2026(+" + groupThousands(len - limit) + " chars)";
    }

    /**
     * @param n a non-negative number
     * @return its decimal digits with a comma every three digits ({@code 1234567 → "1,234,567"}),
     *         independent of the default locale
     */
    public static String groupThousands(long n) {
        String digits = Long.toString(n);
        StringBuilder out = new StringBuilder(digits.length() + digits.length() / 3);
        int first = digits.length() % 3 == 0 ? 3 : digits.length() % 3;
        out.append(digits, 0, first);
        for (int i = first; i < digits.length(); i += 3) {
            out.append(',').append(digits, i, i + 3);
        }
        return out.toString();
    }

    /**
     * Python's {@code not (text or "").strip()}: {@code null}, empty, or only whitespace as Python's
     * {@code str.isspace} defines it (Java's {@code isWhitespace} misses the no-break spaces and U+0085). The one
     * blank rule of the service: a reply blank by it renders nothing, and a turn blank by it is refused.
     *
     * @param text any text, or {@code null}
     * @return whether it is blank
     */
    public static boolean isBlank(String text) {
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
}

package org.agentmemory.conversation.control;

import java.util.ArrayList;
import java.util.List;

/** Rule 5 of Stage 0 normalization (spec §2.4): condensing Python tracebacks. Pure. */
final class Tracebacks {

    private static final String FRAME_START = "  File \"";
    private static final String FRAME_CONTINUATION = "    ";

    private Tracebacks() {}

    /**
     * Rule 5 (spec §2.4): condenses a Python traceback to its header, its last frames and the exception.
     * <ul>
     * <li>Without the literal {@value Normalizer#TRACEBACK_HEADER}, the text is returned unchanged.</li>
     * <li>Otherwise everything before the FIRST header is discarded; {@code rest} is the text after it, minus
     * one leading LF.</li>
     * <li>A frame block is {@code   File "} (two spaces) through the end of its line, then every following
     * line that starts with four spaces; every line of a block ends in LF. Blocks are found left to right,
     * anywhere in a line, never overlapping.</li>
     * <li>The exception tail is what follows the last block (all of {@code rest} without blocks), leading
     * and trailing LFs stripped.</li>
     * <li>Result: the header, the last {@code keepFrames} blocks without their trailing LF, then the tail if
     * not empty, joined with LF. In chained tracebacks the frames of both chains count and the text between
     * them is lost; the final exception line is kept verbatim.</li>
     * </ul>
     *
     * <p>Deviation for idempotence: the spec's single pass is not a fixed point when the tail starts, after
     * blank lines, with lines indented by four spaces ({@code "    g()\n\n    a note\n\nValueError"}): the
     * join drops the blank lines, so a second pass reads those lines as part of the last frame and then
     * strips the blank lines after them. This method therefore condenses until the text no longer changes.
     * Each further pass only removes LFs, so it ends; for real tracebacks, whose exception line is not
     * indented, the first pass is already the fixed point and the result is exactly the spec's.
     *
     * @param text       any text; never {@code null}
     * @param keepFrames how many trailing frame blocks to keep; 0 or less keeps none (as the Python system)
     * @return the condensed text, or {@code text} when it holds no traceback header
     */
    static String condense(String text, int keepFrames) {
        String current = text;
        String next = condenseOnce(current, keepFrames);
        while (!next.equals(current)) {
            current = next;
            next = condenseOnce(current, keepFrames);
        }
        return next;
    }

    /** One pass of spec §2.4, literally; returns {@code text} itself when it holds no header. */
    private static String condenseOnce(String text, int keepFrames) {
        int header = text.indexOf(Normalizer.TRACEBACK_HEADER);
        if (header < 0) {
            return text;
        }
        int restStart = header + Normalizer.TRACEBACK_HEADER.length();
        if (restStart < text.length() && text.charAt(restStart) == '\n') {
            restStart++;
        }
        String rest = text.substring(restStart);
        List<int[]> blocks = frameBlocks(rest);
        int blocksEnd = blocks.isEmpty() ? 0 : blocks.get(blocks.size() - 1)[1];
        String tail = stripNewlines(rest.substring(blocksEnd));

        StringBuilder out = new StringBuilder(Normalizer.TRACEBACK_HEADER);
        int firstKept = keepFrames <= 0 ? blocks.size() : Math.max(0, blocks.size() - keepFrames);
        for (int[] block : blocks.subList(firstKept, blocks.size())) {
            int end = block[1];
            while (end > block[0] && rest.charAt(end - 1) == '\n') {
                end--;
            }
            out.append('\n').append(rest, block[0], end);
        }
        if (!tail.isEmpty()) {
            out.append('\n').append(tail);
        }
        return out.toString();
    }

    /**
     * The frame blocks of {@code text} as [start, end) pairs, scanned by hand: a regex with a repeated group
     * would recurse once per continuation line and can overflow the stack on huge indented payloads.
     */
    private static List<int[]> frameBlocks(String text) {
        List<int[]> blocks = new ArrayList<>();
        int from = 0;
        while (true) {
            int start = text.indexOf(FRAME_START, from);
            if (start < 0) {
                return blocks;
            }
            int lineEnd = text.indexOf('\n', start + FRAME_START.length());
            if (lineEnd < 0) {
                // No LF after this start means none after any later start either: no more blocks.
                return blocks;
            }
            int end = lineEnd + 1;
            while (text.startsWith(FRAME_CONTINUATION, end)) {
                int continuationEnd = text.indexOf('\n', end + FRAME_CONTINUATION.length());
                if (continuationEnd < 0) {
                    break;
                }
                end = continuationEnd + 1;
            }
            blocks.add(new int[] {start, end});
            from = end;
        }
    }

    private static String stripNewlines(String text) {
        int start = 0;
        int end = text.length();
        while (start < end && text.charAt(start) == '\n') {
            start++;
        }
        while (end > start && text.charAt(end - 1) == '\n') {
            end--;
        }
        return text.substring(start, end);
    }
}

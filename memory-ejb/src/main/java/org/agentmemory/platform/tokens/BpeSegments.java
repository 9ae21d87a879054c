package org.agentmemory.platform.tokens;

import java.util.function.ToIntFunction;

/**
 * Counts a long text's BPE tokens segment by segment, so that memory stays bounded whatever the input.
 * Pure.
 *
 * <p>Why: jtokkit encodes one pre-tokenizer piece (a run of letters, for example) at a time, and for a
 * piece longer than a few hundred bytes it needs about 160 bytes of heap per byte of the piece: a 4 MB
 * message that is one "word" exhausts a 1 GB heap. Natural text never has such pieces, but a service that
 * accepts any input must survive them.
 *
 * <p>Rules: a text of at most {@value #SEGMENT_CHARS} UTF-16 units is counted whole. A longer one is cut
 * into segments of at most that many units and their counts added. Each cut is made, searching back from
 * the segment's end over its second half, at the first of these that exists:
 * <ol>
 *   <li>before a space (U+0020) that follows a visible character (not whitespace, control or format);</li>
 *   <li>before any other character that is none of letter, number, combining mark or apostrophe and that
 *       follows a letter or number (a line break, or CJK punctuation such as 。 or ，;
 *       {@link #isPieceStartAfterLetterOrNumber});</li>
 *   <li>at the segment's end, never inside a surrogate pair.</li>
 * </ol>
 * Cuts 1 and 2 fall where the {@code o200k_base} and {@code cl100k_base} pre-tokenizers start a new piece
 * anyway (no piece continues from a visible character into a space, a piece that ends in a letter or
 * number never continues into such a character, the contraction suffixes start with the apostrophe, and no
 * pattern looks behind), so the sum equals jtokkit's count of the whole text. Only cut 3, reached only
 * inside a run of
 * more than {@value #SEGMENT_CHARS}/2 units without any such boundary, can differ from it, by at most a
 * few tokens per cut.
 */
final class BpeSegments {

    /** Longest segment handed to the encoder, in UTF-16 units. */
    static final int SEGMENT_CHARS = 8_192;

    private BpeSegments() {}

    /**
     * @param text    the text, not {@code null}
     * @param encoder counts one segment
     * @return the sum of the segments' counts
     */
    static int count(String text, ToIntFunction<String> encoder) {
        return count(text, encoder, SEGMENT_CHARS);
    }

    /** As {@link #count(String, ToIntFunction)} with another segment length (tests), ≥ 4. */
    static int count(String text, ToIntFunction<String> encoder, int segmentChars) {
        int length = text.length();
        if (length <= segmentChars) {
            return encoder.applyAsInt(text);
        }
        int total = 0;
        int start = 0;
        while (length - start > segmentChars) {
            int cut = cut(text, start, start + segmentChars);
            total += encoder.applyAsInt(text.substring(start, cut));
            start = cut;
        }
        return total + encoder.applyAsInt(text.substring(start));
    }

    /** The cut in (start, limit]: the end index of the segment that begins at {@code start}. */
    static int cut(String text, int start, int limit) {
        int floor = start + (limit - start) / 2;
        for (int i = limit; i > floor; i--) {
            if (isSpaceAfterVisible(text, i)) {
                return i;
            }
        }
        for (int i = limit; i > floor; i--) {
            if (isPieceStartAfterLetterOrNumber(text, i)) {
                return i;
            }
        }
        return Character.isLowSurrogate(text.charAt(limit)) && Character.isHighSurrogate(text.charAt(limit - 1))
                ? limit - 1
                : limit;
    }

    /**
     * Cut 1: whether {@code text} has a space (U+0020) at {@code index} (≥ 1) that follows a visible character,
     * where both pre-tokenizers start a new piece ({@link WordCounts} cuts every word there).
     */
    static boolean isSpaceAfterVisible(String text, int index) {
        if (text.charAt(index) != ' ') {
            return false;
        }
        char before = text.charAt(index - 1);
        if (before > ' ' && before < 0x7f) {
            return true; // printable ASCII, the common case
        }
        return before >= 0x80 && isVisible(text.codePointBefore(index));
    }

    /** @return whether the code point is none of whitespace, space separator, control or format character */
    private static boolean isVisible(int codePoint) {
        return !Character.isWhitespace(codePoint)
                && !Character.isSpaceChar(codePoint)
                && !Character.isISOControl(codePoint)
                && Character.getType(codePoint) != Character.FORMAT;
    }

    /**
     * Cut 2: whether {@code text} has, at {@code index} (≥ 1), a character that is none of letter, number
     * ({@code \p{N}}: decimal, letter and other numbers, such as ² or Ⅷ), mark or apostrophe, after a letter or
     * number. Both pre-tokenizers end a piece there (their letter pieces continue only into letters, marks or a
     * contraction, their number pieces only into numbers) and start the next one without looking behind, so the
     * text can be cut there exactly ({@link WordCounts} also splits long words there).
     */
    static boolean isPieceStartAfterLetterOrNumber(String text, int index) {
        char at = text.charAt(index);
        char before = text.charAt(index - 1);
        if (at < 0x80 && before < 0x80) { // ASCII, the common case
            return isAsciiLetterOrDigit(before) && !isAsciiLetterOrDigit(at) && at != '\'';
        }
        if (Character.isLowSurrogate(at)) {
            return false;
        }
        return isLetterOrNumber(text.codePointBefore(index)) && startsNewPiece(text.codePointAt(index));
    }

    private static boolean isAsciiLetterOrDigit(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }

    /** @return whether the code point is in {@code \p{L}} or {@code \p{N}} */
    private static boolean isLetterOrNumber(int codePoint) {
        if (Character.isLetter(codePoint)) {
            return true;
        }
        int type = Character.getType(codePoint);
        return type == Character.DECIMAL_DIGIT_NUMBER
                || type == Character.LETTER_NUMBER
                || type == Character.OTHER_NUMBER;
    }

    private static boolean startsNewPiece(int codePoint) {
        if (codePoint == '\'' || isLetterOrNumber(codePoint)) {
            return false;
        }
        int type = Character.getType(codePoint);
        return type != Character.NON_SPACING_MARK
                && type != Character.ENCLOSING_MARK
                && type != Character.COMBINING_SPACING_MARK;
    }
}

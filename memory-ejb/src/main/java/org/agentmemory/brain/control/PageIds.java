package org.agentmemory.brain.control;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Titles and deterministic ids of brain pages (spec §12.3). */
public final class PageIds {

    /** Longest title, in code points. */
    public static final int MAX_TITLE = 80;

    private PageIds() {}

    /**
     * @param title the given title, or {@code null} / blank
     * @param text  the page's text, used when no title is given
     * @return the given title, else the first line of the text; cut to {@value #MAX_TITLE} code points, trimmed
     */
    public static String title(String title, String text) {
        String chosen = title == null || title.isBlank() ? firstLine(text) : title;
        return cut(chosen, MAX_TITLE).strip();
    }

    /**
     * @param title    the page's title ({@link #title})
     * @param category the page's category after the confidence rule
     * @return {@code mem-} and the first 12 hex digits of SHA-1 of {@code "{title}::{category}"} (UTF-8)
     */
    public static String pageId(String title, String category) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1")
                    .digest((title + "::" + category).getBytes(StandardCharsets.UTF_8));
            return "mem-" + HexFormat.of().formatHex(digest).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is part of every JDK", e);
        }
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        String stripped = text.strip();
        int end = stripped.indexOf('\n');
        return end < 0 ? stripped : stripped.substring(0, end);
    }

    /**
     * @param text          a text
     * @param maxCodePoints the most code points to keep
     * @return the text cut to that many code points (never in a surrogate pair)
     */
    public static String cut(String text, int maxCodePoints) {
        if (text.codePointCount(0, text.length()) <= maxCodePoints) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, maxCodePoints));
    }
}

package org.agentmemory.platform.paging;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.conversation.ConversationMemoryOperations;

/**
 * Opaque keyset cursors: URL-safe base64 of a versioned position, so clients cannot mistake them for ids
 * and a malformed one is a 400, never a silent first page.
 */
public final class Cursors {

    private static final String ID_PREFIX = "c1:";
    private static final String TEXT_PREFIX = "u1:";

    private Cursors() {}

    /** @return a cursor meaning "ids lower than {@code id}" */
    public static String ofId(long id) {
        return encode(ID_PREFIX + id);
    }

    /** @return a cursor meaning "values sorting after {@code value}" */
    public static String ofText(String value) {
        return encode(TEXT_PREFIX + value);
    }

    /**
     * @param cursor a cursor from {@link #ofId}, or {@code null}
     * @return the id bound, {@code Long.MAX_VALUE} for {@code null}
     * @throws InvalidInputException when the cursor is not one of ours
     */
    public static long idBound(String cursor) throws InvalidInputException {
        if (cursor == null) {
            return Long.MAX_VALUE;
        }
        String decoded = decode(cursor);
        if (!decoded.startsWith(ID_PREFIX)) {
            throw invalid(cursor);
        }
        try {
            return Long.parseLong(decoded.substring(ID_PREFIX.length()));
        } catch (NumberFormatException e) {
            throw invalid(cursor);
        }
    }

    /**
     * @param cursor a cursor from {@link #ofText}, or {@code null}
     * @return the text bound, {@code null} for {@code null}
     * @throws InvalidInputException when the cursor is not one of ours
     */
    public static String textBound(String cursor) throws InvalidInputException {
        if (cursor == null) {
            return null;
        }
        String decoded = decode(cursor);
        if (!decoded.startsWith(TEXT_PREFIX)) {
            throw invalid(cursor);
        }
        return decoded.substring(TEXT_PREFIX.length());
    }

    /**
     * @param limit a requested page size
     * @throws InvalidInputException unless 1 ≤ limit ≤ {@value ConversationMemoryOperations#MAX_PAGE_SIZE}
     */
    public static void checkLimit(int limit) throws InvalidInputException {
        if (limit < 1 || limit > ConversationMemoryOperations.MAX_PAGE_SIZE) {
            throw new InvalidInputException(
                    "limit",
                    "range",
                    "limit is " + limit + "; it must be between 1 and " + ConversationMemoryOperations.MAX_PAGE_SIZE
                            + " (a page size; 0 and negative values never mean 'everything').");
        }
    }

    private static String encode(String raw) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    private static String decode(String cursor) throws InvalidInputException {
        try {
            return new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw invalid(cursor);
        }
    }

    private static InvalidInputException invalid(String cursor) {
        String shown = cursor.length() > 40 ? cursor.substring(0, 40) + "…" : cursor;
        return new InvalidInputException(
                "cursor",
                "cursor-format",
                "cursor '" + shown
                        + "' is not a cursor of this listing; pass the nextCursor of the previous page, or none for the first page.");
    }
}

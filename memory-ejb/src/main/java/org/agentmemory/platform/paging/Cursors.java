package org.agentmemory.platform.paging;

import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.conversation.ConversationMemoryOperations;
import org.agentmemory.api.conversation.Page;

/**
 * Opaque keyset cursors of the service's listings ({@link Page#cursor}), and the page-size rule: a malformed
 * cursor is a 400, never a silent first page.
 */
public final class Cursors {

    private static final String ID_KIND = "c1";
    private static final String TEXT_KIND = "u1";

    private Cursors() {}

    /** @return a cursor meaning "ids lower than {@code id}" */
    public static String ofId(long id) {
        return Page.cursor(ID_KIND, Long.toString(id));
    }

    /** @return a cursor meaning "values sorting after {@code value}" */
    public static String ofText(String value) {
        return Page.cursor(TEXT_KIND, value);
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
        String position = Page.position(ID_KIND, cursor);
        if (position == null) {
            throw invalid(cursor);
        }
        try {
            return Long.parseLong(position);
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
        String position = Page.position(TEXT_KIND, cursor);
        if (position == null) {
            throw invalid(cursor);
        }
        return position;
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

    private static InvalidInputException invalid(String cursor) {
        String shown = cursor.length() > 40 ? cursor.substring(0, 40) + "…" : cursor;
        return new InvalidInputException(
                "cursor",
                "cursor-format",
                "cursor '" + shown
                        + "' is not a cursor of this listing; pass the nextCursor of the previous page, or none for the first page.");
    }
}

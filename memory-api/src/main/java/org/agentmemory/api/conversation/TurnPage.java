package org.agentmemory.api.conversation;

import java.io.Serializable;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A slice of a conversation's turns in sequence order, for streaming exports.
 *
 * @param conversationId the conversation
 * @param key            its key
 * @param turns          turns with sequence greater than the requested one, at most the requested limit
 * @param lastSequence   sequence of the last turn returned, or the requested one when empty; pass it back
 *                       to get the next slice
 * @param hasMore        whether more turns follow
 * @param nextCursor     the opaque cursor of the next slice ({@link #cursorAfter}), or {@code null} when none
 *                       follows
 */
@Schema(description = "A slice of a conversation's turns in sequence order.")
public record TurnPage(
        @Schema(description = "The conversation.") long conversationId,
        @Schema(description = "Its key.") ConversationKey key,

        @Schema(description = "Turns with a sequence greater than after, at most limit; never null.")
        List<TurnRecord> turns,

        @Schema(
                description = "Sequence of the last turn returned, or after when none was; pass it back as after"
                        + " for the next slice.")
        long lastSequence,

        @Schema(description = "Whether more turns follow.") boolean hasMore,

        @Schema(
                description = "Opaque cursor of the next slice: pass it as cursor; null on the last slice.",
                nullable = true)
        String nextCursor)
        implements Serializable {

    private static final String CURSOR_KIND = "s1";

    public TurnPage {
        turns = turns == null ? List.of() : List.copyOf(turns);
    }

    /**
     * A slice whose next cursor follows from {@code lastSequence} when more turns follow.
     *
     * @param conversationId the conversation
     * @param key            its key
     * @param turns          the turns
     * @param lastSequence   the last sequence returned, or the requested one
     * @param hasMore        whether more turns follow
     */
    public TurnPage(
            long conversationId, ConversationKey key, List<TurnRecord> turns, long lastSequence, boolean hasMore) {
        this(conversationId, key, turns, lastSequence, hasMore, hasMore ? cursorAfter(lastSequence) : null);
    }

    /**
     * @param sequence a turn sequence, 0 or more
     * @return the opaque cursor meaning "turns after {@code sequence}"
     */
    public static String cursorAfter(long sequence) {
        return Page.cursor(CURSOR_KIND, Long.toString(sequence));
    }

    /**
     * @param cursor a cursor from {@link #cursorAfter}
     * @return the sequence it names
     * @throws IllegalArgumentException when the text is not such a cursor
     */
    public static long sequenceOf(String cursor) {
        String position = Page.position(CURSOR_KIND, cursor);
        if (position == null) {
            throw new IllegalArgumentException("not a cursor of a turn listing");
        }
        long sequence = Long.parseLong(position);
        if (sequence < 0) {
            throw new IllegalArgumentException("not a cursor of a turn listing");
        }
        return sequence;
    }
}

package org.agentmemory.api.conversation;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One page of a keyset-paged listing. Pages never overlap and never skip an item that existed when paging
 * started, even when many items share a timestamp.
 *
 * @param items      the items of this page (at most the requested limit); never {@code null}
 * @param nextCursor opaque cursor for the next page, or {@code null} when this is the last page
 * @param <T>        the item type
 */
@Schema(
        description = "One page of a listing. Pass nextCursor as cursor for the next page; pages never overlap and"
                + " never skip an item that existed when paging started.")
public record Page<T>(
        @Schema(description = "The items of this page, at most the requested limit; never null.")
        List<T> items,

        @Schema(description = "Opaque cursor of the next page; null on the last page.", nullable = true)
        String nextCursor)
        implements Serializable {

    public Page {
        items = items == null ? List.of() : List.copyOf(items);
    }

    /**
     * The one form of every listing's opaque cursor: URL-safe base64 of {@code kind:position}, so that clients
     * cannot mistake it for an id and a cursor of another listing is recognised as such.
     *
     * @param kind     the listing's versioned kind, e.g. {@code s1} for turns after a sequence
     * @param position the position, e.g. a sequence or a row id
     * @return the cursor
     */
    public static String cursor(String kind, String position) {
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString((kind + ':' + position).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @param kind   the listing's kind, as given to {@link #cursor}
     * @param cursor a cursor sent by a client; never {@code null}
     * @return the position it names, or {@code null} when it is not a cursor of this kind (not base64, or another
     *         listing's)
     */
    public static String position(String kind, String cursor) {
        String decoded;
        try {
            decoded = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
        return decoded.startsWith(kind + ':') ? decoded.substring(kind.length() + 1) : null;
    }
}

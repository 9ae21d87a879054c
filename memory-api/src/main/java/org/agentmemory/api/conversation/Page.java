package org.agentmemory.api.conversation;

import java.io.Serializable;
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
}

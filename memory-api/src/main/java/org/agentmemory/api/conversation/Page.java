package org.agentmemory.api.conversation;

import java.io.Serializable;
import java.util.List;

/**
 * One page of a keyset-paged listing. Pages never overlap and never skip an item that existed when paging
 * started, even when many items share a timestamp.
 *
 * @param items      the items of this page (at most the requested limit); never {@code null}
 * @param nextCursor opaque cursor for the next page, or {@code null} when this is the last page
 * @param <T>        the item type
 */
public record Page<T>(List<T> items, String nextCursor) implements Serializable {

    public Page {
        items = items == null ? List.of() : List.copyOf(items);
    }
}

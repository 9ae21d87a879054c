package org.agentmemory.api.working;

import java.io.Serializable;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What storing an item did.
 *
 * @param item    the item as stored
 * @param evicted ids of the short-term items evicted to keep the tier within its capacity, oldest first; empty when
 *                none
 */
@Schema(description = "The stored item and the short-term items evicted to make room for it.")
public record StoredWorkingItem(
        @Schema(description = "The item as stored.") WorkingItem item,

        @Schema(description = "Ids of the short-term items evicted (oldest first); empty when none.")
        List<Long> evicted)
        implements Serializable {}

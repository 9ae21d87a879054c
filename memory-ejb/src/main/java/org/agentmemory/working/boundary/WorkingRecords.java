package org.agentmemory.working.boundary;

import java.util.LinkedHashMap;
import java.util.Locale;
import org.agentmemory.api.working.MemoryTier;
import org.agentmemory.working.control.ContextFrames;
import org.agentmemory.working.entity.WorkingItem;

/** Rows as the records of the working-memory contract. */
final class WorkingRecords {

    private WorkingRecords() {}

    /**
     * @param row an item's row
     * @return its tier
     * @throws IllegalArgumentException when the row holds no known tier (the table's check constraint prevents it)
     */
    static MemoryTier tier(WorkingItem row) {
        return MemoryTier.valueOf(row.getTier().toUpperCase(Locale.ROOT));
    }

    /**
     * @param row an item's row
     * @return the item as the contract shows it (a copy: later changes of the row do not show in it)
     */
    static org.agentmemory.api.working.WorkingItem item(WorkingItem row) {
        return new org.agentmemory.api.working.WorkingItem(
                row.getId(),
                row.getContent(),
                new LinkedHashMap<>(row.getMetadata()),
                row.getImportance(),
                row.getAccessCount(),
                tier(row),
                ContextFrames.read(row.getContext()),
                row.getCreatedAt(),
                row.getUpdatedAt(),
                row.getLastAccessedAt(),
                row.getPromotedAt());
    }
}

package org.agentmemory.conversation.entity;

/**
 * Ids of rows inserted without the persistence context: the bulk writer ({@code conversation.control.TurnRows})
 * takes them from each entity's own id generator and hands them to the instance once.
 */
final class BulkIds {

    private BulkIds() {}

    /**
     * @param current the instance's id, or {@code null}
     * @param id      the generated id
     * @return {@code id}
     * @throws IllegalStateException if the instance already has an id
     */
    static Long assign(Long current, long id) {
        if (current != null) {
            throw new IllegalStateException("id already assigned: " + current);
        }
        return id;
    }
}

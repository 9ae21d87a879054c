package org.agentmemory.conversation.control;

import java.util.LinkedHashMap;
import java.util.Map;
import org.agentmemory.api.conversation.ConversationKey;

/**
 * The ids of recently written conversations by key, so that a group-committed write of turns can lock its
 * conversations by primary key at once instead of first looking each key up (a query per batch). Thread-safe; no
 * container types; least recently used entries go first.
 *
 * <p>An entry is only a hint, never trusted on its own: the writer locks the row by id and checks that it is still
 * there and carries the same key. Ids are never reused and a conversation's key never changes, so a row found
 * with the cached id and the same key is that conversation; a conversation deleted meanwhile (by this server or
 * another) is simply not found, and the writer removes the entry and looks the key up again. No invalidation
 * across servers is needed.
 */
public final class ConversationIdCache {

    private final Map<ConversationKey, Long> ids;

    /**
     * @param capacity the most keys remembered, ≥ 1
     */
    public ConversationIdCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1: " + capacity);
        }
        this.ids = new LinkedHashMap<>(Math.min(capacity, 1024), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<ConversationKey, Long> eldest) {
                return size() > capacity;
            }
        };
    }

    /**
     * @param key a conversation key
     * @return the id last remembered for it, or {@code null}
     */
    public synchronized Long get(ConversationKey key) {
        return ids.get(key);
    }

    /**
     * Remembers a key's id (replacing an older one).
     *
     * @param key the key
     * @param id  its conversation's id
     */
    public synchronized void put(ConversationKey key, long id) {
        ids.put(key, id);
    }

    /**
     * Forgets a key, e.g. when the row its id pointed to is gone.
     *
     * @param key the key
     */
    public synchronized void remove(ConversationKey key) {
        ids.remove(key);
    }

    /** @return how many keys are remembered now */
    public synchronized int size() {
        return ids.size();
    }
}

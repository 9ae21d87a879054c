package org.agentmemory.api.working;

import java.util.List;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.RequiresRole;

/**
 * Working memory (issue 35 item 1, seed 003), per (tenant, agent, session): every operation names the session with
 * a {@link WorkingSessionRef}, and an item of another session, agent or tenant is never seen (reading it by id answers
 * {@link NotFoundException}, as an id that does not exist).
 *
 * <p>Rules (seed 003; defaults configurable, {@code memory.working.*}): a new item goes to the long-term tier when its
 * importance is at least the importance threshold (0.7) or the caller asks for it, else to the short-term tier, which
 * holds at most its capacity (20) per session and evicts the oldest items first (FIFO). Reading an item by id counts an
 * access; a short-term item read as often as the promotion threshold (3), or whose importance is raised to the
 * importance threshold, moves to the long-term tier once. Writes of one session run one after the other, on every
 * server (decision 0015), so concurrent writers never exceed the capacity nor lose an access or a promotion.
 */
public interface WorkingMemoryOperations {

    /** Longest item content, code points. */
    int MAX_CONTENT = 32_768;

    /** Largest metadata object of an item, code points of its keys and values. */
    int MAX_METADATA = 16_384;

    /** Largest data object of a context frame, code points of its keys and values. */
    int MAX_FRAME_DATA = 4_096;

    /** Most frames a session's context stack holds. */
    int MAX_STACK_DEPTH = 32;

    /** Most metadata keys a filter names. */
    int MAX_FILTER_KEYS = 32;

    /** Largest {@code limit} of a search or a retrieval. */
    int MAX_LIMIT = 100;

    /** {@code limit} of a search or a retrieval when none is given (seed 003). */
    int DEFAULT_LIMIT = 10;

    /** Longest search query, code points. */
    int MAX_QUERY = 4_096;

    /**
     * Stores an item, attaching the current context frame (the top of the stack) to it. A short-term item beyond the
     * capacity evicts the oldest short-term items of the session.
     *
     * @param session the session
     * @param item    the item
     * @return the stored item and the ids evicted for it
     * @throws InvalidInputException when an id, the content, the metadata or the importance breaks a rule (the field
     *                               is named, e.g. {@code content}, {@code metadata}, {@code importance})
     */
    @RequiresRole(RequiresRole.WRITER)
    StoredWorkingItem store(WorkingSessionRef session, NewWorkingItem item) throws InvalidInputException;

    /**
     * Reads an item by id, counting an access; a short-term item reaching the promotion threshold is promoted.
     *
     * @param session the session
     * @param itemId  the item
     * @return the item after the access
     * @throws NotFoundException     when the session holds no such item (evicted, deleted, or another session's)
     * @throws InvalidInputException when an id breaks a rule
     */
    @RequiresRole(RequiresRole.WRITER)
    WorkingItem get(WorkingSessionRef session, long itemId) throws NotFoundException, InvalidInputException;

    /**
     * Full-text search of the session's items of both tiers (or one), re-ranked by the current context frame.
     *
     * @param session the session
     * @param query   words to look for, at most {@value #MAX_QUERY} code points; a query of more than 200 words is
     *                searched by its first 200 distinct ones; blank finds nothing
     * @param tier    one tier, or {@code null} for both
     * @param limit   1–{@value #MAX_LIMIT}
     * @return at most {@code limit} hits, most relevant first
     * @throws InvalidInputException when an id, the query or the limit breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    List<WorkingSearchHit> search(WorkingSessionRef session, String query, MemoryTier tier, int limit)
            throws InvalidInputException;

    /**
     * Items matching a filter, short-term first, each tier newest first. Not an access.
     *
     * @param session the session
     * @param filter  the criteria; {@code null} matches every item
     * @return at most the filter's limit of items
     * @throws InvalidInputException when an id or a criterion breaks a rule (e.g. {@code metadata.colour},
     *                               {@code minImportance}, {@code limit})
     */
    @RequiresRole(RequiresRole.READER)
    List<WorkingItem> retrieve(WorkingSessionRef session, WorkingItemFilter filter) throws InvalidInputException;

    /**
     * Changes an item; not an access.
     *
     * @param session the session
     * @param itemId  the item
     * @param change  what to change; {@code null} fields stay
     * @return the item afterwards
     * @throws NotFoundException     when the session holds no such item
     * @throws InvalidInputException when an id or a field breaks a rule
     */
    @RequiresRole(RequiresRole.WRITER)
    WorkingItem update(WorkingSessionRef session, long itemId, WorkingItemChange change)
            throws NotFoundException, InvalidInputException;

    /**
     * Deletes an item.
     *
     * @param session the session
     * @param itemId  the item
     * @throws NotFoundException     when the session holds no such item
     * @throws InvalidInputException when an id breaks a rule
     */
    @RequiresRole(RequiresRole.WRITER)
    void delete(WorkingSessionRef session, long itemId) throws NotFoundException, InvalidInputException;

    /**
     * Deletes every item of the session, of both tiers, and its context stack.
     *
     * @param session the session
     * @return what was deleted; zeros when nothing was there
     * @throws InvalidInputException when an id breaks a rule
     */
    @RequiresRole(RequiresRole.WRITER)
    ClearedSession clear(WorkingSessionRef session) throws InvalidInputException;

    /**
     * Pushes a frame onto the session's context stack; it becomes the current context.
     *
     * @param session the session
     * @param type    the kind of situation, 1–128 code points, no control characters
     * @param data    a JSON object of at most {@value #MAX_FRAME_DATA} code points of keys and values, or {@code null}
     *                for an empty one
     * @return the stack afterwards
     * @throws InvalidInputException when an id, the type or the data breaks a rule, or the stack already holds
     *                               {@value #MAX_STACK_DEPTH} frames (field {@code type}, rule {@code max-depth})
     */
    @RequiresRole(RequiresRole.WRITER)
    ContextStack pushContext(WorkingSessionRef session, String type, Map<String, Object> data)
            throws InvalidInputException;

    /**
     * Pops the top frame of the session's context stack.
     *
     * @param session the session
     * @return the frame popped ({@code null} when the stack was empty) and the stack afterwards
     * @throws InvalidInputException when an id breaks a rule
     */
    @RequiresRole(RequiresRole.WRITER)
    ContextPop popContext(WorkingSessionRef session) throws InvalidInputException;

    /**
     * @param session the session
     * @return the session's context stack; empty for a session never written
     * @throws InvalidInputException when an id breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    ContextStack contextStack(WorkingSessionRef session) throws InvalidInputException;

    /**
     * @param session the session
     * @return the session's context summary
     * @throws InvalidInputException when an id breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    WorkingSummary summary(WorkingSessionRef session) throws InvalidInputException;
}

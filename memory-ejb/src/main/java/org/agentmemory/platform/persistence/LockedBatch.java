package org.agentmemory.platform.persistence;

import jakarta.persistence.LockModeType;
import jakarta.persistence.TypedQuery;
import java.util.List;

/**
 * Takes a batch of rows for background work (embedding, re-embedding) so that several workers — the embedders of
 * every server of a cluster — share a queue without waiting for each other: the rows are locked for the
 * transaction ({@code SELECT … FOR UPDATE}) and rows another transaction holds are skipped ({@code SKIP LOCKED},
 * lock timeout {@code -2} in Hibernate; on a database without it, the lock waits).
 */
public final class LockedBatch {

    /** Hibernate's lock timeout meaning "skip locked rows". */
    private static final int SKIP_LOCKED = -2;

    private LockedBatch() {}

    /**
     * @param query the rows to work on, in the order to take them (in a transaction)
     * @param max   at most this many rows
     * @param <T>   the entity type
     * @return the rows taken, locked until the transaction ends
     */
    public static <T> List<T> take(TypedQuery<T> query, int max) {
        return query.setMaxResults(max)
                .setLockMode(LockModeType.PESSIMISTIC_WRITE)
                .setHint("jakarta.persistence.lock.timeout", SKIP_LOCKED)
                .getResultList();
    }
}

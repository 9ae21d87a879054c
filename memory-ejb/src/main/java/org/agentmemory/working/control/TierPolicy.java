package org.agentmemory.working.control;

import java.util.List;
import org.agentmemory.api.working.MemoryTier;

/**
 * Where a working-memory item belongs (seed 003 {@code ContextualMemory.save} and {@code _check_promotion}).
 *
 * @param shortTermCapacity   most short-term items per session, ≥ 1 (seed: 20)
 * @param promotionAccesses   reads by id that promote a short-term item, ≥ 1 (seed: 3)
 * @param importanceThreshold importance at or above which an item is long-term, 0–1 (seed: 0.7)
 */
public record TierPolicy(int shortTermCapacity, int promotionAccesses, double importanceThreshold) {

    /** Importance of an item stored without one (seed 003 {@code save(importance=0.5)}). */
    public static final double DEFAULT_IMPORTANCE = 0.5;

    /** The seed's defaults. */
    public static final TierPolicy SEED = new TierPolicy(20, 3, 0.7);

    /**
     * @throws IllegalArgumentException when a value is out of its range
     */
    public TierPolicy {
        if (shortTermCapacity < 1) {
            throw new IllegalArgumentException("shortTermCapacity is " + shortTermCapacity + "; it must be ≥ 1.");
        }
        if (promotionAccesses < 1) {
            throw new IllegalArgumentException("promotionAccesses is " + promotionAccesses + "; it must be ≥ 1.");
        }
        if (!(importanceThreshold >= 0 && importanceThreshold <= 1)) {
            throw new IllegalArgumentException(
                    "importanceThreshold is " + importanceThreshold + "; it must be between 0 and 1.");
        }
    }

    /**
     * @param importance the new item's importance, 0–1
     * @param longTerm   whether the caller asks for the long-term tier
     * @return {@link MemoryTier#LONG_TERM} when asked for or when the importance reaches the threshold, else
     *         {@link MemoryTier#SHORT_TERM}
     */
    public MemoryTier tierOf(double importance, boolean longTerm) {
        return longTerm || importance >= importanceThreshold ? MemoryTier.LONG_TERM : MemoryTier.SHORT_TERM;
    }

    /**
     * Whether a read by id promotes the item. The seed copies the item to long-term storage on every read once the
     * count is reached (and leaves it in short-term memory, where searches find it twice); here a promotion moves the
     * item, so it happens once.
     *
     * @param tier        the item's tier before the read
     * @param accessCount its access count after the read
     * @return whether it moves to the long-term tier now
     */
    public boolean promotedByAccess(MemoryTier tier, long accessCount) {
        return tier == MemoryTier.SHORT_TERM && accessCount >= promotionAccesses;
    }

    /**
     * Whether a change of importance promotes the item. The seed checks the importance only when an item is saved;
     * the issue promotes "at importance ≥ threshold", so an update that raises it promotes the item too.
     *
     * @param tier       the item's tier before the change
     * @param importance its importance after the change
     * @return whether it moves to the long-term tier now
     */
    public boolean promotedByImportance(MemoryTier tier, double importance) {
        return tier == MemoryTier.SHORT_TERM && importance >= importanceThreshold;
    }

    /**
     * The short-term items to evict so that the tier holds at most its capacity (FIFO: the oldest first).
     *
     * @param shortTerm the session's short-term items, oldest first, the new one included
     * @param <T>       what identifies an item
     * @return the first {@code max(0, size − capacity)} of them, oldest first
     */
    public <T> List<T> evictions(List<T> shortTerm) {
        int excess = shortTerm.size() - shortTermCapacity;
        return excess <= 0 ? List.of() : List.copyOf(shortTerm.subList(0, excess));
    }
}

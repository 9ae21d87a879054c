package org.agentmemory.working.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.agentmemory.api.working.MemoryTier;
import org.junit.jupiter.api.Test;

/** The tier rules of seed 003: routing by importance, FIFO eviction, promotion by access and by importance. */
class TierPolicyTest {

    private final TierPolicy seed = TierPolicy.SEED;

    @Test
    void theSeedsDefaultsAreCapacityTwentyThreeAccessesAndImportanceSevenTenths() {
        assertThat(seed.shortTermCapacity()).isEqualTo(20);
        assertThat(seed.promotionAccesses()).isEqualTo(3);
        assertThat(seed.importanceThreshold()).isEqualTo(0.7);
        assertThat(TierPolicy.DEFAULT_IMPORTANCE).isEqualTo(0.5);
    }

    @Test
    void anItemAtOrAboveTheImportanceThresholdGoesStraightToLongTerm() {
        assertThat(seed.tierOf(0.69, false)).isEqualTo(MemoryTier.SHORT_TERM);
        assertThat(seed.tierOf(0.7, false)).isEqualTo(MemoryTier.LONG_TERM);
        assertThat(seed.tierOf(1.0, false)).isEqualTo(MemoryTier.LONG_TERM);
        assertThat(seed.tierOf(TierPolicy.DEFAULT_IMPORTANCE, false)).isEqualTo(MemoryTier.SHORT_TERM);
    }

    @Test
    void askingForLongTermStoresThereWhateverTheImportance() {
        assertThat(seed.tierOf(0.0, true)).isEqualTo(MemoryTier.LONG_TERM);
    }

    @Test
    void evictionTakesTheOldestBeyondTheCapacityFirst() {
        List<Long> shortTerm =
                new ArrayList<>(LongStream.rangeClosed(1, 21).boxed().toList());
        assertThat(seed.evictions(shortTerm)).containsExactly(1L);
        shortTerm.add(22L);
        assertThat(seed.evictions(shortTerm)).containsExactly(1L, 2L);
    }

    @Test
    void nothingIsEvictedUpToTheCapacity() {
        assertThat(seed.evictions(LongStream.rangeClosed(1, 20).boxed().toList()))
                .isEmpty();
        assertThat(seed.evictions(List.of())).isEmpty();
    }

    @Test
    void aLoweredCapacityEvictsEveryExcessItemOldestFirst() {
        TierPolicy small = new TierPolicy(2, 3, 0.7);
        assertThat(small.evictions(List.of("a", "b", "c", "d", "e"))).containsExactly("a", "b", "c");
    }

    @Test
    void aShortTermItemIsPromotedAtTheThirdAccessNotBefore() {
        assertThat(seed.promotedByAccess(MemoryTier.SHORT_TERM, 1)).isFalse();
        assertThat(seed.promotedByAccess(MemoryTier.SHORT_TERM, 2)).isFalse();
        assertThat(seed.promotedByAccess(MemoryTier.SHORT_TERM, 3)).isTrue();
    }

    @Test
    void aLongTermItemIsNeverPromotedAgain() {
        // The seed copies the item to long-term memory on every read past the threshold; a move happens once.
        assertThat(seed.promotedByAccess(MemoryTier.LONG_TERM, 3)).isFalse();
        assertThat(seed.promotedByAccess(MemoryTier.LONG_TERM, 4)).isFalse();
        assertThat(seed.promotedByImportance(MemoryTier.LONG_TERM, 0.9)).isFalse();
    }

    @Test
    void raisingTheImportanceToTheThresholdPromotes() {
        assertThat(seed.promotedByImportance(MemoryTier.SHORT_TERM, 0.69)).isFalse();
        assertThat(seed.promotedByImportance(MemoryTier.SHORT_TERM, 0.7)).isTrue();
    }

    @Test
    void valuesOutOfRangeAreRefusedNamingThem() {
        assertThatThrownBy(() -> new TierPolicy(0, 3, 0.7)).hasMessageContaining("shortTermCapacity");
        assertThatThrownBy(() -> new TierPolicy(20, 0, 0.7)).hasMessageContaining("promotionAccesses");
        assertThatThrownBy(() -> new TierPolicy(20, 3, Double.NaN)).hasMessageContaining("importanceThreshold");
        assertThatThrownBy(() -> new TierPolicy(20, 3, 1.5)).hasMessageContaining("importanceThreshold");
    }
}

package org.agentmemory.platform.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class IndexDiffTest {

    private final List<Long> reindex = new ArrayList<>();
    private final List<Long> purge = new ArrayList<>();

    private long compare(IndexDiff diff, IndexDiff.Row... rows) {
        return diff.compare(List.of(rows).iterator(), IndexDiff.collecting(reindex::add, purge::add));
    }

    private static IndexDiff.Row row(long id, String state) {
        return new IndexDiff.Row(id, state);
    }

    @Test
    void agreeingSidesHaveNoDifference() {
        IndexDiff diff = new IndexDiff();
        diff.indexed(3, "m");
        diff.indexed(1, null);
        assertThat(compare(diff, row(1, null), row(3, "m"))).isZero();
        assertThat(reindex).isEmpty();
        assertThat(purge).isEmpty();
    }

    @Test
    void missingStaleAndGhostDocumentsAreNamedInIdOrder() {
        IndexDiff diff = new IndexDiff();
        // Index order is arbitrary (Lucene's document order); the rows come sorted.
        diff.indexed(9, "m"); // ghost (no row)
        diff.indexed(2, null); // stale: the row has a vector now
        diff.indexed(1, "m"); // ghost
        diff.indexed(5, "m");
        assertThat(compare(diff, row(2, "m"), row(4, null), row(5, "m"), row(7, "other")))
                .isEqualTo(5);
        assertThat(reindex).containsExactly(2L, 4L, 7L);
        assertThat(purge).containsExactly(1L, 9L);
    }

    @Test
    void anEmptyIndexReindexesEveryRowAndAnEmptyTablePurgesEveryDocument() {
        IndexDiff empty = new IndexDiff();
        assertThat(compare(empty, row(1, null), row(2, "m"))).isEqualTo(2);
        assertThat(reindex).containsExactly(1L, 2L);
        IndexDiff full = new IndexDiff();
        LongStream.rangeClosed(1, 3000).forEach(id -> full.indexed(id, "m"));
        assertThat(full.documents()).isEqualTo(3000);
        assertThat(compare(full)).isEqualTo(3000);
        assertThat(purge).hasSize(3000).startsWith(1L, 2L).endsWith(3000L);
    }

    @Test
    void rowsOutOfOrderAndIdsOutOfRangeAreRefused() {
        IndexDiff diff = new IndexDiff();
        assertThatThrownBy(() -> compare(diff, row(2, null), row(1, null)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> diff.indexed(-1, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> diff.indexed(IndexDiff.MAX_ID + 1, null)).isInstanceOf(IllegalArgumentException.class);
        diff.indexed(IndexDiff.MAX_ID, "m");
        assertThat(compare(diff, row(IndexDiff.MAX_ID, "m"))).isZero();
    }

    @Test
    void chunksCoverEveryIdOnce() {
        List<List<Long>> parts = new ArrayList<>();
        IndexDiff.inChunks(LongStream.range(0, 1201).boxed().toList(), 500, p -> parts.add(List.copyOf(p)));
        assertThat(parts).extracting(List::size).containsExactly(500, 500, 201);
    }
}

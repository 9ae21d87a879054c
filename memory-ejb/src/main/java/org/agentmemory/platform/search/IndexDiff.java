package org.agentmemory.platform.search;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * Compares what a search index holds with what the database holds, document by row, and says which ids to index
 * again and which to purge. Used after an unclean stop, when the index may lack writes that were committed to the
 * database (applied to the index writer but not yet committed when the process died) or hold documents of rows the
 * database no longer has (a delete committed, its purge lost).
 *
 * <p>A row and its document agree when both exist and carry the same <em>state</em>: a short string that changes
 * whenever an indexed field of the row changes after it was written (for messages and episodes, the embedding model
 * that gave the vector, or {@code null} while none did). Pure, container-free.
 *
 * <p>The index side is collected into memory as packed longs, 8 bytes per document; the database side streams in
 * id order.
 */
public final class IndexDiff {

    /** Distinct states one index may hold (model names and "none"): more is a mapping error. */
    static final int MAX_STATES = 256;
    /** Largest id the packed form holds. */
    static final long MAX_ID = Long.MAX_VALUE / MAX_STATES;

    private final Map<String, Integer> codes = new HashMap<>();
    private final List<String> states = new java.util.ArrayList<>();
    private long[] packed = new long[1024];
    private int size;
    private boolean sorted = true;

    /** A row of the database: its id and state. */
    public record Row(long id, String state) {}

    /** What differs. */
    public interface Actions {
        /** @param id a row whose document is missing or stale: index it again */
        void reindex(long id);

        /** @param id a document without a row: purge it */
        void purge(long id);
    }

    /**
     * Adds a document the index holds.
     *
     * @param id    the document's id, 0 to {@value #MAX_ID}
     * @param state its state, {@code null} allowed
     * @throws IllegalArgumentException when the id is out of range or more than {@value #MAX_STATES} states occur
     */
    public void indexed(long id, String state) {
        if (id < 0 || id > MAX_ID) {
            throw new IllegalArgumentException("document id " + id + " is outside 0.." + MAX_ID);
        }
        Integer code = codes.get(state);
        if (code == null) {
            if (states.size() == MAX_STATES) {
                throw new IllegalArgumentException("more than " + MAX_STATES + " distinct states in one index");
            }
            code = states.size();
            codes.put(state, code);
            states.add(state);
        }
        if (size == packed.length) {
            packed = Arrays.copyOf(packed, size * 2);
        }
        long value = id * MAX_STATES + code;
        if (size > 0 && value < packed[size - 1]) {
            sorted = false;
        }
        packed[size++] = value;
    }

    /** @return how many documents were added */
    public int documents() {
        return size;
    }

    /**
     * Walks the database's rows against the documents added.
     *
     * @param rows    every row of the entity, in ascending id order
     * @param actions told of every difference, in ascending id order within each kind
     * @return how many differences were found
     * @throws IllegalArgumentException when the rows are not in ascending id order
     */
    public long compare(Iterator<Row> rows, Actions actions) {
        if (!sorted) {
            Arrays.sort(packed, 0, size);
            sorted = true;
        }
        long differences = 0;
        int i = 0;
        long previous = -1;
        while (rows.hasNext()) {
            Row row = rows.next();
            if (row.id() <= previous) {
                throw new IllegalArgumentException("rows out of order: " + row.id() + " after " + previous);
            }
            previous = row.id();
            while (i < size && idAt(i) < row.id()) {
                actions.purge(idAt(i++));
                differences++;
            }
            if (i < size && idAt(i) == row.id()) {
                if (!Objects.equals(stateAt(i), row.state())) {
                    actions.reindex(row.id());
                    differences++;
                }
                i++;
                while (i < size && idAt(i) == row.id()) { // the same id twice: keep one, written anew
                    i++;
                }
            } else {
                actions.reindex(row.id());
                differences++;
            }
        }
        while (i < size) {
            actions.purge(idAt(i++));
            differences++;
        }
        return differences;
    }

    /**
     * @param ids  the ids to split
     * @param size the largest part
     * @param each receives each part's ids
     */
    public static void inChunks(List<Long> ids, int size, java.util.function.Consumer<List<Long>> each) {
        for (int from = 0; from < ids.size(); from += size) {
            each.accept(ids.subList(from, Math.min(ids.size(), from + size)));
        }
    }

    /** @return an {@link Actions} that adds to two lists */
    public static Actions collecting(LongConsumer reindex, LongConsumer purge) {
        return new Actions() {
            @Override
            public void reindex(long id) {
                reindex.accept(id);
            }

            @Override
            public void purge(long id) {
                purge.accept(id);
            }
        };
    }

    private long idAt(int i) {
        return packed[i] / MAX_STATES;
    }

    private String stateAt(int i) {
        return states.get((int) (packed[i] % MAX_STATES));
    }
}

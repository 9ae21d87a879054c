package org.agentmemory.api.conversation;

import java.io.Serializable;
import java.util.List;

/**
 * What an import did. A bad line is reported and skipped; it never aborts the good ones.
 *
 * @param linesRead            non-blank lines read
 * @param turnsImported        turns written
 * @param duplicates           lines whose turn id already existed in its conversation (nothing written)
 * @param conversationsCreated conversations that did not exist before
 * @param errors               one entry per rejected line, in line order; never {@code null}
 */
public record ImportReport(long linesRead, long turnsImported, long duplicates, long conversationsCreated,
        List<LineError> errors) implements Serializable {

    public ImportReport {
        errors = errors == null ? List.of() : List.copyOf(errors);
    }

    /**
     * Why one line was rejected.
     *
     * @param line    1-based line number
     * @param field   the offending field path, or {@code null} when the line is not valid JSON
     * @param message what is wrong and how to fix it
     */
    public record LineError(long line, String field, String message) implements Serializable {
    }
}

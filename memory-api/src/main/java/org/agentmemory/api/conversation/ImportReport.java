package org.agentmemory.api.conversation;

import java.io.Serializable;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What an import did. A bad line is reported and skipped; it never aborts the good ones.
 *
 * @param linesRead            non-blank lines read
 * @param turnsImported        turns written
 * @param duplicates           lines whose turn id already existed in its conversation (nothing written)
 * @param conversationsCreated conversations that did not exist before
 * @param errors               one entry per rejected line, in line order; never {@code null}
 */
@Schema(description = "What an import did. A bad line is reported and skipped; it never aborts the good ones.")
public record ImportReport(
        @Schema(description = "Non-blank lines read.") long linesRead,
        @Schema(description = "Turns written.") long turnsImported,

        @Schema(description = "Lines whose turn id already existed in its conversation (nothing written).")
        long duplicates,

        @Schema(description = "Conversations that did not exist before.")
        long conversationsCreated,

        @Schema(description = "One entry per rejected line, in line order; never null.")
        List<LineError> errors)
        implements Serializable {

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
    @Schema(description = "Why one line of an import was rejected.")
    public record LineError(
            @Schema(description = "1-based line number.") long line,

            @Schema(
                    description = "The offending field path, or null when the line as a whole is wrong (too long,"
                            + " not valid UTF-8, not valid JSON, or it could not be stored).")
            String field,

            @Schema(description = "What is wrong and how to fix it.")
            String message)
            implements Serializable {}
}

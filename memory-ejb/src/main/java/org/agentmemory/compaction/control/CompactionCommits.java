package org.agentmemory.compaction.control;

import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.compaction.CompactionCommit;
import org.agentmemory.api.compaction.CompactionState;
import org.agentmemory.platform.validation.InputRules;

/**
 * Checks a client's {@link CompactionCommit} and folds it into a conversation's metadata (spec §4
 * {@code apply_commit}, §5.4 steps 8–9). Pure: the caller writes the returned metadata in the transaction of
 * the turn and fires the Stage-2 event when {@link Folded#stage2Flipped()}.
 */
public final class CompactionCommits {

    private CompactionCommits() {}

    /**
     * @param field  the commit's field name in the request, for messages (e.g. {@code compaction})
     * @param commit the commit; never {@code null}
     * @throws InvalidInputException when the boundary is not a valid turn id (1–128 code points, no control
     *                               characters) or a telemetry field is negative
     */
    public static void check(String field, CompactionCommit commit) throws InvalidInputException {
        Objects.requireNonNull(commit, "commit");
        InputRules.checkOptionalId(field + ".boundaryTurnId", commit.boundaryTurnId());
        nonNegative(field + ".historyEstimate", commit.historyEstimate());
        nonNegative(field + ".droppedTurns", commit.droppedTurns());
        nonNegative(field + ".available", commit.available());
    }

    private static void nonNegative(String field, long value) throws InvalidInputException {
        if (value < 0) {
            throw new InvalidInputException(
                    field,
                    "min",
                    field + " is " + value
                            + "; it must be 0 or more (send back the commit the context call returned, unchanged).");
        }
    }

    /**
     * The result of folding a commit.
     *
     * @param previous      the stored state before, or {@code null} when the conversation had none
     * @param state         the state after
     * @param metadata      the conversation's metadata with {@code "compaction"} replaced by {@code state}
     * @param stage2Flipped the stored Stage-2 flag was false (or absent) and is now true: fire the event
     */
    public record Folded(
            CompactionState previous, CompactionState state, Map<String, Object> metadata, boolean stage2Flipped) {}

    /**
     * Folds a commit into a conversation's metadata: {@link Calibration#applyCommit} of the stored state with the
     * provider prompt tokens of the turn being saved ({@link Calibration#providerPromptTokens}).
     *
     * @param metadata     the conversation's metadata; not mutated
     * @param commit       the round's commit; never {@code null}
     * @param tokenizer    the memory counter's name
     * @param turnMetadata the saved turn's metadata (its {@code usage}), or {@code null}
     * @param clock        the clock of {@code updated_at}
     * @return the new state and metadata
     */
    public static Folded fold(
            Map<String, ?> metadata,
            CompactionCommit commit,
            String tokenizer,
            Map<String, ?> turnMetadata,
            Clock clock) {
        CompactionState previous = CompactionMetadata.read(metadata);
        CompactionState state = Calibration.applyCommit(
                previous, commit, tokenizer, Calibration.providerPromptTokens(turnMetadata), clock);
        boolean flipped = state.stage2Needed() && (previous == null || !previous.stage2Needed());
        return new Folded(previous, state, CompactionMetadata.with(metadata, state), flipped);
    }
}

package org.agentmemory.conversation.control;

import java.time.Clock;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.compaction.CompactionCommit;
import org.agentmemory.api.compaction.CompactionState;
import org.agentmemory.api.compaction.Stage2CompactionNeeded;
import org.agentmemory.api.conversation.AppendedTurn;
import org.agentmemory.compaction.control.Calibration;
import org.agentmemory.compaction.control.CompactionCommits;
import org.agentmemory.compaction.control.CompactionMetadata;
import org.agentmemory.conversation.entity.Conversation;

/**
 * The compaction state a conversation keeps in its metadata (spec §1.4, §4: the only compaction state ever
 * persisted), updated under the conversation's row lock: folded with the commit a bot sends back with its next turn,
 * and calibrated by the provider's reported usage.
 */
public final class CompactionStates {

    private CompactionStates() {}

    /**
     * @param field  the field name for errors
     * @param commit a round's commit
     * @throws InvalidInputException when a number is negative
     */
    public static void check(String field, CompactionCommit commit) throws InvalidInputException {
        CompactionCommits.check(field, commit);
    }

    /**
     * Spec §4 add_turn: folds the round's commit into the locked conversation's state in the same write as the turn
     * (nothing for a repeated turn id or without a commit).
     *
     * @param c         the locked conversation
     * @param appended  the turn just appended (or found stored)
     * @param commit    the round's commit, or {@code null}
     * @param tokenizer the tokenizer's name
     * @return the event to fire after the commit when the Stage-2 flag flipped, else {@code null}
     */
    public static Stage2CompactionNeeded fold(
            Conversation c, AppendedTurn appended, CompactionCommit commit, String tokenizer) {
        if (!appended.created() || commit == null) {
            return null;
        }
        CompactionCommits.Folded folded = CompactionCommits.fold(
                c.getMetadata(), commit, tokenizer, appended.turn().metadata(), Clock.systemUTC());
        c.setMetadata(folded.metadata(), ConversationWriter.now());
        return folded.stage2Flipped()
                ? new Stage2CompactionNeeded(
                        c.getTenantId(), c.getId(), commit.historyEstimate(), commit.available(), commit.droppedTurns())
                : null;
    }

    /**
     * Issue 35 item 4: whether the round's commit, just folded, calls for a Stage 2 refresh: the turn was appended,
     * the commit reports dropped turns and the conversation's (sticky) Stage-2 flag is set.
     *
     * @param c        the locked conversation, after {@link #fold}
     * @param appended the turn just appended (or found stored)
     * @param commit   the round's commit, or {@code null}
     * @return the event to fire after the commit, or {@code null}
     */
    public static TurnsDropped dropped(Conversation c, AppendedTurn appended, CompactionCommit commit) {
        if (!appended.created() || commit == null || commit.droppedTurns() <= 0) {
            return null;
        }
        CompactionState state = CompactionMetadata.read(c.getMetadata());
        return state != null && state.stage2Needed()
                ? new TurnsDropped(c.getTenantId(), c.getId(), appended.turn().turnId(), commit.droppedTurns())
                : null;
    }

    /**
     * Spec §4 report_usage: calibrates the locked conversation's state with the provider's prompt tokens.
     *
     * @param c                    the locked conversation
     * @param promptEstimate       the service's estimate of the prompt, tokens
     * @param providerPromptTokens the provider's count, tokens
     * @param tokenizer            the tokenizer's name (for a first state)
     * @return the state after the report
     */
    public static CompactionState applyUsage(
            Conversation c, long promptEstimate, long providerPromptTokens, String tokenizer) {
        CompactionState previous = CompactionMetadata.read(c.getMetadata());
        CompactionState base = previous == null ? CompactionState.initial(tokenizer) : previous;
        CompactionState next = Calibration.applyUsage(base, promptEstimate, providerPromptTokens, Clock.systemUTC());
        if (next != base) {
            c.setMetadata(CompactionMetadata.with(c.getMetadata(), next), ConversationWriter.now());
        }
        return next;
    }
}

package org.agentmemory.api.context;

import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.compaction.HistorySummary;
import org.agentmemory.api.conversation.ConversationKey;

/**
 * The read path of conversation memory (spec §5, §7.4, §8, §9): a conversation's history compacted into a
 * model's token budget, recovery of the content the compaction left out, and the long-term context assembly.
 *
 * <p>Shared by the local view {@link ContextMemory} and the remote view {@link ContextMemoryRemote}. Sizes are
 * tokens of the memory's counter (the configured tokenizer) unless a name says otherwise. Arguments are checked
 * before anything is read; a broken rule is an {@link InvalidInputException} naming the field.
 *
 * <p>The round trip of a bot (spec §5.4): call {@link #context} before the model call, send
 * {@link ConversationContext#messages()} as the history, then save the round's turn together with
 * {@link ConversationContext#commit()} ({@code ConversationMemoryOperations.addTurn(key, turn, commit)}), which
 * persists the boundary, the calibration and the Stage-2 flag for the next round.
 */
public interface ContextMemoryOperations {

    /** §7.4: the answer of {@link #readOmittedContent} without a conversation scope (fail closed). */
    String UNAVAILABLE_MESSAGE = "read_omitted_content is unavailable in this context (no active conversation scope).";

    /** §7.2 {@code EXPIRED_MESSAGE}; {@code %s} is the content id. */
    String EXPIRED_MESSAGE =
            "Omitted content %s is unknown or may have expired \u2014 re-run the tool to regenerate it.";

    /** §7.4: the answer for a turn without retrievable content; {@code %s} is the turn id. */
    String TURN_UNKNOWN_MESSAGE =
            "No omitted content is known for turn %s \u2014 it may have expired; re-run the tool.";

    /** §7.4: the answer when neither a content id nor a turn id is given. */
    String PROVIDE_MESSAGE = "Provide content_id (om_\u2026) or turn_id.";

    /**
     * Compacts and renders a conversation's history for one round (spec §5.4 steps 1–5, §8.5, §8.6): loads its
     * turns and its persisted compaction state ({@code metadata["compaction"]}: boundary, calibration), resolves
     * the budget, runs the tiered walk, stores every omission the rendered messages refer to (before returning,
     * in its own transaction under the conversation's row lock), and returns the messages with the commit to
     * send back. Nothing else is written: the boundary and the calibration change only when the commit comes
     * back with the round's turn.
     *
     * <p>Never fails because of the budget: any window, reserves, prompt sizes and cap ≥ 0 give an answer,
     * with zero messages and a {@link ConversationContext#note()} when nothing fits.
     *
     * @param key     the conversation key; a key without a conversation yet gives an empty answer
     *                ({@link ContextOutcome#NOTHING_TO_RENDER}, {@code conversationId == null}), as the first round
     *                of a session has no history
     * @param request the budget and rendering parameters; {@code null} = {@link ContextRequest#forModel(String)
     *                forModel(null)}
     * @return the rendered history, never {@code null}
     * @throws InvalidInputException when an id of the key or a request field breaks a rule (negative sizes,
     *                               {@code maxTurns} &lt; 1, a prompt given both as size and text, …)
     */
    @RequiresRole(RequiresRole.READER)
    ConversationContext context(ConversationKey key, ContextRequest request) throws InvalidInputException;

    /**
     * As {@link #context}, for a conversation named by the service's id.
     *
     * @param tenantId       the caller's tenant
     * @param conversationId the conversation
     * @param request        the budget and rendering parameters; {@code null} = defaults
     * @return the rendered history, never {@code null}
     * @throws NotFoundException     when the conversation does not exist in the tenant
     * @throws InvalidInputException when a request field breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    ConversationContext contextById(String tenantId, long conversationId, ContextRequest request)
            throws NotFoundException, InvalidInputException;

    /**
     * The recovery tool {@code read_omitted_content} (spec §7.4), scoped to one conversation. It never throws;
     * it answers with text an agent can hand to its model as the tool's result:
     * <ul>
     *   <li>no scope ({@code tenantId} {@code null}, or no such conversation in the tenant):
     *       {@link #UNAVAILABLE_MESSAGE}, without touching the store (fail closed);</li>
     *   <li>{@code contentId} given (non-empty): the exact stored content, or {@link #EXPIRED_MESSAGE} with the
     *       id;</li>
     *   <li>else {@code turnId} given (non-empty): for each content id recorded for the turn (write-time offloads
     *       and render-time omissions, in insertion order), a block {@code <omitted id="om_…">} LF content LF
     *       {@code </omitted>}; blocks joined with LF; {@link #TURN_UNKNOWN_MESSAGE} with the turn id when there
     *       is none;</li>
     *   <li>neither: {@link #PROVIDE_MESSAGE}.</li>
     * </ul>
     *
     * @param tenantId       the caller's tenant, or {@code null} (no scope)
     * @param conversationId the conversation
     * @param contentId      {@code om_} + 16 hex digits, or {@code null}
     * @param turnId         a turn id, or {@code null}; used only when {@code contentId} is absent
     * @return the tool's answer; never {@code null}
     */
    @RequiresRole(RequiresRole.READER)
    String readOmittedContent(String tenantId, long conversationId, String contentId, String turnId);

    /**
     * The stored Stage 2 summary of a conversation's earlier turns (issue 35 item 4), as {@link #context} puts it in
     * front of the shown turns. It is written in the background after a round's commit dropped turns and its
     * conversation's Stage-2 flag is set, so it may lag the newest commit by the time one summary call takes.
     *
     * @param tenantId       the caller's tenant
     * @param conversationId the conversation
     * @return the summary, or {@code null} when none is stored yet
     * @throws NotFoundException when the conversation does not exist in the tenant
     */
    @RequiresRole(RequiresRole.READER)
    HistorySummary summary(String tenantId, long conversationId) throws NotFoundException;

    /**
     * Assembles the long-term context of a query (spec §9.2): the episodic-warning, skill and brain sections
     * from the plugged-in {@link ContextSectionProvider}s (empty when none is plugged in), and the conversation
     * section from the compacted history of {@link #context} flattened to {@code User: …} / {@code Assistant: …}
     * lines (fix of the reference, which rendered raw, uncompacted turns), fitted together into
     * {@code maxContextTokens} by the spec's weights, rollover and truncation. Omissions the conversation
     * section mentions are stored before returning, as for {@link #context}.
     *
     * @param key     the conversation key; a key without a conversation gives an empty conversation section
     * @param request the query, configuration and compaction parameters; never {@code null}
     * @return the sections, their estimate and the prompt string; never {@code null}
     * @throws InvalidInputException when the query is missing or a configuration or compaction field breaks a
     *                               rule (the weight rule names the weights and their sum)
     */
    @RequiresRole(RequiresRole.READER)
    AssembledContext assemble(ConversationKey key, ContextAssemblyRequest request) throws InvalidInputException;

    /**
     * As {@link #assemble}, for a conversation named by the service's id.
     *
     * @param tenantId       the caller's tenant
     * @param conversationId the conversation
     * @param request        the query, configuration and compaction parameters; never {@code null}
     * @return the sections, their estimate and the prompt string; never {@code null}
     * @throws NotFoundException     when the conversation does not exist in the tenant
     * @throws InvalidInputException when a field breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    AssembledContext assembleById(String tenantId, long conversationId, ContextAssemblyRequest request)
            throws NotFoundException, InvalidInputException;
}

package org.agentmemory.conversation.control;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.api.omission.Omission;
import org.agentmemory.omission.control.ContentIds;
import org.agentmemory.omission.control.Previews;
import org.agentmemory.platform.text.CodePoints;
import org.agentmemory.platform.tokens.TokenCounter;
import org.agentmemory.platform.tokens.TurnTokens;

/**
 * Everything the write path computes before it touches the database (spec §6 steps 1, 2, 4, 5, 6):
 * normalization, token counting and the write-time offload of oversized tool outputs.
 */
public final class TurnPreparer {

    /** Default write-time offload threshold in tokens (spec §5.1 / §6: {@code oversize_tool_tokens}). */
    public static final int DEFAULT_OVERSIZE_TOOL_TOKENS = 2000;

    /** Schema version of every turn this service writes (spec §6 step 6). */
    public static final int SCHEMA_VERSION = 2;

    private TurnPreparer() {}

    /**
     * Prepares a turn for storage, in spec §6 order:
     * <ol>
     * <li>when {@code normalize} is on, {@link Normalizer#normalizeTurn};</li>
     * <li>count tokens ({@link TurnTokens#countTurn}): ALWAYS, since a count sent by a client is never
     * trusted (stricter than the spec's {@code needs_recount}, which would keep a count with the right
     * tokenizer name);</li>
     * <li>for each invocation whose output is non-empty, whose {@code omitted} has no {@code "output"} key and
     * whose output has strictly more than {@code oversizeToolTokens} tokens: content id
     * {@link ContentIds#contentId} over the (normalized) output, {@code outputChars} = the output's length in
     * code points, output = {@link Previews#preview} (200 code points + {@code " …(+N chars)"}),
     * {@code omitted["output"]} = the id, and one {@link Omission} (field {@code "output"}) per distinct id,
     * the first invocation's tool name winning;</li>
     * <li>when anything was offloaded, count again;</li>
     * <li>{@code schemaVersion} = 2.</li>
     * </ol>
     * Identity fields (turn id, sequence, timestamp, state) are left to the caller.
     *
     * @param turn               the turn; never {@code null}, with a turn id already assigned; not modified
     * @param normalize          whether Stage 0 runs (counting runs regardless)
     * @param counter            the memory's token counter; never {@code null}
     * @param oversizeToolTokens the offload threshold in tokens, &gt; 0
     * @return the prepared turn and the omissions to store
     * @throws NullPointerException     when {@code turn}, its turn id or {@code counter} is {@code null}
     * @throws IllegalArgumentException when {@code oversizeToolTokens ≤ 0}, or a tool input cannot be written
     *                                  as JSON
     */
    public static PreparedTurn prepare(
            TurnRecord turn, boolean normalize, TokenCounter counter, int oversizeToolTokens) {
        Objects.requireNonNull(turn, "turn");
        Objects.requireNonNull(turn.turnId(), "turn.turnId: assign the turn id before preparing the turn");
        Objects.requireNonNull(counter, "counter");
        if (oversizeToolTokens <= 0) {
            throw new IllegalArgumentException("oversizeToolTokens must be > 0 but was " + oversizeToolTokens
                    + "; the default is " + DEFAULT_OVERSIZE_TOOL_TOKENS + " tokens");
        }
        // Outputs are counted for the turn and again for the threshold; remember counts within this call.
        TokenCounter memo = new MemoizingCounter(counter);

        TurnRecord prepared = normalize ? Normalizer.normalizeTurn(turn) : turn;
        prepared = prepared.withTokenCount(TurnTokens.countTurn(prepared, memo));

        List<ToolInvocationRecord> invocations =
                new ArrayList<>(prepared.toolInvocations().size());
        Map<String, Omission> omissions = new LinkedHashMap<>();
        boolean offloaded = false;
        for (ToolInvocationRecord invocation : prepared.toolInvocations()) {
            String output = invocation.output();
            if (output == null
                    || output.isEmpty()
                    || invocation.omitted().containsKey(Omission.OUTPUT)
                    || memo.count(output) <= oversizeToolTokens) {
                invocations.add(invocation);
                continue;
            }
            String contentId = ContentIds.contentId(output);
            invocations.add(
                    invocation.withOffloadedOutput(Previews.preview(output), CodePoints.length(output), contentId));
            // Identical outputs share one id; the first invocation's entry is kept.
            omissions.putIfAbsent(
                    contentId,
                    new Omission(contentId, output, prepared.turnId(), invocation.toolName(), Omission.OUTPUT));
            offloaded = true;
        }
        if (offloaded) {
            prepared = prepared.withToolInvocations(invocations);
            prepared = prepared.withTokenCount(TurnTokens.countTurn(prepared, memo));
        }
        prepared = prepared.withIdentity(
                prepared.turnId(),
                prepared.sequence(),
                prepared.userId(),
                prepared.timestamp(),
                prepared.chatbotId(),
                prepared.state(),
                SCHEMA_VERSION);
        return new PreparedTurn(prepared, List.copyOf(omissions.values()));
    }

    /**
     * {@link #prepare(TurnRecord, boolean, TokenCounter, int)} with normalization on and the default
     * threshold of {@value #DEFAULT_OVERSIZE_TOOL_TOKENS} tokens.
     *
     * @param turn    the turn, with a turn id; not modified
     * @param counter the memory's token counter
     * @return the prepared turn and the omissions to store
     */
    public static PreparedTurn prepare(TurnRecord turn, TokenCounter counter) {
        return prepare(turn, true, counter, DEFAULT_OVERSIZE_TOOL_TOKENS);
    }

    /** Counts each distinct text once per preparation; tool outputs can be megabytes long. */
    private static final class MemoizingCounter implements TokenCounter {

        private final TokenCounter delegate;
        private final Map<String, Integer> counts = new HashMap<>();

        MemoizingCounter(TokenCounter delegate) {
            this.delegate = delegate;
        }

        @Override
        public String name() {
            return delegate.name();
        }

        @Override
        public int count(String text) {
            if (text == null || text.isEmpty()) {
                return 0;
            }
            return counts.computeIfAbsent(text, delegate::count);
        }
    }
}

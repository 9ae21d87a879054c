package org.agentmemory.conversation.control;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
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
import org.agentmemory.platform.json.CanonicalJson;
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
     * whose (normalized) output has strictly more than {@code oversizeToolTokens} tokens: the omission's content is
     * the output exactly as sent (U+0000 removed), its content id {@link ContentIds#contentId} over that content,
     * {@code outputChars} = its length in code points, output = {@link Previews#preview} of the normalized
     * output (200 code points + {@code " …(+N chars)"}), {@code omitted["output"]} = the id; the same for an
     * input whose canonical JSON is over the threshold (content: the input's JSON in the client's key order;
     * input = {@link Previews#previewInput}) and for an error text (error = its preview), issue 31 item 3. One
     * {@link Omission} per distinct id, the first field's entry winning;</li>
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

        List<ToolInvocationRecord> sent = turn.toolInvocations();
        List<ToolInvocationRecord> invocations =
                new ArrayList<>(prepared.toolInvocations().size());
        Map<String, Omission> omissions = new LinkedHashMap<>();
        Offloads offloads = new Offloads(prepared.turnId(), memo, oversizeToolTokens, omissions);
        for (int i = 0; i < prepared.toolInvocations().size(); i++) {
            invocations.add(offloads.apply(prepared.toolInvocations().get(i), sent.get(i)));
        }
        boolean offloaded = !omissions.isEmpty();
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

    /**
     * The write-time offload of one turn's oversized tool fields. What is measured (and kept as a preview) is the
     * normalized field; what is stored in the omission is the field exactly as the client sent it, so that a
     * recovery returns the tool's bytes (issue 31 item 3; the reference stores the normalized text).
     */
    private static final class Offloads {

        private final String turnId;
        private final TokenCounter counter;
        private final int threshold;
        private final Map<String, Omission> omissions;

        Offloads(String turnId, TokenCounter counter, int threshold, Map<String, Omission> omissions) {
            this.turnId = turnId;
            this.counter = counter;
            this.threshold = threshold;
            this.omissions = omissions;
        }

        /**
         * @param invocation the normalized invocation
         * @param sent       the same invocation as the client sent it
         * @return the invocation with its oversized output, input and error offloaded
         */
        ToolInvocationRecord apply(ToolInvocationRecord invocation, ToolInvocationRecord sent) {
            ToolInvocationRecord out = invocation;
            if (oversized(out.output()) && !out.omitted().containsKey(Omission.OUTPUT)) {
                String exact = exact(sent.output());
                out = out.withOffloadedOutput(
                        Previews.preview(out.output()), CodePoints.length(exact), keep(exact, out, Omission.OUTPUT));
            }
            if (!out.omitted().containsKey(Omission.INPUT) && oversized(CanonicalJson.write(out.input()))) {
                String exact = exact(SentOrderJson.write(sent.input()));
                out = out.withOffloadedInput(Previews.previewInput(out.input()), keep(exact, out, Omission.INPUT));
            }
            if (oversized(out.error()) && !out.omitted().containsKey(Omission.ERROR)) {
                String exact = exact(sent.error());
                out = out.withOffloadedError(Previews.preview(out.error()), keep(exact, out, Omission.ERROR));
            }
            return out;
        }

        private boolean oversized(String text) {
            return text != null && !text.isEmpty() && counter.count(text) > threshold;
        }

        /** Records the omission once per content id (the first field's entry is kept); returns the id. */
        private String keep(String exact, ToolInvocationRecord invocation, String field) {
            String contentId = ContentIds.contentId(exact);
            omissions.putIfAbsent(contentId, new Omission(contentId, exact, turnId, invocation.toolName(), field));
            return contentId;
        }

        /** The sent text without U+0000, which no supported database keeps in a text column. */
        private static String exact(String sent) {
            return sent.indexOf('\u0000') < 0 ? sent : sent.replace("\u0000", "");
        }
    }

    /** Writes a tool input as the client ordered it (the canonical writer sorts keys). */
    private static final class SentOrderJson {

        private static final ObjectMapper MAPPER = JsonMapper.builder().build();

        private SentOrderJson() {}

        static String write(Map<String, Object> input) {
            try {
                return MAPPER.writeValueAsString(input);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException(
                        "Tool input cannot be written as JSON: " + e.getOriginalMessage(), e);
            }
        }
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

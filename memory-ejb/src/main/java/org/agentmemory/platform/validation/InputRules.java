package org.agentmemory.platform.validation;

import java.util.List;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.platform.text.CodePoints;

/**
 * The input rules every entry point (REST, local and remote EJB, import) applies before anything is
 * written. Ids round-trip exactly, so instead of rewriting them the rules reject what cannot round-trip
 * or would be ambiguous: empty or blank ids, ids over {@value ConversationKey#MAX_ID_CODE_POINTS} code
 * points, control characters, and unpaired surrogates (which no UTF-8 store can keep).
 */
public final class InputRules {

    /** Longest tool name, in code points. */
    public static final int MAX_TOOL_NAME_CODE_POINTS = 255;

    /**
     * Longest working-memory key of a tool invocation, in code points (the column holds 1,024 characters;
     * 255 code points of up to 4 UTF-8 bytes each also fit any byte-limited store).
     */
    public static final int MAX_WM_KEY_CODE_POINTS = 255;

    /** Longest tenant id, in code points. */
    public static final int MAX_TENANT_CODE_POINTS = 64;

    /**
     * Longest message text of a turn, in code points: {@code userMessage}, {@code assistantResponse},
     * {@code contextUsed}, {@code error} and a tool invocation's {@code error} (256 Ki; about 64,000 tokens of
     * English, more than any model replays as one message). Multi-megabyte values exhausted the embedded
     * database's memory (H2 keeps such values inline in its pages) and corrupted its file; larger artefacts
     * belong in a tool output, which is offloaded to the omission store.
     */
    public static final int MAX_MESSAGE_CODE_POINTS = 262_144;

    /** Longest tool invocation output, in code points (1 Mi; offloaded to the omission store beyond 2,000 tokens). */
    public static final int MAX_TOOL_OUTPUT_CODE_POINTS = 1_048_576;

    /**
     * Largest JSON document of a turn's {@code metadata} or a tool invocation's {@code input}, counted as the
     * code points of its keys, strings and numbers (1 Mi).
     */
    public static final int MAX_JSON_CODE_POINTS = 1_048_576;

    /**
     * Most code points one turn may hold in all its texts, tool outputs, tool inputs and metadata together
     * (2 Mi). Each field has its own limit too; this one bounds a turn made of many fields at their limits (a
     * tester ran the server out of memory with six concurrent turns of seven 1 Mi tool inputs each).
     */
    public static final int MAX_TURN_CODE_POINTS = 2_097_152;

    /** Most items in a turn's {@code toolsUsed} and in its {@code toolInvocations}. */
    public static final int MAX_ITEMS = 1_000;

    /** Earliest turn timestamp accepted: 0001-01-01T00:00:00Z. */
    public static final java.time.Instant EARLIEST = java.time.Instant.parse("0001-01-01T00:00:00Z");

    /** Latest turn timestamp accepted: 9999-12-31T23:59:59.999999Z. */
    public static final java.time.Instant LATEST = java.time.Instant.parse("9999-12-31T23:59:59.999999Z");

    private InputRules() {}

    /**
     * Checks a conversation key.
     *
     * @param key the key
     * @throws InvalidInputException naming {@code userId}, {@code sessionId}, {@code chatbotId} or
     *                               {@code tenantId} and the broken rule
     */
    public static void checkKey(ConversationKey key) throws InvalidInputException {
        if (key == null) {
            throw new InvalidInputException(
                    "key", "required", "The conversation key is required (userId and sessionId).");
        }
        checkTenant(key.tenantId());
        checkId("userId", key.userId());
        checkId("sessionId", key.sessionId());
        checkOptionalId("chatbotId", key.chatbotId());
    }

    /**
     * @param tenantId the tenant
     * @throws InvalidInputException when it is missing or breaks the id rules (at most 64 code points)
     */
    public static void checkTenant(String tenantId) throws InvalidInputException {
        checkId("tenantId", tenantId, MAX_TENANT_CODE_POINTS);
    }

    /**
     * A required id: 1–128 code points, not blank, no control characters, no unpaired surrogates.
     *
     * @param field the field name used in the message
     * @param value the id
     * @throws InvalidInputException when a rule is broken
     */
    public static void checkId(String field, String value) throws InvalidInputException {
        checkId(field, value, ConversationKey.MAX_ID_CODE_POINTS);
    }

    /**
     * An optional id: {@code null} is accepted, anything else must pass {@link #checkId(String, String)}.
     *
     * @param field the field name used in the message
     * @param value the id or {@code null}
     * @throws InvalidInputException when a rule is broken
     */
    public static void checkOptionalId(String field, String value) throws InvalidInputException {
        if (value != null) {
            checkId(field, value);
        }
    }

    private static void checkId(String field, String value, int maxCodePoints) throws InvalidInputException {
        if (value == null) {
            throw new InvalidInputException(field, "required", field + " is required.");
        }
        if (value.isEmpty()) {
            throw new InvalidInputException(field, "not-empty", field + " must not be empty.");
        }
        if (value.isBlank()) {
            throw new InvalidInputException(
                    field,
                    "not-blank",
                    field + " must contain a non-whitespace character; ids are stored exactly as given, so a blank id"
                            + " would be indistinguishable from a missing one.");
        }
        int length = CodePoints.length(value);
        if (length > maxCodePoints) {
            throw new InvalidInputException(
                    field,
                    "max-length",
                    field + " is " + length + " characters long; the limit is " + maxCodePoints
                            + " characters (Unicode code points).");
        }
        checkText(field, value, Controls.NONE);
    }

    /** What control characters a text may contain. */
    public enum Controls {
        /** None at all (ids, names). */
        NONE,
        /** Any but NUL, which PostgreSQL text cannot store (text stored as given). */
        NO_NUL,
        /** Any (text that normalization cleans, or that is stored JSON-escaped). */
        ANY
    }

    /**
     * Checks text: never an unpaired surrogate (no UTF-8 store can keep one), and control characters as
     * {@code controls} says.
     *
     * @param field    the field name used in the message
     * @param value    the text, {@code null} is accepted
     * @param controls which control characters are allowed
     * @throws InvalidInputException when a rule is broken
     */
    public static void checkText(String field, String value, Controls controls) throws InvalidInputException {
        if (value == null) {
            return;
        }
        int unpaired = unpairedSurrogateAt(value);
        if (unpaired >= 0) {
            throw unpaired(field, value.charAt(unpaired), unpaired);
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (controls == Controls.NONE && Character.getType(c) == Character.CONTROL) {
                throw new InvalidInputException(
                        field,
                        "control-character",
                        field + " contains the control character U+"
                                + String.format(java.util.Locale.ROOT, "%04X", (int) c) + " at index " + i
                                + "; ids may contain any printable character (including '/', '%', quotes, spaces, emoji and CJK)"
                                + " but no control characters.");
            }
            if (controls == Controls.NO_NUL && c == '\u0000') {
                throw new InvalidInputException(
                        field,
                        "nul-character",
                        field + " contains U+0000 (NUL) at index " + i
                                + "; remove it (normalization, when enabled, strips it for you).");
            }
        }
    }

    /**
     * @param text the text, not {@code null}
     * @return the index of the first surrogate that is not half of a pair (no UTF-8 store can keep one), or -1
     */
    public static int unpairedSurrogateAt(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    private static InvalidInputException unpaired(String field, char c, int index) {
        return new InvalidInputException(
                field,
                "unpaired-surrogate",
                field + " contains the unpaired surrogate U+"
                        + String.format(java.util.Locale.ROOT, "%04X", (int) c) + " at index " + index
                        + "; send valid Unicode (a \\uD83D\\uDE00 escape pair, or the character itself in UTF-8).");
    }

    /**
     * Checks a turn as a client sends it. A turn whose user message and assistant response are both blank and
     * which carries no tool invocation is refused (rule {@code empty-turn}, field {@code userMessage}): it
     * would be stored but never rendered, so nothing an agent sends is dropped with a 2xx.
     *
     * @param prefix        field path prefix such as {@code ""} or {@code "turns[3]."}
     * @param turn          the turn
     * @param normalizeOn   whether normalization will strip control characters from text fields
     * @throws InvalidInputException naming the field path and the rule
     */
    public static void checkTurn(String prefix, TurnRecord turn, boolean normalizeOn) throws InvalidInputException {
        if (turn == null) {
            throw new InvalidInputException(
                    prefix.isEmpty() ? "turn" : prefix.substring(0, prefix.length() - 1),
                    "required",
                    "The turn is required.");
        }
        checkOptionalId(prefix + "turnId", turn.turnId());
        checkOptionalId(prefix + "userId", turn.userId());
        checkOptionalId(prefix + "chatbotId", turn.chatbotId());
        Controls text = normalizeOn ? Controls.ANY : Controls.NO_NUL;
        checkText(prefix + "userMessage", turn.userMessage(), text, MAX_MESSAGE_CODE_POINTS);
        checkText(prefix + "assistantResponse", turn.assistantResponse(), text, MAX_MESSAGE_CODE_POINTS);
        checkText(prefix + "contextUsed", turn.contextUsed(), text, MAX_MESSAGE_CODE_POINTS);
        checkText(prefix + "error", turn.error(), text, MAX_MESSAGE_CODE_POINTS);
        List<String> tools = turn.toolsUsed();
        if (tools.size() > MAX_ITEMS) {
            throw new InvalidInputException(
                    prefix + "toolsUsed",
                    "max-items",
                    prefix + "toolsUsed has " + tools.size() + " items; the limit is " + MAX_ITEMS + ".");
        }
        if (turn.toolInvocations().size() > MAX_ITEMS) {
            throw new InvalidInputException(
                    prefix + "toolInvocations",
                    "max-items",
                    prefix + "toolInvocations has " + turn.toolInvocations().size() + " items; the limit is "
                            + MAX_ITEMS + ".");
        }
        for (int i = 0; i < tools.size(); i++) {
            if (tools.get(i) == null) {
                throw new InvalidInputException(
                        prefix + "toolsUsed[" + i + "]",
                        "required",
                        prefix + "toolsUsed[" + i + "] must be a tool name, not null.");
            }
            checkText(prefix + "toolsUsed[" + i + "]", tools.get(i), Controls.NO_NUL, MAX_TOOL_NAME_CODE_POINTS);
        }
        // An upper bound of the turn's size in code points (UTF-16 units count at least one per code point);
        // counted exactly only when it exceeds the limit, so a typical turn is not scanned twice.
        long bound = utf16(turn.userMessage())
                + utf16(turn.assistantResponse())
                + utf16(turn.contextUsed())
                + utf16(turn.error())
                + checkJsonSize(prefix + "metadata", turn.metadata());
        for (String tool : tools) {
            bound += tool.length();
        }
        if (turn.timestamp() != null
                && (turn.timestamp().isBefore(EARLIEST) || turn.timestamp().isAfter(LATEST))) {
            throw new InvalidInputException(
                    prefix + "timestamp",
                    "range",
                    prefix + "timestamp is " + turn.timestamp()
                            + "; it must lie between " + EARLIEST + " and " + LATEST
                            + " (UTC), the range every supported"
                            + " database stores.");
        }
        List<ToolInvocationRecord> invocations = turn.toolInvocations();
        for (int i = 0; i < invocations.size(); i++) {
            bound += checkInvocation(prefix + "toolInvocations[" + i + "].", invocations.get(i), text);
        }
        // Last, so that a broken field is named before the turn is found empty.
        if (CodePoints.isBlank(turn.userMessage())
                && CodePoints.isBlank(turn.assistantResponse())
                && turn.toolInvocations().isEmpty()) {
            throw new InvalidInputException(
                    prefix + "userMessage",
                    "empty-turn",
                    "The turn holds nothing to remember: " + prefix + "userMessage, " + prefix
                            + "assistantResponse and " + prefix + "toolInvocations are all empty. Send at least"
                            + " one of them.");
        }
        long total = bound > MAX_TURN_CODE_POINTS ? turnSize(turn) : bound;
        if (total > MAX_TURN_CODE_POINTS) {
            throw new InvalidInputException(
                    prefix.isEmpty() ? "turn" : prefix.substring(0, prefix.length() - 1),
                    "max-size",
                    "The turn holds " + total + " characters of text, tool outputs, inputs and metadata"
                            + " together; the limit is " + MAX_TURN_CODE_POINTS + " characters (Unicode code points)"
                            + " per turn. Split the work over several turns.");
        }
    }

    /** @return an upper bound of the invocation's size for the per-turn limit (UTF-16 units of texts, JSON size) */
    private static long checkInvocation(String prefix, ToolInvocationRecord invocation, Controls text)
            throws InvalidInputException {
        if (invocation == null) {
            throw new InvalidInputException(
                    prefix.substring(0, prefix.length() - 1),
                    "required",
                    "A tool invocation must be an object, not null.");
        }
        String name = invocation.toolName();
        if (name == null || name.isBlank()) {
            throw new InvalidInputException(
                    prefix + "toolName", "required", prefix + "toolName is required and must not be blank.");
        }
        checkText(prefix + "toolName", name, Controls.NONE, MAX_TOOL_NAME_CODE_POINTS);
        checkText(prefix + "output", invocation.output(), text, MAX_TOOL_OUTPUT_CODE_POINTS);
        checkText(prefix + "error", invocation.error(), text, MAX_MESSAGE_CODE_POINTS);
        checkText(prefix + "wmKey", invocation.wmKey(), Controls.NONE, MAX_WM_KEY_CODE_POINTS);
        if (invocation.elapsedMs() != null && invocation.elapsedMs() < 0) {
            throw new InvalidInputException(
                    prefix + "elapsedMs",
                    "min",
                    prefix + "elapsedMs is " + invocation.elapsedMs()
                            + "; it must be a duration in milliseconds, 0 or more.");
        }
        return utf16(invocation.output())
                + utf16(invocation.error())
                + checkJsonSize(prefix + "input", invocation.input());
    }

    /**
     * {@link #checkText(String, String, Controls)} and at most {@code maxCodePoints} code points.
     *
     * @param field         the field name used in the message
     * @param value         the text, {@code null} is accepted
     * @param controls      which control characters are allowed
     * @param maxCodePoints the longest text accepted, in code points
     * @throws InvalidInputException when a rule is broken (rule {@code max-length} for the length)
     */
    public static void checkText(String field, String value, Controls controls, int maxCodePoints)
            throws InvalidInputException {
        checkText(field, value, controls);
        if (value != null && value.length() > maxCodePoints) {
            int length = CodePoints.length(value);
            if (length > maxCodePoints) {
                throw new InvalidInputException(
                        field,
                        "max-length",
                        field + " is " + length + " characters long; the limit is " + maxCodePoints
                                + " characters (Unicode code points).");
            }
        }
    }

    /**
     * {@link #checkJson} and at most {@link #MAX_JSON_CODE_POINTS} code points of keys, strings and numbers.
     *
     * @return that size
     */
    private static long checkJsonSize(String field, Object value) throws InvalidInputException {
        checkJson(field, value);
        long size = jsonSize(value);
        if (size > MAX_JSON_CODE_POINTS) {
            throw new InvalidInputException(
                    field,
                    "max-size",
                    field + " holds " + size + " characters of keys and" + " values; the limit is "
                            + MAX_JSON_CODE_POINTS + " characters (Unicode code points).");
        }
        return size;
    }

    private static long turnSize(TurnRecord turn) {
        long size = length(turn.userMessage())
                + length(turn.assistantResponse())
                + length(turn.contextUsed())
                + length(turn.error())
                + jsonSize(turn.metadata());
        for (String tool : turn.toolsUsed()) {
            size += length(tool);
        }
        for (ToolInvocationRecord invocation : turn.toolInvocations()) {
            size += length(invocation.output()) + length(invocation.error()) + jsonSize(invocation.input());
        }
        return size;
    }

    private static long utf16(String text) {
        return text == null ? 0 : text.length();
    }

    private static long length(String text) {
        return text == null ? 0 : CodePoints.length(text);
    }

    private static long jsonSize(Object value) {
        if (value instanceof String s) {
            return CodePoints.length(s);
        }
        if (value instanceof Map<?, ?> map) {
            long size = 0;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                size += CodePoints.length(String.valueOf(e.getKey())) + jsonSize(e.getValue());
            }
            return size;
        }
        if (value instanceof List<?> list) {
            long size = 0;
            for (Object item : list) {
                size += 1 + jsonSize(item);
            }
            return size;
        }
        return value == null ? 4 : String.valueOf(value).length();
    }

    /**
     * Checks a JSON object supplied as metadata: string keys, valid Unicode everywhere, at most
     * {@value #MAX_JSON_CODE_POINTS} code points of keys and values.
     *
     * @param field the field name used in the message
     * @param value the object, {@code null} is accepted
     * @throws InvalidInputException when a rule is broken
     */
    public static void checkJsonObject(String field, Map<String, Object> value) throws InvalidInputException {
        checkJsonSize(field, value);
    }

    /**
     * {@link #checkJsonObject(String, Map)} with a smaller bound.
     *
     * @param field         the field name used in the message
     * @param value         the object, {@code null} is accepted
     * @param maxCodePoints most code points of keys, strings and numbers, at most {@value #MAX_JSON_CODE_POINTS}
     * @throws InvalidInputException when a rule is broken (rule {@code max-size} for the size)
     */
    public static void checkJsonObject(String field, Map<String, Object> value, int maxCodePoints)
            throws InvalidInputException {
        long size = checkJsonSize(field, value);
        if (size > maxCodePoints) {
            throw new InvalidInputException(
                    field,
                    "max-size",
                    field + " holds " + size + " characters of keys and values; the limit is " + maxCodePoints
                            + " characters (Unicode code points).");
        }
    }

    private static void checkJson(String field, Object value) throws InvalidInputException {
        if (value instanceof String s) {
            checkText(field, s, Controls.ANY);
        } else if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!(e.getKey() instanceof String k)) {
                    throw new InvalidInputException(
                            field, "json-object", field + " must be a JSON object with string keys.");
                }
                checkText(field, k, Controls.ANY);
                checkJson(field + "." + k, e.getValue());
            }
        } else if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                checkJson(field + "[" + i + "]", list.get(i));
            }
        }
    }
}

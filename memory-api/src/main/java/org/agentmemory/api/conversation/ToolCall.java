package org.agentmemory.api.conversation;

import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One tool call the model made during a round, as the agent framework reports it (spec §1.1
 * {@code from_ai_message}: {@code response.tool_calls}). The write path turns each call into a
 * {@link ToolInvocationRecord}.
 *
 * <p>To stay {@link Serializable}, {@code arguments} and {@code result} must hold JSON-like values only:
 * {@code String}, {@code Number}, {@code Boolean}, {@code null}, {@code List} and {@code Map} with string keys.
 *
 * @param name          the tool's name; never {@code null}
 * @param arguments     the call's arguments as a JSON object; {@code null} is read as empty; the map is copied
 *                      (top level) and unmodifiable, {@code null} values allowed
 * @param result        the raw result: {@code null}, a {@code String}, a {@code Map} or {@code List} (stored as
 *                      compact key-sorted JSON) or any other value (stored as {@code String.valueOf}); a
 *                      {@code Map} may carry the working-memory tee key at {@code result["_tee"]["key"]}
 * @param error         the error text when the call failed, else {@code null}; a non-empty error marks the
 *                      invocation as {@link InvocationStatus#ERROR}
 * @param executionTime wall time of the call in SECONDS (fractional), or {@code null} when unknown; stored as
 *                      whole milliseconds, truncated
 */
@Schema(
        description = "One tool call the model made during a round, as the agent framework reports it; it becomes a"
                + " tool invocation of the turn.")
public record ToolCall(
        @Schema(description = "The tool's name; required (the invocation's toolName).")
        String name,

        @Schema(description = "The call's arguments as a JSON object (the invocation's input); absent or null = {}.")
        Map<String, Object> arguments,

        @Schema(
                description = "The raw result: a string is stored as the invocation's output as it is, an object or"
                        + " array as compact key-sorted JSON, any other value as its text; null = no output. An object's"
                        + " _tee.key becomes the invocation's wmKey.")
        Object result,

        @Schema(
                description = "The error text when the call failed, else null; a non-empty error makes the"
                        + " invocation's status error.")
        String error,

        @Schema(
                description = "Wall time of the call in seconds (fractional), or null when unknown; stored as whole"
                        + " milliseconds (elapsedMs), truncated.")
        Double executionTime)
        implements Serializable {

    /**
     * Copies the arguments; {@code null} arguments become an empty map.
     *
     * @param name          the tool's name; never {@code null}
     * @param arguments     the arguments, or {@code null}
     * @param result        the raw result, or {@code null}
     * @param error         the error text, or {@code null}
     * @param executionTime the wall time in seconds, or {@code null}
     * @throws NullPointerException when {@code name} is {@code null}
     */
    public ToolCall {
        Objects.requireNonNull(name, "name");
        arguments = arguments == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(arguments));
    }

    /**
     * A successful call with no timing.
     *
     * @param name      the tool's name
     * @param arguments the arguments, or {@code null}
     * @param result    the raw result, or {@code null}
     * @return the call
     */
    public static ToolCall of(String name, Map<String, Object> arguments, Object result) {
        return new ToolCall(name, arguments, result, null, null);
    }
}

package org.agentmemory.api.conversation;

import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One tool invocation of a turn (spec §1.2), in the order the model made it.
 *
 * @param toolName    the tool's name; required, at most 255 code points
 * @param input       the call's arguments as a JSON object (string keys; values are JSON values:
 *                    {@code String}, {@code Number}, {@code Boolean}, {@code null}, {@code List}, {@code Map});
 *                    stored canonically (keys sorted at every depth); never {@code null} (empty when absent)
 * @param output      the full output text (at most 1,048,576 code points), or after offload the preview of
 *                    at most 200 code points plus
 *                    {@code " …(+N chars)"}; {@code null} when the tool produced none
 * @param status      {@link InvocationStatus#COMPLETED} (default) or {@link InvocationStatus#ERROR}
 * @param error       the error text, tracebacks condensed (spec §2.4); never omitted; may be {@code null}
 * @param elapsedMs   wall time of the call in milliseconds, or {@code null}
 * @param outputChars the ORIGINAL output length in code points, captured at offload; {@code null} otherwise
 * @param omitted     field name → omission content id ({@code om_} + 16 hex) of offloaded fields; only key
 *                    {@code "output"} is used; never {@code null}
 * @param wmKey       the working-memory tee key, or {@code null}
 */
public record ToolInvocationRecord(
        String toolName,
        Map<String, Object> input,
        String output,
        InvocationStatus status,
        String error,
        Long elapsedMs,
        Integer outputChars,
        Map<String, String> omitted,
        String wmKey) implements Serializable {

    public ToolInvocationRecord {
        input = input == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(input));
        omitted = omitted == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(omitted));
        status = status == null ? InvocationStatus.COMPLETED : status;
    }

    /**
     * A completed invocation with just a name, an input and an output.
     *
     * @param toolName the tool
     * @param input    its arguments (may be {@code null})
     * @param output   its output (may be {@code null})
     * @return the invocation
     */
    public static ToolInvocationRecord of(String toolName, Map<String, Object> input, String output) {
        return new ToolInvocationRecord(toolName, input, output, InvocationStatus.COMPLETED, null, null, null, null, null);
    }

    /** @return a copy with {@code output} replaced */
    public ToolInvocationRecord withOutput(String newOutput) {
        return new ToolInvocationRecord(toolName, input, newOutput, status, error, elapsedMs, outputChars, omitted, wmKey);
    }

    /** @return a copy whose output was offloaded: preview, original length and content id recorded */
    public ToolInvocationRecord withOffloadedOutput(String preview, int originalChars, String contentId) {
        Map<String, String> newOmitted = new LinkedHashMap<>(omitted);
        newOmitted.put("output", contentId);
        return new ToolInvocationRecord(toolName, input, preview, status, error, elapsedMs, originalChars, newOmitted, wmKey);
    }

    /** @return a copy with input, output and error replaced (used by normalization) */
    public ToolInvocationRecord withContent(Map<String, Object> newInput, String newOutput, String newError) {
        return new ToolInvocationRecord(toolName, newInput, newOutput, status, newError, elapsedMs, outputChars, omitted, wmKey);
    }

    /** @return {@code true} when the status is ERROR or the error text is non-empty (spec §8.1) */
    public boolean failed() {
        return status == InvocationStatus.ERROR || (error != null && !error.isEmpty());
    }
}

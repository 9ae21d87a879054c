package org.agentmemory.api.conversation;

import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

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
 * @param omitted     field name → omission content id ({@code om_} + 16 hex) of offloaded fields: keys
 *                    {@code "output"}, {@code "input"} and {@code "error"}; the omission holds the field exactly
 *                    as the client sent it; never {@code null}
 * @param wmKey       the working-memory tee key, or {@code null}
 */
@Schema(description = "One tool invocation of a turn, in the order the model made it.")
public record ToolInvocationRecord(
        @Schema(description = "The tool's name: required, 1 to 255 code points, not blank, no control characters.")
        String toolName,

        @Schema(
                description = "The call's arguments as a JSON object, stored canonically (keys sorted at every"
                        + " depth); at most 1,048,576 code points of keys and values. Absent or null on input = {}; never"
                        + " null in responses.")
        Map<String, Object> input,

        @Schema(
                description = "The tool's output text, at most 1,048,576 code points, or null when it produced"
                        + " none. An output of more than memory.offload.threshold-tokens tokens (default 2,000) is offloaded"
                        + " on write: the stored output is then a preview of 200 code points plus \" …(+N chars)\", and"
                        + " omitted.output names the full content.")
        String output,

        @Schema(description = "completed or error; absent or null on input = completed.")
        InvocationStatus status,

        @Schema(description = "The error text (tracebacks condensed), at most 262,144 code points, or null.")
        String error,

        @Schema(description = "Wall time of the call, milliseconds, 0 or more; null when unknown.")
        Long elapsedMs,

        @Schema(
                description = "Length of the original output in code points, recorded when the output was"
                        + " offloaded; null otherwise.")
        Integer outputChars,

        @Schema(
                description = "Field name → omission content id (om_ and 16 hex digits) of offloaded fields: output,"
                        + " input (then input holds previews of its long values) and error (then error is a preview). GET"
                        + " /conversations/{id}/omissions/{contentId} returns the content exactly as it was sent. A field"
                        + " whose omitted key is already set is not offloaded again. Absent or null = {}; never null in"
                        + " responses.")
        Map<String, String> omitted,

        @Schema(description = "The working-memory tee key, at most 255 code points, no control characters, or null.")
        String wmKey)
        implements Serializable {

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
        return new ToolInvocationRecord(
                toolName, input, output, InvocationStatus.COMPLETED, null, null, null, null, null);
    }

    /** @return a copy with {@code output} replaced */
    public ToolInvocationRecord withOutput(String newOutput) {
        return new ToolInvocationRecord(
                toolName, input, newOutput, status, error, elapsedMs, outputChars, omitted, wmKey);
    }

    /** @return a copy whose output was offloaded: preview, original length and content id recorded */
    public ToolInvocationRecord withOffloadedOutput(String preview, int originalChars, String contentId) {
        Map<String, String> newOmitted = new LinkedHashMap<>(omitted);
        newOmitted.put("output", contentId);
        return new ToolInvocationRecord(
                toolName, input, preview, status, error, elapsedMs, originalChars, newOmitted, wmKey);
    }

    /** @return a copy whose input was offloaded: {@code input} holds previews, {@code omitted.input} the id */
    public ToolInvocationRecord withOffloadedInput(Map<String, Object> previewInput, String contentId) {
        Map<String, String> newOmitted = new LinkedHashMap<>(omitted);
        newOmitted.put("input", contentId);
        return new ToolInvocationRecord(
                toolName, previewInput, output, status, error, elapsedMs, outputChars, newOmitted, wmKey);
    }

    /** @return a copy whose error text was offloaded: {@code error} is a preview, {@code omitted.error} the id */
    public ToolInvocationRecord withOffloadedError(String preview, String contentId) {
        Map<String, String> newOmitted = new LinkedHashMap<>(omitted);
        newOmitted.put("error", contentId);
        return new ToolInvocationRecord(
                toolName, input, output, status, preview, elapsedMs, outputChars, newOmitted, wmKey);
    }

    /** @return a copy with input, output and error replaced (used by normalization) */
    public ToolInvocationRecord withContent(Map<String, Object> newInput, String newOutput, String newError) {
        return new ToolInvocationRecord(
                toolName, newInput, newOutput, status, newError, elapsedMs, outputChars, omitted, wmKey);
    }

    /** @return {@code true} when the status is ERROR or the error text is non-empty (spec §8.1) */
    public boolean failed() {
        return status == InvocationStatus.ERROR || (error != null && !error.isEmpty());
    }
}

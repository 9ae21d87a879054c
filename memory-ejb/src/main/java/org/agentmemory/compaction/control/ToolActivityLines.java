package org.agentmemory.compaction.control;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import org.agentmemory.api.compaction.ContextBudget.ActivityLimit;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.platform.json.CanonicalJson;
import org.agentmemory.platform.text.CodePoints;

/**
 * The one-line summary of a tool invocation (spec §8.1):
 * {@code - {tool_name} {ok|error}[ {elapsed}s] in={input}[ {body}]}.
 */
public final class ToolActivityLines {

    /** The {@code omitted} key of an offloaded input. */
    private static final String INPUT = "input";

    /** The {@code omitted} key of an offloaded error text. */
    private static final String ERROR = "error";

    private ToolActivityLines() {}

    /**
     * @param invocation the invocation (name, status, error and elapsed time are read); never {@code null}
     * @param input      the input to show, possibly narrowed by a prune policy; never {@code null}
     * @param body       what follows the input ({@code out=…}, notices, {@code error=…}); {@code ""} for none
     * @param limit      {@link ActivityLimit#maxInputChars()} bounds the {@code in=} field (code points)
     * @return the line: status {@code error} when the status is ERROR or the error text is non-empty, else
     *         {@code ok}; elapsed seconds with exactly one decimal, present only when {@code elapsedMs} is
     *         set; input as canonical key-sorted JSON, cut to {@code maxInputChars} code points + {@code …}
     *         when longer, then {@code <tool-input-omitted id="…"/>} when the input was offloaded on write (it then
     *         holds previews; the full input is recoverable by that id)
     */
    public static String line(
            ToolInvocationRecord invocation, Map<String, Object> input, String body, ActivityLimit limit) {
        StringBuilder line = new StringBuilder(64)
                .append("- ")
                .append(invocation.toolName())
                .append(invocation.failed() ? " error" : " ok");
        if (invocation.elapsedMs() != null) {
            line.append(' ').append(seconds(invocation.elapsedMs())).append('s');
        }
        String json = CanonicalJson.write(input);
        if (CodePoints.length(json) > limit.maxInputChars()) {
            json = CodePoints.head(json, limit.maxInputChars()) + "\u2026";
        }
        line.append(" in=").append(json);
        String inputId = invocation.omitted().get(INPUT);
        if (inputId != null) {
            line.append(" <tool-input-omitted id=\"")
                    .append(PrunePolicies.escapeAttribute(inputId))
                    .append("\"/>");
        }
        if (!body.isEmpty()) {
            line.append(' ').append(body);
        }
        return line.toString();
    }

    /**
     * @param invocation an invocation with a non-empty error text
     * @return {@code error=} + the error text, followed by {@code <tool-error-omitted id="…"/>} when the error was
     *         offloaded on write (the text is then a preview, recoverable by that id)
     */
    static String errorPart(ToolInvocationRecord invocation) {
        String errorId = invocation.omitted().get(ERROR);
        String part = "error=" + invocation.error();
        return errorId == null
                ? part
                : part + " <tool-error-omitted id=\"" + PrunePolicies.escapeAttribute(errorId) + "\"/>";
    }

    /**
     * Milliseconds as seconds with one decimal, rounded like Python's {@code f"{ms / 1000:.1f}"}: the exact
     * binary value of the quotient, ties to even ({@code 1250 → "1.2"}, {@code 50 → "0.1"}). Locale-free.
     */
    static String seconds(long elapsedMs) {
        return new BigDecimal(elapsedMs / 1000.0)
                .setScale(1, RoundingMode.HALF_EVEN)
                .toPlainString();
    }
}

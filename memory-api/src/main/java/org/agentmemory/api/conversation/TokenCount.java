package org.agentmemory.api.conversation;

import java.io.Serializable;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Token counts of one stored turn, computed by the service (spec §3); a count sent by a client is ignored.
 *
 * @param user      tokens of the user message
 * @param assistant tokens of the assistant response
 * @param tools     Σ over tool invocations of tokens(canonical input JSON) + tokens(output) + tokens(error)
 * @param total     user + assistant + tools ({@code contextUsed} is deliberately excluded)
 * @param tokenizer the counter's name: {@code o200k_base}, {@code cl100k_base} or {@code heuristic}
 */
@Schema(
        description = "Token counts of one stored turn, computed by the service on write. Counts sent by a client"
                + " are ignored, but must be complete (user, assistant, tools and total).")
public record TokenCount(
        @Schema(required = true, description = "Tokens of the user message.")
        int user,

        @Schema(required = true, description = "Tokens of the assistant response.")
        int assistant,

        @Schema(
                required = true,
                description = "Sum over the tool invocations of the tokens of the canonical input"
                        + " JSON, the output (the preview when offloaded) and the error.")
        int tools,

        @Schema(required = true, description = "user + assistant + tools; contextUsed is not counted.")
        int total,

        @Schema(
                description = "The counter the counts are in: o200k_base (the default of memory.tokenizer),"
                        + " cl100k_base or heuristic.")
        String tokenizer)
        implements Serializable {}

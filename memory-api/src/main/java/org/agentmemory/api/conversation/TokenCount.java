package org.agentmemory.api.conversation;

import java.io.Serializable;

/**
 * Token counts of one stored turn, computed by the service (spec §3); a count sent by a client is ignored.
 *
 * @param user      tokens of the user message
 * @param assistant tokens of the assistant response
 * @param tools     Σ over tool invocations of tokens(canonical input JSON) + tokens(output) + tokens(error)
 * @param total     user + assistant + tools ({@code contextUsed} is deliberately excluded)
 * @param tokenizer the counter's name: {@code o200k_base}, {@code cl100k_base} or {@code heuristic}
 */
public record TokenCount(int user, int assistant, int tools, int total, String tokenizer) implements Serializable {
}

package org.agentmemory.platform.tokens;

/**
 * Counts tokens of a text (spec §3). Implementations are thread-safe and cheap to call.
 */
public interface TokenCounter {

    /**
     * @return the name stored with every count: {@code o200k_base}, {@code cl100k_base} or {@code heuristic}
     */
    String name();

    /**
     * @param text any text; {@code null} and {@code ""} count 0
     * @return the number of tokens, ≥ 0
     */
    int count(String text);
}

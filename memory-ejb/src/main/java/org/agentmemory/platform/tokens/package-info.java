/**
 * Token counting (spec §3): the {@link org.agentmemory.platform.tokens.TokenCounter} strategy, jtokkit BPE counters
 * ({@code o200k_base} default, {@code cl100k_base}) and the named byte heuristic as fallback.
 *
 * <p>Decisions: one encoding load per process through the lazy registry; special-token text counts as
 * ordinary text; pure Java, no container types.
 */
@Pure
package org.agentmemory.platform.tokens;

import org.agentmemory.platform.Pure;

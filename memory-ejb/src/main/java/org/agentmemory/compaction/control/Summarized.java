package org.agentmemory.compaction.control;

import org.agentmemory.api.compaction.SummaryMethod;

/**
 * A Stage 2 summary as one summarizer call left it.
 *
 * @param text   the summary, bounded to the configured tokens; never {@code null}
 * @param method how it was written
 */
public record Summarized(String text, SummaryMethod method) {}

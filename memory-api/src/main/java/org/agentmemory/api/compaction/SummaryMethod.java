package org.agentmemory.api.compaction;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** How the newest part of a Stage 2 summary was written (issue 35 item 4). */
@Schema(
        description = "How the newest extension of a summary of earlier turns was written: model (the configured"
                + " OpenAI-compatible chat model) or extractive (key sentences, tool outcomes and decisions copied from"
                + " the turns, when no model is configured or the model failed). Lower case in JSON.")
public enum SummaryMethod {
    /** By the configured OpenAI-compatible chat model ({@code memory.stage2.model-url}). */
    MODEL,
    /**
     * By the deterministic extractive summarizer: key sentences, tool outcomes (tool name and ok or error) and
     * decisions, copied from the turns; used when no model is configured or the model call failed.
     */
    EXTRACTIVE
}

package org.agentmemory.compaction.boundary;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import org.agentmemory.api.compaction.SummaryMethod;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.compaction.control.Summarized;
import org.agentmemory.compaction.control.SummaryPrompt;
import org.agentmemory.platform.config.Settings;

/**
 * Extends a Stage 2 summary with the turns dropped since it was written (issue 35 item 4): the turns are split into
 * calls of bounded size ({@link SummaryPrompt#calls}), each extending the summary the previous one left, through
 * {@link SummaryModel} (the chat model, or the extractive summarizer when none is configured or a call fails). Only
 * the new turns and the summary so far are ever read: nothing is summarised twice.
 */
@ApplicationScoped
public class Stage2Summarizer {

    /**
     * A summary after an extension.
     *
     * @param text   the summary, bounded to {@code memory.stage2.max-summary-tokens}
     * @param method {@link SummaryMethod#MODEL} when the model wrote every call, else
     *               {@link SummaryMethod#EXTRACTIVE}
     */
    public record Extended(String text, SummaryMethod method) {}

    @Inject
    SummaryModel model;

    @Inject
    Settings settings;

    /**
     * @param previous the summary so far, or {@code null} for a new one
     * @param turns    the turns dropped since, oldest first (not empty)
     * @return the extended summary
     */
    public Extended extend(String previous, List<TurnRecord> turns) {
        String text = previous;
        SummaryMethod method = SummaryMethod.MODEL;
        for (List<TurnRecord> call : SummaryPrompt.calls(turns, settings.tokenCounter())) {
            Summarized summarized = model.summarize(text, call);
            text = summarized.text();
            if (summarized.method() == SummaryMethod.EXTRACTIVE) {
                method = SummaryMethod.EXTRACTIVE;
            }
        }
        return new Extended(text, method);
    }
}

package org.agentmemory.conversation.boundary;

import jakarta.annotation.Resource;
import jakarta.ejb.Asynchronous;
import jakarta.ejb.LocalBean;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.compaction.SummaryMethod;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.compaction.boundary.Stage2Summarizer;
import org.agentmemory.conversation.control.ConversationStore;
import org.agentmemory.conversation.control.ConversationWriter;
import org.agentmemory.conversation.control.HistoryWindow;
import org.agentmemory.conversation.control.SummaryRefreshes;
import org.agentmemory.conversation.control.SummaryStore;
import org.agentmemory.conversation.control.TurnsDropped;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.conversation.entity.Summary;
import org.agentmemory.conversation.entity.Turn;
import org.agentmemory.platform.config.Settings;

/**
 * Writes and extends Stage 2 summaries in the background (issue 35 item 4), after a round's commit dropped turns
 * ({@link TurnsDropped}): plans which turns to add ({@link SummaryRefreshes}), reads only those, has
 * {@link Stage2Summarizer} extend the stored summary with them (a model call, or the extractive summarizer), and
 * stores the result.
 *
 * <p>Transactions: the reading and the model calls run without a transaction and hold no lock; the result is stored
 * in a transaction of its own under the conversation's row lock (the lock every writer of the conversation takes, so
 * a clearing or a deletion meanwhile is seen), and only if the stored summary is still the one the refresh extended
 * (its version) and the newest turn to cover is still stored. Otherwise the refresh plans again from what is stored
 * now, at most {@value #ATTEMPTS} times. A failure is logged: the next commit that drops turns plans again from the
 * stored summary, so nothing is lost but time.
 */
@Stateless
@LocalBean
public class SummaryRefreshBean {

    private static final Logger LOG = Logger.getLogger(SummaryRefreshBean.class.getName());

    /** Plans per request when other refreshes of the same conversation store first. */
    static final int ATTEMPTS = 3;

    /** Turns read per query. */
    private static final int PAGE = 200;

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @Resource
    SessionContext context;

    @Inject
    Stage2Summarizer summarizer;

    @Inject
    SummaryRefreshQueue queue;

    @Inject
    Settings settings;

    /**
     * Extends the conversation's summary to the turns the commit dropped, in the background; one refresh per
     * conversation at a time on this server ({@link SummaryRefreshQueue}), which runs the newest event left meanwhile
     * when it is done.
     *
     * @param offered what the commit reported
     */
    @Asynchronous
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void refresh(TurnsDropped offered) {
        if (!queue.offer(offered)) {
            return; // this conversation's refresh runs: it takes the event when done
        }
        for (TurnsDropped next = queue.next(offered.conversationId());
                next != null;
                next = queue.next(offered.conversationId())) {
            refreshNow(next);
        }
    }

    private void refreshNow(TurnsDropped dropped) {
        try {
            for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
                if (refreshOnce(dropped)) {
                    return;
                }
            }
            LOG.fine(() -> "Stage 2 summary of conversation " + dropped.conversationId() + ": other refreshes stored"
                    + " first " + ATTEMPTS + " times; the next commit that drops turns plans again");
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "Stage 2 summary of conversation " + dropped.conversationId() + " of tenant '" + dropped.tenantId()
                            + "' failed; the next commit that drops turns tries again",
                    e);
        }
    }

    /** @return {@code true} when done (stored, or nothing to do), {@code false} when another refresh stored first */
    private boolean refreshOnce(TurnsDropped dropped) {
        Summary existing = new SummaryStore(em).find(dropped.tenantId(), dropped.conversationId());
        SummaryRefreshes.Plan plan = SummaryRefreshes.plan(
                HistoryWindow.scan(em, dropped.conversationId()),
                dropped.turnId(),
                dropped.droppedTurns(),
                existing == null ? null : existing.getLastSeq(),
                existing == null ? null : existing.getLastTurnId());
        if (plan == null) {
            return true;
        }
        List<TurnRecord> turns = read(dropped.conversationId(), plan);
        if (turns.isEmpty()) {
            return true;
        }
        Stage2Summarizer.Extended extended = summarizer.extend(plan.extend() ? existing.getText() : null, turns);
        if (extended.text() == null || extended.text().isBlank()) {
            return true;
        }
        return context.getBusinessObject(SummaryRefreshBean.class)
                .store(
                        dropped.tenantId(),
                        dropped.conversationId(),
                        plan,
                        turns,
                        extended.text(),
                        extended.method(),
                        existing);
    }

    /** The turns the plan adds, read page by page from its start. */
    private List<TurnRecord> read(long conversationId, SummaryRefreshes.Plan plan) {
        ConversationStore store = new ConversationStore(em);
        List<TurnRecord> turns = new ArrayList<>();
        long after = plan.afterSequence();
        while (after < plan.throughSequence()) {
            List<TurnRecord> page = store.turns(conversationId, after, PAGE);
            if (page.isEmpty()) {
                break;
            }
            turns.addAll(SummaryRefreshes.toAdd(page, plan));
            after = page.get(page.size() - 1).sequence();
        }
        return turns;
    }

    /**
     * Stores a refresh's result under the conversation's row lock, in a transaction of its own. Public only so that
     * the container applies the transaction; not part of any memory view.
     *
     * @param tenantId       the tenant
     * @param conversationId the conversation
     * @param plan           the plan the summary was extended by
     * @param turns          the turns it added, oldest first (not empty)
     * @param text           the new summary
     * @param method         how it was written
     * @param extended       the stored summary the refresh started from (detached), or {@code null}
     * @return {@code true} when stored, or when there is nothing to store any more (the conversation or the newest
     *         turn to cover is gone); {@code false} when another refresh changed the summary meanwhile
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public boolean store(
            String tenantId,
            long conversationId,
            SummaryRefreshes.Plan plan,
            List<TurnRecord> turns,
            String text,
            SummaryMethod method,
            Summary extended) {
        ConversationStore conversations = new ConversationStore(em);
        Conversation c = conversations.find(tenantId, conversationId, true);
        if (c == null) {
            return true;
        }
        Turn through = conversations.findTurn(c, plan.throughTurnId());
        if (through == null || through.getSeq() != plan.throughSequence()) {
            return true;
        }
        SummaryStore summaries = new SummaryStore(em);
        Summary current = summaries.find(tenantId, conversationId);
        boolean unchanged =
                current == null ? extended == null : extended != null && current.getVersion() == extended.getVersion();
        if (!unchanged) {
            return false;
        }
        Summary summary = current == null ? new Summary(c, ConversationWriter.now()) : current;
        TurnRecord first = turns.get(0);
        summary.write(
                plan.extend() ? current.getFirstSeq() : first.sequence(),
                plan.extend() ? current.getFirstTurnId() : first.turnId(),
                plan.throughSequence(),
                plan.throughTurnId(),
                (plan.extend() ? current.getTurnCount() : 0) + turns.size(),
                turns.size(),
                text,
                settings.tokenCounter().count(text),
                settings.tokenCounter().name(),
                SummaryStore.stored(method),
                ConversationWriter.now());
        if (current == null) {
            summaries.insert(summary);
        }
        return true;
    }
}

package org.agentmemory.conversation.boundary;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import org.agentmemory.conversation.control.TurnsDropped;

/**
 * Hands each committed {@link TurnsDropped} to {@link SummaryRefreshBean}, whose asynchronous method returns at once:
 * the write that fired the event has committed and its caller does not wait for the summary (issue 35 item 4).
 * Rolled-back writes fire nothing.
 */
@ApplicationScoped
public class SummaryRefreshTrigger {

    @EJB
    SummaryRefreshBean refresher;

    /** @param dropped a commit's dropped turns, after its write committed */
    void onTurnsDropped(@Observes(during = TransactionPhase.AFTER_SUCCESS) TurnsDropped dropped) {
        refresher.refresh(dropped);
    }
}

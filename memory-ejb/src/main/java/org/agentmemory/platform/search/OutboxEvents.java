package org.agentmemory.platform.search;

import jakarta.persistence.EntityManagerFactory;
import org.hibernate.search.mapper.orm.Search;
import org.hibernate.search.mapper.orm.outboxpolling.OutboxPollingExtension;
import org.hibernate.search.mapper.orm.outboxpolling.mapping.OutboxPollingSearchMapping;

/**
 * The outbox's aborted events, through Hibernate Search's outbox-polling API. Only loaded when the server uses
 * outbox polling ({@link SearchCoordination#outboxPolling()}): WildFly adds the module holding that API to the
 * deployment only then.
 *
 * <p>An event is aborted after its index write failed a few times in a row (Hibernate Search retries it after
 * {@code memory.search.outbox.retry-delay-seconds}), typically because the search engine was down; it stays in
 * {@code hsearch_outbox_event} with status {@code ABORTED} until it is reprocessed.
 */
final class OutboxEvents {

    private OutboxEvents() {}

    /**
     * @param emf the memory's persistence unit
     * @return how many events are aborted
     */
    static long aborted(EntityManagerFactory emf) {
        return mapping(emf).countAbortedEvents();
    }

    /**
     * Makes every aborted event pending again, so that an event processor indexes it at its next poll.
     *
     * @param emf the memory's persistence unit
     * @return how many events were made pending
     */
    static int reprocessAborted(EntityManagerFactory emf) {
        return mapping(emf).reprocessAbortedEvents();
    }

    private static OutboxPollingSearchMapping mapping(EntityManagerFactory emf) {
        return Search.mapping(emf).extension(OutboxPollingExtension.get());
    }
}

package org.agentmemory.platform.search;

/**
 * How index writes reach the search backend, as the server is configured ({@code memory.search.coordination}, read
 * as persistence.xml reads it; decision 0020): {@code none}, each server indexes its own writes when they commit, or
 * {@code outbox-polling}, every indexed write records an event in the database in its own transaction and the
 * servers' event processors index them (several servers on one database, writes that succeed while the search
 * engine is down).
 *
 * <p>Under outbox polling Hibernate Search refuses any indexing plan synchronization (HSEARCH800042): a write is
 * searchable once an event processor has indexed it, shortly after its commit, so nothing here waits for index
 * writes or customizes them.
 */
public final class SearchCoordination {

    /** The system property naming the coordination strategy. */
    public static final String PROPERTY = "memory.search.coordination";

    /** Hibernate Search's name of the outbox-polling coordination strategy. */
    public static final String OUTBOX_POLLING = "outbox-polling";

    private SearchCoordination() {}

    /** @return the configured coordination strategy's name, {@code none} when not set */
    public static String configured() {
        String value = System.getProperty(PROPERTY, "none").strip();
        return value.isEmpty() ? "none" : value;
    }

    /** @return whether writes are indexed through the outbox (several servers, asynchronous indexing) */
    public static boolean outboxPolling() {
        return OUTBOX_POLLING.equals(configured());
    }
}

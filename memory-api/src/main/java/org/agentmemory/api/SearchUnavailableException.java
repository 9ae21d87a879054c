package org.agentmemory.api;

import jakarta.ejb.ApplicationException;

/**
 * The search engine (an OpenSearch cluster) does not answer, so a recall cannot run now (issue 36 item 3). Writes
 * are not affected: they commit and wait in the outbox until the cluster answers again. REST answers it 503 with
 * {@code Retry-After}; remote and local EJB callers receive it as is.
 *
 * <p>Unchecked, unlike {@link MemoryException}: any search may meet it, and declaring it on every recall signature
 * would say nothing a caller can act on beyond retrying after {@link #retryAfterSeconds()}.
 */
@ApplicationException(rollback = true)
public class SearchUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int retryAfterSeconds;

    /**
     * @param message           what failed, without the engine's stack trace
     * @param retryAfterSeconds when to try again, seconds (at least 1)
     */
    public SearchUnavailableException(String message, int retryAfterSeconds) {
        super(message);
        this.retryAfterSeconds = Math.max(1, retryAfterSeconds);
    }

    /** @return when to try again, seconds, at least 1 */
    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }
}

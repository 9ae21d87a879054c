package org.agentmemory.platform.search;

import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.InvocationContext;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.agentmemory.api.SearchUnavailableException;

/**
 * Interceptor of the recall operations (conversation messages, episodes, brain pages, skills, working memory): when
 * the search backend is a cluster and a call finds it unreachable (a connection refused, reset or timed out anywhere
 * in the failure's causes), the caller gets a {@link SearchUnavailableException} instead of an internal error, and
 * {@link SearchEngineBreaker} makes the following calls fail at once for {@code memory.search.breaker-open-seconds}
 * (default 5) before one of them tries the cluster again. Other failures pass unchanged; on the embedded Lucene
 * backend nothing is intercepted (an I/O failure there is not an outage). Issue 36 item 3.
 */
public class SearchEngineGuard {

    private static final Logger LOG = Logger.getLogger(SearchEngineGuard.class.getName());

    /** One breaker per deployment: every recall bean reaches the same cluster. */
    static final SearchEngineBreaker BREAKER = new SearchEngineBreaker(
            TimeUnit.SECONDS.toMillis(Math.max(1, Long.getLong("memory.search.breaker-open-seconds", 5))));

    private static final boolean CLUSTER = "elasticsearch".equals(VectorFields.configuredBackend());

    /**
     * @param invocation the intercepted recall
     * @return its result
     * @throws Exception what it threw, or {@link SearchUnavailableException} when the cluster is unreachable
     */
    @AroundInvoke
    public Object guard(InvocationContext invocation) throws Exception {
        if (!CLUSTER) {
            return invocation.proceed();
        }
        long wait = BREAKER.waitMillis(now());
        if (wait > 0) {
            throw unavailable(wait);
        }
        try {
            Object result = invocation.proceed();
            BREAKER.succeeded();
            return result;
        } catch (RuntimeException e) {
            if (!unreachable(e)) {
                BREAKER.succeeded(); // the cluster answered; the failure is another one
                throw e;
            }
            BREAKER.failed(now());
            LOG.warning(() -> "The search cluster is unreachable (" + rootMessage(e) + "); recall answers 503 for "
                    + BREAKER.waitMillis(now()) / 1000 + " s before trying again");
            throw unavailable(BREAKER.waitMillis(now()));
        }
    }

    /**
     * @param failure a failure of a search call
     * @return whether it says the cluster could not be reached (an I/O failure among its causes)
     */
    static boolean unreachable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof IOException || t instanceof java.util.concurrent.TimeoutException) {
                return true;
            }
            String message = t.getMessage();
            if (message != null && message.contains("HSEARCH400588")) { // request timed out in the backend
                return true;
            }
        }
        return false;
    }

    private static SearchUnavailableException unavailable(long waitMillis) {
        int seconds = (int) Math.max(1, (waitMillis + 999) / 1000);
        return new SearchUnavailableException(
                "The search engine is unavailable; writes are kept and become searchable when it returns."
                        + " Retry the search in " + seconds + " s.",
                seconds);
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    private static long now() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
    }
}

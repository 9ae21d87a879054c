package org.agentmemory.recall.boundary;

import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.InvocationContext;

import org.agentmemory.embedding.ForegroundLoad;

/**
 * Counts the business calls of the public session beans (REST and EJB clients alike) as foreground requests, so
 * that the background embedder ({@link MessageEmbeddingBean}) yields the CPU while clients wait. Timer callbacks
 * are not business calls and are not counted. One counter per deployment.
 */
public class ForegroundRequests {

    /** The deployment's foreground load, read by the background embedder. */
    static final ForegroundLoad LOAD = new ForegroundLoad(System::nanoTime);

    @AroundInvoke
    Object count(InvocationContext invocation) throws Exception {
        long started = LOAD.begin();
        try {
            return invocation.proceed();
        } finally {
            LOAD.end(started);
        }
    }
}

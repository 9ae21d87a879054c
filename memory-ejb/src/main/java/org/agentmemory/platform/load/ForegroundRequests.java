package org.agentmemory.platform.load;

import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.InvocationContext;

/**
 * Counts the business calls of the public session beans (REST and EJB clients alike) as foreground requests, so
 * that the background embedder ({@code MessageEmbeddingBean}) yields the CPU while clients wait. Timer callbacks
 * are not business calls and are not counted. One counter per deployment.
 *
 * <p>Why the counter is static: the EJB container creates an instance of this interceptor for every instance of
 * every bean it intercepts, and all of them must count into the one counter the embedder reads. This class owns it;
 * its class loader is the deployment's, so a redeployment starts a new one.
 */
public class ForegroundRequests {

    /** The deployment's foreground load, counted here and read by the background embedder. */
    public static final ForegroundLoad LOAD = new ForegroundLoad(System::nanoTime);

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

package org.agentmemory.platform.embedding;

import jakarta.annotation.PreDestroy;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import java.util.logging.Logger;

/**
 * Frees the embedding models' native memory when the application stops or is undeployed (issue 37 item 5): the
 * ONNX Runtime classes live in the server's module or shared library, outside the EAR, so a redeploy keeps their
 * natives loaded, but each deployment's sessions (the models' weights; sizes in docs/benchmarks.md) are its own and would
 * otherwise stay allocated for the rest of the JVM. Closing waits for running inferences
 * ({@link InProcessEmbeddingModel#closeSessions()}); a call that comes later loads its model again.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class EmbeddingSessionsBean {

    private static final Logger LOG = Logger.getLogger(EmbeddingSessionsBean.class.getName());

    @PreDestroy
    void closeSessions() {
        int closed = InProcessEmbeddingModel.closeSessions();
        LOG.info(() -> "Closed " + closed + " embedding model session(s) of this deployment");
    }
}

package org.agentmemory.platform.embedding;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The query vector of a hybrid recall, or nothing when the model cannot run: hybrid recall then answers from
 * its full-text leg alone instead of failing (spec §10.3 treats embedding errors as non-fatal on write; recall
 * follows the same rule). A known cause: ONNX Runtime and the tokenizer are native libraries, which a JVM loads
 * once; after the EAR is redeployed without a server restart the new deployment cannot load them again.
 * Vector-only recall does not use this and reports the failure.
 */
public final class QueryVectors {

    private static final Logger LOG = Logger.getLogger(QueryVectors.class.getName());

    private QueryVectors() {}

    /**
     * @param model the embedding model
     * @param query the query text (not blank)
     * @return the query's vector, or {@code null} when the model failed (logged as a warning)
     */
    public static float[] orNull(EmbeddingModel model, String query) {
        try {
            return model.embedQuery(query);
        } catch (RuntimeException | LinkageError e) {
            LOG.log(
                    Level.WARNING,
                    "The embedding model " + model.name() + " failed; hybrid recall answers from full"
                            + " text only (after a redeployment, restart the server so the native libraries load again)",
                    e);
            return null;
        }
    }

    /**
     * The query vector of a vector-only recall: a model failure is reported (thrown), but a query in which the
     * model reads nothing gives {@code null}, and the recall then finds nothing, as a search for nothing should.
     *
     * @param model the embedding model
     * @param query the query text
     * @return the vector, or {@code null} when the query is unreadable ({@link UnreadableTextException})
     */
    public static float[] unlessUnreadable(EmbeddingModel model, String query) {
        try {
            return model.embedQuery(query);
        } catch (UnreadableTextException e) {
            return null;
        }
    }
}

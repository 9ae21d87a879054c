package org.agentmemory.it.support;

import java.time.Duration;
import java.time.Instant;

/**
 * Waits for the server's background embedder: conversation messages get their vectors about a second after
 * they are written ({@code memory.recall.embedding=background}), so vector and hybrid searches wait here first.
 */
public final class Embeddings {

    private Embeddings() {}

    /**
     * Polls {@code GET /admin/reindex/embeddings} until no message of the tenant waits for its vector.
     *
     * @param api     the server
     * @param timeout how long to wait at most
     * @throws IllegalStateException when messages are still pending after the timeout
     */
    public static void awaitVectors(Api api, Duration timeout) {
        awaitVectors(api, "", timeout);
    }

    /**
     * As {@link #awaitVectors(Api, Duration)} for the messages of one scope.
     *
     * @param api     the server
     * @param scope   a query string such as {@code ?userId=u} (URL-encoded), or {@code ""} for the whole tenant
     * @param timeout how long to wait at most
     */
    public static void awaitVectors(Api api, String scope, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        long pending = -1;
        while (Instant.now().isBefore(deadline)) {
            Api.Response r = api.get("/admin/reindex/embeddings" + scope);
            if (r.status() != 200) {
                throw new IllegalStateException(
                        "GET /admin/reindex/embeddings answered " + r.status() + ": " + r.body());
            }
            pending = r.json().get("pending").asLong();
            if (pending == 0) {
                return;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException(pending + " messages still have no vector after " + timeout);
    }
}

package org.agentmemory.rest;

import jakarta.ws.rs.core.Response;
import org.agentmemory.api.recall.QueryTerms;

/**
 * Tells a client that its full-text query was searched by its first {@value QueryTerms#MAX_TERMS} distinct words
 * ({@link QueryTerms}): the answer carries the {@value QueryTerms#HEADER} header ({@code kept=…; given=…}). The
 * service bounds the query itself; this only says so.
 */
public final class QueryShortening {

    private QueryShortening() {}

    /**
     * @param response the answer being built
     * @param query    the query as the client sent it, or {@code null}
     * @return {@code response}, with the header when the query was shortened
     */
    public static Response.ResponseBuilder mark(Response.ResponseBuilder response, String query) {
        QueryTerms.Bounded bounded = QueryTerms.bound(query);
        if (bounded.shortened()) {
            response.header(QueryTerms.HEADER, bounded.header());
        }
        return response;
    }
}

package org.agentmemory.security;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.Provider;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.rest.Problems;

/**
 * For a token narrowed to a user or agent, answers 404 to an operation on a conversation id of another user or agent
 * exactly as to an id that does not exist (no existence oracle), before the operation runs: reads, writes, deletes,
 * exports, context and omissions by conversation id alike. A token that is not narrowed passes untouched (the stores
 * scope every read by id to the tenant themselves). Runs after {@link AuthorizationFilter}.
 */
@Provider
@ConversationIdScoped
@Priority(Priorities.AUTHORIZATION + 100)
public class ConversationScopeFilter implements ContainerRequestFilter {

    @Inject
    Tenants tenants;

    @Context
    UriInfo uri;

    @Override
    public void filter(ContainerRequestContext request) {
        String id = uri.getPathParameters().getFirst("id");
        if (id == null || !tenants.scoped()) {
            return;
        }
        long conversationId;
        try {
            conversationId = Long.parseLong(id);
        } catch (NumberFormatException notAnId) {
            return; // the operation answers it as the id it cannot be
        }
        try {
            tenants.checkConversation(conversationId);
        } catch (NotFoundException e) {
            request.abortWith(Problems.of(404, e.kind(), "Not found", e.getMessage(), null, null, uri)
                    .build());
        }
    }
}

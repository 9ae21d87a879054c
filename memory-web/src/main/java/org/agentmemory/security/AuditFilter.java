package org.agentmemory.security;

import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.Provider;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.audit.AuditTrail;

/**
 * Appends an audit row for every call of an {@link Audited} operation, refused or not: tenant and subject of the
 * caller, the operation's name, the ids the request names in its path and query ({@link #TARGET_PARAMETERS}) and
 * the status answered. Never a body, so never message content. A failing audit write is logged, and the answer
 * stands.
 */
@Provider
@Audited
public class AuditFilter implements ContainerResponseFilter {

    private static final Logger LOG = Logger.getLogger(AuditFilter.class.getName());

    /** The path and query parameters written as the target, in this order; all of them are ids. */
    static final List<String> TARGET_PARAMETERS = List.of(
            "id", "sequence", "contentId", "episodeId", "conversationId", "chatbotId", "agentId", "userId", "turnId");

    @EJB
    AuditTrail audit;

    @Inject
    Tenants tenants;

    @Context
    ResourceInfo resource;

    @Context
    UriInfo uri;

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        Caller caller = tenants.caller();
        if (caller == null) {
            return; // not authenticated: counted by AuthenticationFilter
        }
        Audited audited = resource.getResourceMethod() == null
                ? null
                : resource.getResourceMethod().getAnnotation(Audited.class);
        String operation = audited == null || audited.value().isEmpty()
                ? request.getMethod() + " " + uri.getPath()
                : audited.value();
        try {
            audit.record(caller.tenant(), caller.subject(), operation, target(), response.getStatus());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "An audit row could not be written for " + operation, e);
        }
    }

    private String target() {
        StringBuilder target = new StringBuilder();
        MultivaluedMap<String, String> path = uri.getPathParameters();
        MultivaluedMap<String, String> query = uri.getQueryParameters();
        for (String name : TARGET_PARAMETERS) {
            String value = path.getFirst(name);
            if (value == null) {
                value = query.getFirst(name);
            }
            if (value != null) {
                if (!target.isEmpty()) {
                    target.append(' ');
                }
                target.append(name).append('=').append(value);
            }
        }
        return target.toString(); // the trail cuts it to its limit
    }
}

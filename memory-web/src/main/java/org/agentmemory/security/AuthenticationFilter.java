package org.agentmemory.security;

import jakarta.annotation.Priority;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.Provider;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.audit.AuditTrail;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.rest.Problems;

/**
 * Authenticates every REST request before it is matched to an operation, so that a caller without a valid token
 * learns nothing about paths, methods or bodies (401 comes before 404, 405 or 415).
 *
 * <ul>
 *   <li>Mode {@code jwt} (the default): {@code Authorization: Bearer <token>} is verified ({@link TokenVerifier});
 *       without it, or when it does not verify, 401 with {@code WWW-Authenticate: Bearer} and a problem that says
 *       "invalid token" and nothing about which check failed (the reason goes to the log at FINE).</li>
 *   <li>Mode {@code none}: every request is tenant {@code default} with every role.</li>
 * </ul>
 * The caller's tenant is then what {@link Tenants#current()} answers for the rest of the request;
 * {@link AuthorizationFilter} checks the operation's role once the request is matched.
 */
@Provider
@PreMatching
@Priority(Priorities.AUTHENTICATION)
public class AuthenticationFilter implements ContainerRequestFilter {

    private static final Logger LOG = Logger.getLogger(AuthenticationFilter.class.getName());

    private static final String BEARER = "Bearer ";

    @Inject
    SecuritySettings settings;

    @Inject
    Tenants tenants;

    @Context
    UriInfo uri;

    @EJB
    AuditTrail audit;

    @Override
    public void filter(ContainerRequestContext request) {
        Caller caller;
        if (settings.mode() == SecuritySettings.Mode.NONE) {
            caller = new Caller(ConversationKey.DEFAULT_TENANT, "anonymous", Roles.ALL);
        } else {
            String header = request.getHeaderString(HttpHeaders.AUTHORIZATION);
            if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
                failed();
                request.abortWith(unauthorized("A bearer token is required: send Authorization: Bearer <token>."));
                return;
            }
            try {
                caller = settings.verifier()
                        .verify(header.substring(BEARER.length()).strip());
            } catch (InvalidTokenException e) {
                LOG.log(Level.FINE, "Refused a bearer token: {0}", e.getMessage());
                failed();
                request.abortWith(unauthorized("invalid token"));
                return;
            }
        }
        tenants.authenticated(caller);
    }

    /** Counts a failed authentication for the audit trail (one row per minute); never fails the request. */
    private void failed() {
        try {
            audit.failedAuthentication();
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "A failed authentication could not be counted", e);
        }
    }

    private jakarta.ws.rs.core.Response unauthorized(String detail) {
        return Problems.of(401, "unauthorized", "Unauthorized", detail, null, null, uri)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"agent-memory\"")
                .build();
    }
}

package org.agentmemory.security;

import jakarta.annotation.Priority;
import jakarta.annotation.security.DenyAll;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.Provider;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.rest.Problems;

/**
 * Authenticates every REST request and enforces its operation's roles, before anything else reads it.
 *
 * <ul>
 *   <li>Mode {@code jwt} (the default): {@code Authorization: Bearer <token>} is verified ({@link TokenVerifier});
 *       without it, or when it does not verify, 401 with {@code WWW-Authenticate: Bearer} and a problem that says
 *       "invalid token" and nothing about which check failed (the reason goes to the log at FINE).</li>
 *   <li>Mode {@code none}: every request is tenant {@code default} with every role.</li>
 *   <li>The operation's {@link RolesAllowed} (method, else class) must name a role the caller has (roles include the
 *       ones below them, {@link Roles#expand}), else 403 naming the role. An operation without a rule is refused
 *       (fail closed); {@link PermitAll} admits any authenticated caller.</li>
 * </ul>
 * The caller's tenant is then what {@link Tenants#current()} answers for the rest of the request.
 */
@Provider
@Priority(Priorities.AUTHENTICATION)
public class AuthenticationFilter implements ContainerRequestFilter {

    private static final Logger LOG = Logger.getLogger(AuthenticationFilter.class.getName());

    private static final String BEARER = "Bearer ";

    private static final Map<Method, Rule> RULES = new ConcurrentHashMap<>();

    /** An operation's role rule: the roles that may call it, or everyone authenticated, or no one. */
    record Rule(List<String> roles, boolean permitAll) {

        static final Rule NONE = new Rule(List.of(), false);

        boolean admits(Caller caller) {
            return permitAll || roles.stream().anyMatch(caller::hasRole);
        }
    }

    @Inject
    SecuritySettings settings;

    @Inject
    Tenants tenants;

    @Context
    ResourceInfo resource;

    @Context
    UriInfo uri;

    @Override
    public void filter(ContainerRequestContext request) {
        Caller caller;
        if (settings.mode() == SecuritySettings.Mode.NONE) {
            caller = new Caller(ConversationKey.DEFAULT_TENANT, "anonymous", Roles.ALL);
        } else {
            String header = request.getHeaderString(HttpHeaders.AUTHORIZATION);
            if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
                request.abortWith(unauthorized("A bearer token is required: send Authorization: Bearer <token>."));
                return;
            }
            try {
                caller = settings.verifier()
                        .verify(header.substring(BEARER.length()).strip());
            } catch (InvalidTokenException e) {
                LOG.log(Level.FINE, "Refused a bearer token: {0}", e.getMessage());
                request.abortWith(unauthorized("invalid token"));
                return;
            }
        }
        Rule rule = rule();
        if (!rule.admits(caller)) {
            request.abortWith(Problems.of(
                            403,
                            "forbidden",
                            "Forbidden",
                            rule.roles().isEmpty()
                                    ? "This operation admits no caller."
                                    : "This operation needs the role " + String.join(" or ", rule.roles())
                                            + "; the token's groups claim does not grant it.",
                            null,
                            null,
                            uri)
                    .build());
            return;
        }
        tenants.authenticated(caller);
    }

    private jakarta.ws.rs.core.Response unauthorized(String detail) {
        return Problems.of(401, "unauthorized", "Unauthorized", detail, null, null, uri)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"agent-memory\"")
                .build();
    }

    private Rule rule() {
        Method method = resource.getResourceMethod();
        Class<?> type = resource.getResourceClass();
        if (method == null || type == null) {
            return Rule.NONE;
        }
        return RULES.computeIfAbsent(method, m -> rule(type, m));
    }

    /**
     * The role rule of a resource method: its own annotation, else its class's, searched up the class hierarchy (the
     * class the container calls may be a generated subclass without annotations).
     */
    static Rule rule(Class<?> resourceClass, Method method) {
        for (Class<?> k = resourceClass; k != null && k != Object.class; k = k.getSuperclass()) {
            try {
                Rule own = annotated(k.getDeclaredMethod(method.getName(), method.getParameterTypes()));
                if (own != null) {
                    return own;
                }
            } catch (NoSuchMethodException e) {
                // declared further up
            }
        }
        for (Class<?> k = resourceClass; k != null && k != Object.class; k = k.getSuperclass()) {
            Rule own = annotated(k);
            if (own != null) {
                return own;
            }
        }
        return Rule.NONE;
    }

    private static Rule annotated(java.lang.reflect.AnnotatedElement element) {
        if (element.isAnnotationPresent(DenyAll.class)) {
            return Rule.NONE;
        }
        if (element.isAnnotationPresent(PermitAll.class)) {
            return new Rule(List.of(), true);
        }
        RolesAllowed roles = element.getAnnotation(RolesAllowed.class);
        return roles == null ? null : new Rule(List.of(roles.value()), false);
    }
}

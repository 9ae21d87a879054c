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
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.Provider;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.agentmemory.rest.Problems;
import org.agentmemory.rest.ResourceMethods;

/**
 * Enforces the matched operation's role: its {@link RolesAllowed} (method, else class) must name a role the
 * authenticated caller has (roles include the ones below them, {@link Roles#expand}), else 403 naming the role. An
 * operation without a rule is refused (fail closed); {@link PermitAll} admits any authenticated caller. Runs after
 * {@link AuthenticationFilter}.
 */
@Provider
@Priority(Priorities.AUTHORIZATION)
public class AuthorizationFilter implements ContainerRequestFilter {

    private static final Map<Method, Rule> RULES = new ConcurrentHashMap<>();

    /** An operation's role rule: the roles that may call it, or everyone authenticated, or no one. */
    record Rule(List<String> roles, boolean permitAll) {

        static final Rule NONE = new Rule(List.of(), false);

        boolean admits(Caller caller) {
            return caller != null && (permitAll || roles.stream().anyMatch(caller::hasRole));
        }
    }

    @Inject
    Tenants tenants;

    @Context
    ResourceInfo resource;

    @Context
    UriInfo uri;

    @Override
    public void filter(ContainerRequestContext request) {
        Rule rule = rule();
        if (!rule.admits(tenants.caller())) {
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
        }
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
        for (Method declared : ResourceMethods.declarations(resourceClass, method)) {
            Rule own = annotated(declared);
            if (own != null) {
                return own;
            }
        }
        for (Class<?> k : ResourceMethods.classes(resourceClass)) {
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

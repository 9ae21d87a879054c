package org.agentmemory.security;

import java.util.Set;

/**
 * The verified caller of one request.
 *
 * @param tenant  the tenant every read and write of the request is scoped to; from the token's tenant claim
 * @param subject who called ({@code sub}, else {@code upn}); for logs and audit, never for scoping
 * @param roles   the caller's roles, expanded ({@link Roles#expand})
 */
public record Caller(String tenant, String subject, Set<String> roles) {

    public Caller {
        roles = Set.copyOf(roles);
    }

    /**
     * @param role a role of {@link Roles}
     * @return whether the caller has it
     */
    public boolean hasRole(String role) {
        return roles.contains(role);
    }
}

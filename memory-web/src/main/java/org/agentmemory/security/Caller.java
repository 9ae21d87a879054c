package org.agentmemory.security;

import java.util.Set;

/**
 * The verified caller of one request.
 *
 * @param tenant  the tenant every read and write of the request is scoped to; from the token's tenant claim
 * @param subject who called ({@code sub}, else {@code upn}); for logs and audit
 * @param roles   the caller's roles, expanded ({@link Roles#expand})
 * @param user    the one user the token may read and write (its user claim), or {@code null}: not narrowed
 * @param agent   the one agent (chatbot) the token may read and write (its agent claim), or {@code null}
 */
public record Caller(String tenant, String subject, Set<String> roles, String user, String agent) {

    public Caller {
        roles = Set.copyOf(roles);
    }

    /** A caller not narrowed to a user or agent. */
    public Caller(String tenant, String subject, Set<String> roles) {
        this(tenant, subject, roles, null, null);
    }

    /**
     * @param role a role of {@link Roles}
     * @return whether the caller has it
     */
    public boolean hasRole(String role) {
        return roles.contains(role);
    }

    /** @return whether the token is narrowed to a user or an agent */
    public boolean scoped() {
        return user != null || agent != null;
    }
}

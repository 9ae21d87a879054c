package org.agentmemory.security;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The roles of the service, from a token's {@code groups} claim. Each includes the ones below it: an operator may do
 * what an admin may, an admin what a writer may, a writer what a reader may.
 */
public final class Roles {

    /** Read, search, context assembly. */
    public static final String READER = "memory-reader";

    /** Reader, plus writes and imports. */
    public static final String WRITER = "memory-writer";

    /** Writer, plus a reindex of its own tenant, statistics across agents and exports of a tenant. */
    public static final String ADMIN = "memory-admin";

    /**
     * Admin, plus what spans every tenant: a reindex of every tenant's documents and index merges (issue 32 item 3).
     * For the service's operators, not for a tenant's administrators.
     */
    public static final String OPERATOR = "memory-operator";

    /** Every role. */
    public static final Set<String> ALL = Set.of(READER, WRITER, ADMIN, OPERATOR);

    private Roles() {}

    /**
     * @param groups the token's groups (any strings; unknown ones are kept and grant nothing here)
     * @return the groups with every role an included role implies
     */
    public static Set<String> expand(Collection<String> groups) {
        Set<String> roles = new LinkedHashSet<>(groups);
        if (roles.contains(OPERATOR)) {
            roles.add(ADMIN);
        }
        if (roles.contains(ADMIN)) {
            roles.add(WRITER);
        }
        if (roles.contains(WRITER)) {
            roles.add(READER);
        }
        return Set.copyOf(roles);
    }
}

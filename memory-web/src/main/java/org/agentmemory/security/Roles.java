package org.agentmemory.security;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The roles of the service, from a token's {@code groups} claim. Each includes the ones below it: an admin may do
 * what a writer may, a writer what a reader may.
 */
public final class Roles {

    /** Read, search, context assembly. */
    public static final String READER = "memory-reader";

    /** Reader, plus writes and imports. */
    public static final String WRITER = "memory-writer";

    /** Writer, plus reindex, statistics across agents and exports of a tenant. */
    public static final String ADMIN = "memory-admin";

    /** Every role, lowest first. */
    public static final Set<String> ALL = Set.of(READER, WRITER, ADMIN);

    private Roles() {}

    /**
     * @param groups the token's groups (any strings; unknown ones are kept and grant nothing here)
     * @return the groups with every role an included role implies
     */
    public static Set<String> expand(Collection<String> groups) {
        Set<String> roles = new LinkedHashSet<>(groups);
        if (roles.contains(ADMIN)) {
            roles.add(WRITER);
        }
        if (roles.contains(WRITER)) {
            roles.add(READER);
        }
        return Set.copyOf(roles);
    }
}

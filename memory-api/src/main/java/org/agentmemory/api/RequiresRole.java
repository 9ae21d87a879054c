package org.agentmemory.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The least role an EJB caller needs for an operation of a public view (issue 32 item 2), as REST's
 * {@code @RolesAllowed} says it for the same operation. Roles include the ones below them: {@link #OPERATOR} ⊃
 * {@link #ADMIN} ⊃ {@link #WRITER} ⊃ {@link #READER}. An authenticated EJB caller's roles come from the server's
 * security domain (on WildFly, Elytron's {@code ApplicationDomain}: {@code application-roles.properties}, LDAP, …).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface RequiresRole {

    /** Read, search, context assembly. */
    String READER = "memory-reader";

    /** Reader, plus writes and imports. */
    String WRITER = "memory-writer";

    /** Writer, plus a reindex of its own tenant and statistics across agents. */
    String ADMIN = "memory-admin";

    /** Admin, plus what spans every tenant: a reindex of every tenant, index merges. */
    String OPERATOR = "memory-operator";

    /** @return the least role, one of the constants above */
    String value();
}

package org.agentmemory.security;

import jakarta.ws.rs.NameBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a security-relevant operation (administration, import, export, deletion): {@link AuditFilter} appends one
 * audit row per call, with the caller, the ids the request names and the status answered (issue 32 item 5).
 */
@NameBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Audited {

    /** @return the operation's name in the audit trail, e.g. {@code conversation.delete} */
    String value() default "";
}
